/**
 * The built package as n8n loads it. The package is built (n8n-nodes-clinic-cashier/build.js, as `npm run build -w
 * n8n-nodes-clinic-cashier` runs it) into a temporary folder beside a copy of its package.json, not into dist/, which
 * a running n8n may be loading; then a child process loads it from there, where nothing but Node's built-ins can be
 * found (test/n8n/load-package.js). Every file `n8n.nodes` and `n8n.credentials` list must exist and export a class
 * named as the file (n8n's loader finds the class by the file's name), and the built scripts may require only Node's
 * built-ins, the optional peer `n8n-workflow` and each other, when loaded or later.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve, sep } from 'node:path';

const PACKAGE = join(__dirname, '..', '..', 'n8n-nodes-clinic-cashier');
const manifest = JSON.parse(readFileSync(join(PACKAGE, 'package.json'), 'utf8')) as {
  n8n?: { nodes?: string[]; credentials?: string[] };
};
const LISTED = [...(manifest.n8n?.nodes ?? []), ...(manifest.n8n?.credentials ?? [])];

interface Loaded {
  files: Array<{
    file: string;
    className: string;
    exportedName?: string;
    isClass?: boolean;
    typeName?: unknown;
    error?: string;
  }>;
  scripts: string[];
  failed: Array<{ script: string; error: string }>;
  requested: Array<{ request: string; from: string }>;
}

let dir: string;
let loaded: Loaded;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'n8n-package-'));
  copyFileSync(join(PACKAGE, 'package.json'), join(dir, 'package.json'));
  const build = `require(${JSON.stringify(join(PACKAGE, 'build.js'))})
    .build(${JSON.stringify(join(dir, 'dist'))})
    .catch((e) => { console.error(e.message); process.exit(1); });`;
  execFileSync(process.execPath, ['-e', build], { stdio: ['ignore', 'ignore', 'pipe'] });
  const { NODE_PATH: _, ...env } = process.env;
  loaded = JSON.parse(
    execFileSync(process.execPath, [join(__dirname, 'load-package.js'), dir], {
      cwd: dir,
      env,
      encoding: 'utf8',
    }),
  ) as Loaded;
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

test('package.json lists nodes and credentials', () => {
  expect(manifest.n8n?.nodes?.length).toBeGreaterThan(0);
  expect(manifest.n8n?.credentials?.length).toBeGreaterThan(0);
});

test.each(LISTED)('%s exists and exports a class named as the file', (file) => {
  expect(existsSync(join(dir, file))).toBe(true);
  const got = loaded.files.find((f) => f.file === file);
  expect(got?.error).toBeUndefined();
  expect(got).toMatchObject({ exportedName: got?.className, isClass: true });
  expect(typeof got?.typeName).toBe('string');
});

// A custom extensions folder loads every such file, an installed package only the listed ones: they must agree.
test('the built nodes and credentials are the listed ones', () => {
  const built = loaded.scripts
    .filter((name) => /\.(node|credentials)\.js$/.test(name))
    .map((n) => `dist/${n}`);
  expect(built.sort()).toEqual([...LISTED].sort());
});

/** Every `require(…)` call written in a built script: its module, or the call itself when that is not a literal. */
const requireCalls = (script: string) =>
  [...readFileSync(script, 'utf8').matchAll(/\brequire\s*\(\s*(?:(["'])([^"'\\]*)\1\s*\))?/g)].map((m) => ({
    request: m[2] ?? `a require of something not a literal: ${m.input.slice(m.index, m.index + 60)}`,
    from: script,
  }));

// Loading shows what the scripts ask for whatever the syntax; reading them, what they would ask for only on first
// use (the bundle keeps an external package's require where the sources required it lazily).
test('the built scripts load and require only Node’s built-ins, n8n-workflow and each other', () => {
  expect(loaded.failed).toEqual([]);
  const written = loaded.scripts.flatMap((name) => requireCalls(join(dir, 'dist', name)));
  const inside = (request: string, from: string) =>
    request.startsWith('.') && resolve(dirname(from), request).startsWith(join(dir, 'dist') + sep);
  const outside = [...loaded.requested, ...written].filter(
    ({ request, from }) => !isBuiltin(request) && request !== 'n8n-workflow' && !inside(request, from),
  );
  expect(outside).toEqual([]);
  expect(loaded.requested.length).toBeGreaterThan(0);
  expect(written.length).toBeGreaterThan(0);
});
