/**
 * The clinic's time: the specs give times "in the branch's time zone" without naming it, and the vendor's branches
 * are Saudi. Saudi Arabia keeps UTC+03:00 all year (no daylight saving).
 */
export const RIYADH_OFFSET_MINUTES = 180;
const RIYADH_OFFSET_MS = RIYADH_OFFSET_MINUTES * 60 * 1000;

/** An instant as ISO-8601 with the +03:00 offset the interfaces use for Saudi branches. */
export const saudiTime = (at: Date): string =>
  new Date(at.getTime() + RIYADH_OFFSET_MS).toISOString().replace(/\.\d{3}Z$/, '+03:00');
