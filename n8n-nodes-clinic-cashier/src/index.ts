/** The one bundle of the package: every node and credential class, which dist/'s small entry files re-export. */
export { ClinicCashierApi } from './credentials/ClinicCashierApi.credentials';
export { ClinicCashier } from './nodes/ClinicCashier/ClinicCashier.node';
export { ClinicCashierTrigger } from './nodes/ClinicCashierTrigger/ClinicCashierTrigger.node';
export { ClinicCashierStartingSoonTrigger } from './nodes/ClinicCashierStartingSoonTrigger/ClinicCashierStartingSoonTrigger.node';
