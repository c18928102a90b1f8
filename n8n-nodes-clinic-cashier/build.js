// `npm run build -w n8n-nodes-clinic-cashier`: the nodes as CommonJS in dist/, with no runtime dependency. The
// core (the Zapier app's lib/, creates/, searches/, authentication.ts) is bundled in, with zod and the phone
// library, into dist/bundle.js, once; each node and credential file n8n loads is a line re-exporting its class from
// it. zapier-platform-core is replaced by src/core-shim.ts: the core needs only its `define*` helpers and error
// classes at run time, and the seam (src/seam.ts) does what its runtime does around a call.
const esbuild = require('esbuild');
const fs = require('node:fs');
const path = require('node:path');

const here = __dirname;
const dist = path.join(here, 'dist');

/** dist/ file → the class it exports: the names n8n's loader requires of a file (class name = file name). */
const ENTRIES = {
  'credentials/ClinicCashierApi.credentials.js': 'ClinicCashierApi',
  'nodes/ClinicCashier/ClinicCashier.node.js': 'ClinicCashier',
  'nodes/ClinicCashierTrigger/ClinicCashierTrigger.node.js': 'ClinicCashierTrigger',
  'nodes/ClinicCashierStartingSoonTrigger/ClinicCashierStartingSoonTrigger.node.js':
    'ClinicCashierStartingSoonTrigger',
};

/** The icon the nodes and the credentials name (`file:clinic-cashier.svg`, src/icon.ts), read beside each file. */
const ICON = path.join(here, 'icons', 'clinic-cashier.svg');

const build = async () => {
  fs.rmSync(dist, { recursive: true, force: true });
  const result = await esbuild.build({
    absWorkingDir: here,
    entryPoints: { bundle: 'src/index.ts' },
    outdir: dist,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    alias: { 'zapier-platform-core': './src/core-shim.ts' },
    minifyWhitespace: true,
    minifySyntax: true,
    keepNames: true,
    legalComments: 'none',
    metafile: true,
    logLevel: 'warning',
  });
  for (const [file, name] of Object.entries(ENTRIES)) {
    const out = path.join(dist, file);
    fs.mkdirSync(path.dirname(out), { recursive: true });
    const bundle = path.relative(path.dirname(out), path.join(dist, 'bundle.js'));
    fs.writeFileSync(out, `module.exports = { ${name}: require('./${bundle}').${name} };\n`);
    fs.copyFileSync(ICON, path.join(path.dirname(out), path.basename(ICON)));
  }
  const index = Object.values(ENTRIES)
    .map((name) => `  ${name}: require('./bundle.js').${name},`)
    .join('\n');
  fs.writeFileSync(path.join(dist, 'index.js'), `module.exports = {\n${index}\n};\n`);
  return result.metafile;
};

module.exports = { build, dist, ENTRIES, ICON };

if (require.main === module) {
  build().then(
    (meta) => {
      const bytes = meta.outputs['dist/bundle.js'].bytes;
      console.log(`dist/bundle.js: ${(bytes / 1024).toFixed(0)} KiB`);
    },
    (e) => {
      console.error(e.message);
      process.exit(1);
    },
  );
}
