// The build.zip a production install ships, beside a one-trigger app's built the same way.
//
// `zapier-platform push` builds from a copy of the whole folder after `npm install --production`. That install
// keeps what the shipped app does not need: the sandbox (an npm workspace, so its package.json and a
// node_modules/clinic-pos-sandbox link are zipped; the CLI honours no ignore file for build.zip, only .gitignore
// for source.zip) and node-fetch's optional peer `encoding` with iconv-lite (in the lockfile only because a dev
// tool's dependency lists it, and marked optional rather than dev, so `--omit=dev` keeps it). This copies only
// what ships (package.json without `workspaces`, the lockfile, index.js, dist/, .zapierapprc) next to a hard-link
// copy of node_modules, prunes it with `npm prune --omit=dev --omit=optional`, and runs
// what `zapier-platform build --skip-dep-install --skip-validation` runs there (the CLI's own build function, for both
// folders in one process: the command's start-up, update check and analytics call cost more than a build and need
// the network). To ship exactly this, push from that folder with `zapier-platform push --skip-dep-install`
// (`npm run build:production -- --keep` leaves it and says how).
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { run } = require('./run');
const { helpIfAsked } = require('./help');

if (require.main === module) {
  helpIfAsked(`npm run build:production [-- --keep]: the build.zip a production install ships, beside a one-trigger app's.
--keep leaves the folder it built in and prints the push command to run there. docs/publishing.md says more.`);
}

const root = path.resolve(__dirname, '..');
const cli = path.join(root, 'node_modules', '.bin', 'zapier-platform');

const ONE_TRIGGER = `const zapier = require('zapier-platform-core');
module.exports = { version: '1.0.0', platformVersion: zapier.version, triggers: { thing: { key: 'thing', noun: 'Thing',
  display: { label: 'New Thing', description: 'Triggers when a thing is added.' },
  operation: { perform: async () => [], sample: { id: 1 } } } } };
`;

/**
 * The top-level packages of `dir`'s lockfile that a production install keeps (neither dev nor optional, as
 * `--omit=dev --omit=optional`), each with what is nested in it. A superset of what `prune` leaves: the workspace
 * link and its dependencies are pruned after, as an install without `workspaces` has none.
 */
const productionPackages = (dir) => {
  const { packages } = JSON.parse(fs.readFileSync(path.join(dir, 'package-lock.json'), 'utf8'));
  const names = new Set();
  for (const [where, entry] of Object.entries(packages)) {
    if (!where.startsWith('node_modules/') || entry.dev || entry.optional) continue;
    names.add(where.slice('node_modules/'.length).split('/node_modules/')[0]);
  }
  return [...names];
};

/**
 * The `names` of `from`'s node_modules in `to` as hard links; npm writes only new files, so the original is never
 * changed (its hidden lockfile, which npm rewrites in place, is not among them).
 */
const linkModules = (from, to, names) => {
  const byParent = new Map();
  for (const name of names) {
    const parent = path.join(to, 'node_modules', path.dirname(name));
    byParent.set(parent, [...(byParent.get(parent) ?? []), path.join(from, 'node_modules', name)]);
  }
  for (const [parent, sources] of byParent) {
    fs.mkdirSync(parent, { recursive: true });
    run('cp', ['-al', ...sources, parent]);
  }
};

const prune = (dir) =>
  run('npm', ['prune', '--omit=dev', '--omit=optional', '--ignore-scripts', '--no-audit', '--no-fund'], {
    cwd: dir,
  });

/** The CLI's build of each folder (`zapier-platform build --skip-dep-install --skip-validation`), in one process. */
const zapierBuild = (dirs) => run(process.execPath, [__filename, '--zapier-build', ...dirs]);

/** The build function the CLI's `build` command calls, with the command's flags; `dirs` one after another. */
const zapierBuildHere = async (dirs) => {
  // The build then loads the zip's zapierwrapper.js and index.js in a child process to check that they load, and
  // kills it after 5 s: on a loaded two-core machine the load alone took longer, and a zip that loads failed the
  // build. The same check here waits for the child to exit. (build.js takes runCommand from misc.js when it loads.)
  const misc = require(require.resolve('zapier-platform-cli/src/utils/misc', { paths: [root] }));
  const { runCommand } = misc;
  misc.runCommand = (command, args, options) => runCommand(command, args, { ...options, timeout: undefined });
  const { buildAndOrUpload } = require(
    require.resolve('zapier-platform-cli/src/utils/build', { paths: [root] }),
  );
  for (const dir of dirs) {
    process.chdir(dir);
    await buildAndOrUpload(
      { build: true },
      { skipDepInstall: true, skipValidation: true, printProgress: false, checkOutdated: false },
    );
  }
};

/**
 * Describes `dir`'s build.zip and unpacks it beside `dir` (`folder`, `<dir>-unpacked`: not in `dir`, which `--keep`
 * leaves to push from), as Zapier runs it.
 */
const zipOf = (dir) => {
  const zip = path.join(dir, 'build', 'build.zip');
  const names = run('unzip', ['-Z1', zip], { encoding: 'utf8' }).trim().split('\n');
  const listing = run('unzip', ['-l', zip], { encoding: 'utf8' }).trim().split('\n');
  const total = listing[listing.length - 1].trim().split(/\s+/);
  const folder = `${dir}-unpacked`;
  run('unzip', ['-q', zip, '-d', folder]);
  return { zip, bytes: fs.statSync(zip).size, unpacked: Number(total[0]), names, folder };
};

/**
 * Builds this app (after `npm run build`) and the one-trigger app on the same core from production installs in a
 * temporary folder; returns both zips' sizes, file names and unpacked folders, and `dir` to remove when done.
 */
const productionBuild = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zapier-production-'));
  const app = path.join(dir, 'app');
  fs.mkdirSync(app);
  const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
  delete pkg.workspaces;
  fs.writeFileSync(path.join(app, 'package.json'), JSON.stringify(pkg, null, 2));
  fs.writeFileSync(path.join(app, '.gitignore'), 'node_modules/\nbuild/\n'); // source.zip: the code only
  for (const name of ['package-lock.json', 'index.js', 'dist', '.zapierapprc']) {
    fs.cpSync(path.join(root, name), path.join(app, name), { recursive: true });
  }
  // Only the production packages: copying the 1,200 dev ones for `prune` to delete cost more than the builds.
  linkModules(root, app, productionPackages(root));
  prune(app);

  const one = path.join(dir, 'one-trigger');
  fs.mkdirSync(one);
  const core = JSON.parse(
    fs.readFileSync(path.join(app, 'node_modules', 'zapier-platform-core', 'package.json'), 'utf8'),
  ).version;
  const onePkg = { name: 'one-trigger', version: '1.0.0', private: true, main: 'index.js' };
  onePkg.dependencies = { 'zapier-platform-core': core };
  fs.writeFileSync(path.join(one, 'package.json'), JSON.stringify(onePkg, null, 2));
  fs.writeFileSync(path.join(one, 'index.js'), ONE_TRIGGER);
  for (const name of ['.zapierapprc', '.gitignore']) fs.cpSync(path.join(app, name), path.join(one, name));
  const pruned = fs
    .readdirSync(path.join(app, 'node_modules'))
    .filter((name) => name !== '.package-lock.json');
  linkModules(app, one, pruned);
  prune(one);

  zapierBuild([app, one]);
  return { dir, app: zipOf(app), oneTrigger: zipOf(one) };
};

module.exports = { productionBuild, ONE_TRIGGER };

if (require.main === module && process.argv[2] === '--zapier-build') {
  zapierBuildHere(process.argv.slice(3)).catch((error) => {
    console.error(error);
    process.exit(1);
  });
} else if (require.main === module) {
  // `node scripts/production-build.js [--keep]`: sizes; with --keep, the folder stays, to push from it.
  const { dir, app, oneTrigger } = productionBuild();
  const mib = (n) => `${(n / 1024 / 1024).toFixed(2)} MiB`;
  console.log(`build.zip: ${mib(app.bytes)} (${app.names.length} files, ${mib(app.unpacked)} unpacked)`);
  console.log(`one-trigger app: ${mib(oneTrigger.bytes)} (${oneTrigger.names.length} files)`);
  console.log(`ratio: ${(app.bytes / oneTrigger.bytes).toFixed(2)}×`);
  if (process.argv.includes('--keep')) {
    console.log(`kept: cd ${path.join(dir, 'app')} && ${cli} push --skip-dep-install`);
  } else {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
