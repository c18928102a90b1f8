// `npm run build`: the app as CommonJS in dist/, which the root index.js re-exports (Zapier's wrapper requires the
// root; PLATFORM-NOTES, Runtime and build). esbuild bundles the sources into dist/index.js, and the parts of zod and
// libphonenumber-js the app uses (lib/zod-parts.ts, lib/phone-parts.ts: named imports, so the rest, zod's 65 locales
// among it, is left out) into files of their own beside it, dist/zod-parts.js and dist/phone-parts.js, which is why
// the shipped package depends on zapier-platform-core alone; core stays external, because the wrapper requires it from
// node_modules. Both libraries are reached by require() on first use (lib/zod.ts, lib/phone.ts), so a cold start reads
// and compiles dist/index.js alone: V8 need not even pre-parse the 300 KiB of the two libraries until an action needs
// them (docs/performance.md, cold start; test/e2e/shipped.test.ts holds the shipped build to it). The sources'
// `require('./zod-parts')` becomes `require('./zod-parts.js')` in dist/index.js, a literal path that Zapier's build
// traces (scripts/production-build.js ships what it finds). Types are checked by `npm run typecheck`, not here.
// Whitespace and syntax are minified; identifiers and names are not, so messages and stacks read as in the sources.
const esbuild = require('esbuild');
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const dist = path.join(root, 'dist');
const outfile = path.join(dist, 'index.js');

/** dist/ file name (without .js) → its source: the app, and the two libraries it loads on first use. */
const ENTRIES = { index: 'index.ts', 'zod-parts': 'lib/zod-parts.ts', 'phone-parts': 'lib/phone-parts.ts' };

/** The sources' require of a library part (`./zod-parts` in lib/) stays a require, of its file beside the bundle. */
const partsApart = {
  name: 'parts-apart',
  setup(build) {
    build.onResolve({ filter: /^\.\/(zod|phone)-parts$/ }, (args) => {
      if (args.kind === 'entry-point') return undefined;
      if (args.kind !== 'require-call' || path.dirname(args.importer) !== path.join(root, 'lib')) {
        // An import would put the library back in the bundle and load it with the app: only lib/zod.ts and
        // lib/phone.ts reach them, by require() on first use.
        return {
          errors: [{ text: `${args.path} is required on first use only (lib/zod.ts, lib/phone.ts)` }],
        };
      }
      return { path: `${args.path}.js`, external: true };
    });
  },
};

/**
 * Bundles the app into dist/ (ENTRIES); answers esbuild's metafile (what each input added to each output). The files
 * are written in a folder of their own and moved in one by one (a rename replaces a file at once): `npm test`
 * validates dist/ while the shipped-build suite bundles again, and a dist/ emptied first was read as no app at all.
 */
const bundle = async () => {
  fs.mkdirSync(dist, { recursive: true });
  const next = fs.mkdtempSync(path.join(dist, '.next-'));
  try {
    const result = await build(next);
    const names = fs.readdirSync(next);
    for (const name of fs.readdirSync(dist)) {
      if (!names.includes(name) && !name.startsWith('.next-'))
        fs.rmSync(path.join(dist, name), { recursive: true });
    }
    for (const name of names) fs.renameSync(path.join(next, name), path.join(dist, name));
    const from = `${path.relative(root, next)}/`;
    const outputs = Object.entries(result.metafile.outputs).map(([file, output]) => [
      file.replace(from, 'dist/'),
      output,
    ]);
    return { ...result.metafile, outputs: Object.fromEntries(outputs) };
  } finally {
    fs.rmSync(next, { recursive: true, force: true });
  }
};

const build = (outdir) =>
  esbuild.build({
    absWorkingDir: root,
    entryPoints: ENTRIES,
    outdir,
    bundle: true,
    platform: 'node',
    target: 'node22',
    format: 'cjs',
    external: ['zapier-platform-core'],
    plugins: [partsApart],
    minifyWhitespace: true,
    minifySyntax: true,
    keepNames: true,
    legalComments: 'none',
    metafile: true,
    logLevel: 'warning',
  });

module.exports = { bundle, outfile, ENTRIES };

if (require.main === module) {
  bundle().then(
    (meta) => {
      // What each package (and the app's own sources) adds to each file.
      const kib = (n) => `${(n / 1024).toFixed(0)} KiB`;
      for (const [file, output] of Object.entries(meta.outputs)) {
        const by = {};
        for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) {
          const name = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input)?.[1] ?? 'the app';
          by[name] = (by[name] ?? 0) + bytesInOutput;
        }
        const parts = Object.entries(by).map(([name, n]) => `${name} ${kib(n)}`);
        console.log(`${file}: ${kib(output.bytes)} (${parts.join(', ')})`);
      }
    },
    (e) => {
      console.error(e.message);
      process.exit(1);
    },
  );
}
