/*
 * ../shared (CONTRACT.md and the specs, kept beside this checkout) is read by the contract tests. `npm test` checks
 * for it first (pretest: `tsx scripts/shared.ts`), so a checkout without it stops at once and says where the folder
 * should be, instead of a bare ENOENT in the middle of the unit suites.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** The folder ../shared beside this checkout. */
export const SHARED_DIR = resolve(__dirname, '..', '..', 'shared');

/** The path of a file of ../shared; throws an error that says what is missing and where it should be. */
export const sharedFile = (name: string): string => {
  const file = join(SHARED_DIR, name);
  if (!existsSync(file)) {
    const what = existsSync(SHARED_DIR)
      ? `${name} is missing from ${SHARED_DIR}.`
      : `The shared specs folder ${SHARED_DIR} is missing.`;
    throw new Error(
      `${what}\nThe tests read ../shared (CONTRACT.md, specs/): a folder beside this checkout, ` +
        `i.e. ${SHARED_DIR}. Put a copy of the shared specs there and run again.`,
    );
  }
  return file;
};

if (require.main === module) {
  try {
    sharedFile('CONTRACT.md');
  } catch (e) {
    console.error((e as Error).message);
    process.exit(1);
  }
}
