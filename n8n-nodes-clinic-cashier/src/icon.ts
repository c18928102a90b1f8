/**
 * The package's icon for n8n: icons/clinic-cashier.svg, which build.js copies beside every node and credential file
 * (n8n's loader reads a `file:` icon relative to the file that declares it). The Zapier logo's mark (a receipt with
 * a clinic cross, scripts/make-logo.ts) in two colours.
 */
export const ICON = 'file:clinic-cashier.svg';
