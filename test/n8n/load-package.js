// `node load-package.js <package folder>`, run by test/n8n/package.test.ts in a child process, from a folder where
// nothing but Node's built-ins can be found: loads a built n8n package as n8n does and prints, as JSON, what each
// file its package.json lists gave, which of the built folder's scripts failed to load, and every module a file of
// the package required.
//
// n8n's loader takes a listed file's name up to its first dot as the class name and runs
// `new (require(file)[className])()`; a node's type is then `description.name`, a credential's `name`.
const fs = require('node:fs');
const Module = require('node:module');
const path = require('node:path');

const packageDir = path.resolve(process.argv[2]);
const manifest = JSON.parse(fs.readFileSync(path.join(packageDir, 'package.json'), 'utf8'));

const requested = [];
const ownRequire = Module.prototype.require;
Module.prototype.require = function (request) {
  if (this.filename.startsWith(packageDir + path.sep)) requested.push({ request, from: this.filename });
  // The optional peer is n8n's own: what matters here is only that it is the one package asked for.
  if (request === 'n8n-workflow') return {};
  return ownRequire.apply(this, arguments);
};

const load = (kind, file) => {
  const className = path.basename(file).split('.')[0];
  try {
    const exported = require(path.join(packageDir, file))[className];
    const instance = new exported();
    return {
      kind,
      file,
      className,
      exportedName: exported.name,
      isClass: Function.prototype.toString.call(exported).startsWith('class'),
      typeName: kind === 'node' ? instance.description?.name : instance.name,
    };
  } catch (error) {
    return { kind, file, className, error: String(error) };
  }
};

const files = [
  ...(manifest.n8n?.nodes ?? []).map((file) => load('node', file)),
  ...(manifest.n8n?.credentials ?? []).map((file) => load('credential', file)),
];

// Every other script of the built folder too, so one no list names cannot require more unseen.
const scripts = fs
  .readdirSync(path.join(packageDir, 'dist'), { recursive: true })
  .filter((name) => name.endsWith('.js'));
const failed = [];
for (const name of scripts) {
  try {
    require(path.join(packageDir, 'dist', name));
  } catch (error) {
    failed.push({ script: name, error: String(error) });
  }
}

process.stdout.write(JSON.stringify({ files, scripts, failed, requested }));
