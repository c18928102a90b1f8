/*
 * ../shared is the vendor's partner documentation kept beside this checkout: the two interface specs and the app's
 * public contract (CONTRACT.md). One check reads it: test/contract.test.ts compares the definition with
 * CONTRACT.md's tables. A clone without it still installs and passes every other test; `npm test` says in one line
 * (pretest: `tsx scripts/shared.ts`) that the comparison did not run and why. CI always has the folder, so there
 * its absence is an error rather than a skipped check.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** The folder ../shared beside this checkout. */
export const SHARED_DIR = resolve(__dirname, '..', '..', 'shared');

/** The path of a file of ../shared, or undefined when the folder or the file is not there. */
export const sharedFileIfPresent = (name: string): string | undefined => {
  const file = join(SHARED_DIR, name);
  return existsSync(file) ? file : undefined;
};

/** Why the contract comparison cannot run here, in one line; undefined when it can. */
export const sharedMissing = (): string | undefined =>
  sharedFileIfPresent('CONTRACT.md')
    ? undefined
    : `${existsSync(SHARED_DIR) ? `${SHARED_DIR} has no CONTRACT.md` : `${SHARED_DIR} is not there`}: the check of the app against CONTRACT.md did not run (README, "../shared: the partner documentation").`;

if (require.main === module) {
  const missing = sharedMissing();
  if (missing) {
    console.log(missing);
    if (process.env.CI === 'true') process.exit(1);
  }
}
