import { authentication } from '../../../authentication';
import { propertyOf } from '../fields';
import { ICON } from '../icon';

/**
 * The connection of the Zapier app (authentication.ts), field for field: the same keys, labels and address rules,
 * so a token and an address that work on Zapier work here. Its test is the app's own (GET /ping on each interface
 * that has a token), run by the nodes' `credentialTest` (src/connection.ts).
 */
export class ClinicCashierApi {
  name = 'clinicCashierApi';
  displayName = 'Clinic & Cashier API';
  icon = ICON;
  documentationUrl = 'https://www.npmjs.com/package/n8n-nodes-clinic-cashier';
  properties = authentication.fields.map((field) => propertyOf(field));
}
