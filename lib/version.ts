/** The app's version as pushed to Zapier; a test keeps it equal to package.json's. */
export const APP_VERSION = '1.0.0';
