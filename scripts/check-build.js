#!/usr/bin/env node
// Builds build.zip from a production install exactly as it would ship (scripts/production-build.js), unpacks it,
// and loads the app from the unpacked copy through core's own wrapper, as Zapier's runtime does. Fails if the zip
// lacks any of the bundle's dist/ files (the app, and zod's and the phone library's parts it requires on first use) or
// any trigger of the contract, if the entry exports the app under `default` (which the runtime would
// not unwrap), if it carries the sandbox, another development folder (harness/, test/…) or a package the bundle
// already holds or only dev tools need, or if it is over 1.5× the one-trigger app's build. test/e2e/shipped.test.ts runs deliveries and actions through
// the same build.
const { run } = require('./run');
const { helpIfAsked } = require('./help');

helpIfAsked(`npm run check:build: builds build.zip from a production install exactly as it would ship, loads the
app from it as Zapier's runtime does, and fails if a file is missing or extra or the zip is over 1.5x a one-trigger
app's. docs/publishing.md says more.`);
const fs = require('node:fs');
const path = require('node:path');
const { productionBuild } = require('./production-build');
const { ENTRIES } = require('./bundle');

/** build.zip ÷ the one-trigger app's build.zip at most. */
const CEILING = 1.5;

const root = path.resolve(__dirname, '..');

/**
 * What is wrong with a production build (`productionBuild()`'s result, loaded from its unpacked zip): a list of problems,
 * empty when it would ship, and the figures to print. test/e2e/shipped.test.ts runs it on the build it runs.
 */
const checkBuild = (built) => {
  const dir = built.app.folder;
  const probe = `
    const wrapper = require(${JSON.stringify(path.join(dir, 'zapierwrapper.js'))});
    const app = require(${JSON.stringify(path.join(dir, 'index.js'))});
    const definition = require(${JSON.stringify(path.join(dir, 'definition.json'))});
    process.stdout.write(JSON.stringify({
      handler: typeof wrapper.handler,
      exportsDefault: 'default' in app,
      appTriggers: Object.keys(app.triggers || {}),
      definitionTriggers: Object.entries(definition.triggers || {}).map(([k, t]) => ({
        key: k, type: t.operation.type, hidden: !!(t.display && t.display.hidden),
        hook: ['perform', 'performList', 'performSubscribe', 'performUnsubscribe'].every((f) => t.operation[f]),
        sample: !!t.operation.sample, outputFields: (t.operation.outputFields || []).length,
      })),
    }));
  `;
  const result = JSON.parse(run(process.execPath, ['-e', probe], { cwd: dir, encoding: 'utf8' }));
  // The public surface (CONTRACT.md), as test/contract.test.ts holds the sources to it.
  const contract = require(path.join(root, 'test', 'contract', 'definition-snapshot.json'));
  const contractTriggers = Object.entries(contract.triggers);
  const hookKeys = contractTriggers.filter(([, t]) => t.type === 'hook').map(([key]) => key);

  const problems = [];
  const stray = built.app.names.filter((n) =>
    /^(sandbox|harness|test|bench|scripts|\.n8n-lane)\/|node_modules\/(clinic-pos-sandbox|fastify|encoding|iconv-lite|zod|libphonenumber-js)\//.test(
      `${n}/`,
    ),
  );
  if (stray.length)
    problems.push(`the zip carries what the app never loads: ${stray.slice(0, 5).join(', ')}`);
  // Zapier's build ships what it traces from index.js: the parts required on first use must be among it.
  const missing = Object.keys(ENTRIES)
    .map((name) => `dist/${name}.js`)
    .filter((file) => !built.app.names.includes(file));
  if (missing.length) problems.push(`the zip lacks ${missing.join(', ')}`);
  const ratio = built.app.bytes / built.oneTrigger.bytes;
  if (ratio > CEILING)
    problems.push(`build.zip is ${ratio.toFixed(2)}× the one-trigger app's (ceiling ${CEILING}×)`);
  if (result.handler !== 'function') problems.push('zapierwrapper.js has no handler');
  if (result.exportsDefault) problems.push('the entry exports `default`: use `export =`');
  for (const [key] of contractTriggers) {
    if (!result.appTriggers.includes(key)) problems.push(`the zipped app lacks trigger ${key}`);
  }
  for (const key of hookKeys) {
    const t = result.definitionTriggers.find((d) => d.key === key);
    if (!t || t.type !== 'hook' || !t.hook || !t.sample || !t.outputFields) {
      problems.push(`definition.json: ${key} is not a complete hook trigger`);
    }
  }
  const mib = (n) => `${(n / 1024 / 1024).toFixed(2)} MiB`;
  return {
    problems,
    summary: [
      `Build check passed: build.zip loads through zapierwrapper.js with ${result.appTriggers.length} triggers (${hookKeys.length} hook triggers complete).`,
      `Production build.zip ${mib(built.app.bytes)} (${built.app.names.length} files), one-trigger app ${mib(built.oneTrigger.bytes)}: ${ratio.toFixed(2)}× (goal ≤ ${CEILING}×).`,
    ],
  };
};

module.exports = { checkBuild };

if (require.main === module) {
  const built = productionBuild();
  const { problems, summary } = checkBuild(built);
  fs.rmSync(built.dir, { recursive: true, force: true });
  if (problems.length) {
    console.error(`Build check failed:\n- ${problems.join('\n- ')}`);
    process.exit(1);
  }
  for (const line of summary) console.log(line);
}
