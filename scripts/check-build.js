#!/usr/bin/env node
// Builds build/build.zip exactly as `zapier-platform push` would (offline variant), unpacks it, and loads the app
// from the unpacked copy through core's own wrapper, as Zapier's runtime does. Fails if the zip lacks dist/ or
// any trigger, or if the entry exports the app under `default` (which the runtime would not unwrap).
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const cli = path.join(root, 'node_modules', '.bin', 'zapier-platform');
execFileSync(cli, ['build', '--skip-dep-install', '--skip-validation'], { cwd: root, stdio: 'inherit' });

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zapier-build-'));
execFileSync('unzip', ['-q', path.join(root, 'build', 'build.zip'), '-d', dir]);

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
const result = JSON.parse(execFileSync(process.execPath, ['-e', probe], { cwd: dir, encoding: 'utf8' }));
const { TRIGGER } = require(path.join(root, 'dist', 'lib', 'keys.js'));
const hookKeys = Object.values(TRIGGER).filter((k) => k !== TRIGGER.appointmentStartingSoon);

const problems = [];
if (result.handler !== 'function') problems.push('zapierwrapper.js has no handler');
if (result.exportsDefault) problems.push('the entry exports `default`: use `export =`');
for (const key of Object.values(TRIGGER)) {
  if (!result.appTriggers.includes(key)) problems.push(`the zipped app lacks trigger ${key}`);
}
for (const key of hookKeys) {
  const t = result.definitionTriggers.find((d) => d.key === key);
  if (!t || t.type !== 'hook' || !t.hook || !t.sample || !t.outputFields) {
    problems.push(`definition.json: ${key} is not a complete hook trigger`);
  }
}
fs.rmSync(dir, { recursive: true, force: true });
if (problems.length) {
  console.error(`Build check failed:\n- ${problems.join('\n- ')}`);
  process.exit(1);
}
console.log(
  `Build check passed: build.zip loads through zapierwrapper.js with ${result.appTriggers.length} triggers (${hookKeys.length} hook triggers complete).`,
);
