// `npm run build`: the app as one CommonJS file, dist/index.js, which the root index.js re-exports (Zapier's
// wrapper requires the root; PLATFORM-NOTES, Runtime and build). esbuild bundles the sources with the parts of zod
// and libphonenumber-js the app uses (lib/zod-parts.ts, lib/phone-parts.ts: named imports, so the rest, zod's 65
// locales among it, is left out), which is why the shipped package depends on zapier-platform-core alone; core stays
// external, because the wrapper requires it from node_modules. Both libraries are reached by require() on first use
// (lib/zod.ts, lib/phone.ts): esbuild keeps that lazy, wrapping their modules in init functions called then, not at
// load (test/e2e/shipped.test.ts holds the shipped build to it). Types are checked by `npm run typecheck`, not here.
// Whitespace and syntax are minified; identifiers and names are not, so messages and stacks read as in the sources.
const esbuild = require('esbuild');
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const outfile = path.join(root, 'dist', 'index.js');

/** Bundles index.ts into dist/index.js; answers esbuild's metafile (what each input added to the output). */
const bundle = async () => {
  fs.rmSync(path.join(root, 'dist'), { recursive: true, force: true });
  const result = await esbuild.build({
    absWorkingDir: root,
    entryPoints: ['index.ts'],
    outfile,
    bundle: true,
    platform: 'node',
    target: 'node22',
    format: 'cjs',
    external: ['zapier-platform-core'],
    minifyWhitespace: true,
    minifySyntax: true,
    keepNames: true,
    legalComments: 'none',
    metafile: true,
    logLevel: 'warning',
  });
  return result.metafile;
};

module.exports = { bundle, outfile };

if (require.main === module) {
  bundle().then(
    (meta) => {
      // What each package (and the app's own sources) adds to the file.
      const output = meta.outputs[path.relative(root, outfile)];
      const by = {};
      for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) {
        const name = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input)?.[1] ?? 'the app';
        by[name] = (by[name] ?? 0) + bytesInOutput;
      }
      const kib = (n) => `${(n / 1024).toFixed(0)} KiB`;
      const parts = Object.entries(by).map(([name, n]) => `${name} ${kib(n)}`);
      console.log(`dist/index.js: ${kib(output.bytes)} (${parts.join(', ')})`);
    },
    (e) => {
      console.error(e.message);
      process.exit(1);
    },
  );
}
