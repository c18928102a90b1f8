// The part of libphonenumber-js the app uses, by name, so the bundle (scripts/bundle.js) leaves out the rest.
// Loaded on the first phone only, by `toE164` in lib/phone.ts.
export { parsePhoneNumberFromString } from 'libphonenumber-js/min';
