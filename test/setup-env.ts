import { UNIT_BASE_URLS } from './fixtures';

// Default base addresses for the unit suites, as the app's environment would set them on Zapier. The recorded
// fixtures (test/fixtures) are rewritten to these by `npm run record`.
process.env.CLINIC_BASE_URL = UNIT_BASE_URLS.clinic;
process.env.CASHIER_BASE_URL = UNIT_BASE_URLS.cashier;
