// Default base addresses for the unit suites, as the app's environment would set them on Zapier.
process.env.CLINIC_BASE_URL = 'https://clinic.example.test/partner/v1';
process.env.CASHIER_BASE_URL = 'https://pos.example.test/api/partner/v1';
