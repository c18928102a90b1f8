/*
 * Rewrites test/contract/definition-snapshot.json from the app's sources: `npm run contract:update`.
 * Run it deliberately, when a version that removes or renames something is meant to be a new major version
 * (or before the first push), and commit the result with the change. CI never runs it: test/contract.test.ts
 * compares the committed snapshot with the definition instead.
 */
import { writeFileSync } from 'node:fs';
import { helpIfAsked } from './help';
import path from 'node:path';
import { format, resolveConfig } from 'prettier';
import { loadDefinition } from './checks/definition';
import { breakingChanges, contractOf, type ContractSnapshot } from './contract';
import { readSnapshot, SNAPSHOT_PATH } from './snapshot';

helpIfAsked(`npm run contract:update: rewrites test/contract/definition-snapshot.json from the app's sources and
names any key it removes or renames (a breaking change for published Zaps). Run it deliberately and commit the result;
test/contract.test.ts compares the committed snapshot with the app.`);

const main = async () => {
  // The sources, not the last build: tsx loads index.ts as the tests do.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const app = require(path.resolve(__dirname, '..', 'index.ts')) as object;
  const next: ContractSnapshot = contractOf(loadDefinition(app));
  const previous = readSnapshot();
  const breaking = previous ? breakingChanges(previous, next) : [];
  const json = JSON.stringify(next, null, 2);
  const options = (await resolveConfig(SNAPSHOT_PATH)) ?? {};
  writeFileSync(SNAPSHOT_PATH, await format(json, { ...options, filepath: SNAPSHOT_PATH }));
  console.log(`Wrote ${path.relative(process.cwd(), SNAPSHOT_PATH)}.`);
  if (breaking.length) {
    console.log(
      `It drops what live Zaps may use (publish it as a new major version):\n- ${breaking.join('\n- ')}`,
    );
  }
};

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
