/**
 * The shipped artefact, not the sources: the bundle of today's sources (scripts/bundle.js) zipped as a production
 * install ships it (scripts/production-build.js), unpacked, and run in a Node process of its own through core's
 * zapierwrapper.js, the entry Zapier's runtime calls, against the local sandbox. The bundle puts zod and the phone
 * library in files of their own beside dist/index.js (its metafile says which inputs went where); V8's precise
 * coverage of that process (NODE_V8_COVERAGE) tells which of the app's dist/ files were evaluated, and how much of
 * each: zod's and the phone library's must not be by a load and first deliveries, and are by an action
 * that needs them.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { EVENTS } from '../../lib/hooks/events';
import { appConnection, startSandbox, type Sandbox } from '../../sandbox';
import { delivery as signedDelivery } from '../../harness/delivery';
import App from '../../index';
import { choicesPath } from '../support/choices';

/* eslint-disable @typescript-eslint/no-require-imports */
type Metafile = { outputs: Record<string, { inputs: Record<string, unknown> }> };
const { bundle, ENTRIES, outfile } = require('../../scripts/bundle') as {
  bundle: () => Promise<Metafile>;
  ENTRIES: Record<string, string>;
  outfile: string;
};
type Built = {
  dir: string;
  app: { zip: string; bytes: number; folder: string; names: string[] };
  oneTrigger: { bytes: number };
};
const { productionBuild } = require('../../scripts/production-build') as { productionBuild: () => Built };
const { checkBuild } = require('../../scripts/check-build') as {
  checkBuild: (built: Built) => { problems: string[]; summary: string[] };
};
/* eslint-enable @typescript-eslint/no-require-imports */

// Each test waits for its Node process to exit, not for a time: on a loaded two-core machine a cold start of the
// shipped app with coverage on took longer than jest's 30 s a test (jest.config.js), so the limit only guards against
// a hang.
jest.setTimeout(300_000);

type Item = Record<string, unknown>;
/** One call of the app: the method's path in the definition and its bundle, as Zapier's runtime sends them. */
type Step = [method: string, bundle: object];

/** Runs the steps one after another in one fresh process through the unpacked zip's zapierwrapper.js. */
const PROBE = `const [dir, steps, out] = JSON.parse(process.argv[1]);
const { handler } = require(dir + '/zapierwrapper.js');
(async () => {
  const results = [];
  for (const [method, bundle] of steps) {
    const answer = await handler({ command: 'execute', method, bundle, zcacheTestObj: {} });
    results.push(answer.results);
  }
  require('fs').writeFileSync(out, JSON.stringify(results));
})().catch((e) => { process.stderr.write(String(e && e.message)); process.exit(1); });`;

let built: Built;
let meta: Metafile;
let work: string;
let unpacked: string;
let sb: Sandbox;
let runs = 0;

/**
 * Runs `steps` in the shipped app; answers each step's results and, for each of the app's dist/ files the process
 * evaluated, how many of its functions ran (its top level among them). A file not required is not in the coverage.
 */
const runShipped = async (steps: Step[]) => {
  runs += 1;
  const coverage = join(work, `coverage-${runs}`);
  const out = join(work, `results-${runs}.json`);
  mkdirSync(coverage);
  await promisify(execFile)(process.execPath, ['-e', PROBE, JSON.stringify([unpacked, steps, out])], {
    cwd: unpacked,
    env: { ...process.env, NODE_V8_COVERAGE: coverage },
  });
  const dist = `file://${join(unpacked, 'dist')}/`;
  const evaluated: Record<string, number> = {};
  for (const name of readdirSync(coverage)) {
    const { result } = JSON.parse(readFileSync(join(coverage, name), 'utf8')) as {
      result: Array<{ url: string; functions: Array<{ ranges: Array<{ count: number }> }> }>;
    };
    for (const script of result.filter((s) => s.url.startsWith(dist))) {
      const ran = script.functions.filter((fn) => fn.ranges[0]!.count > 0).length;
      if (ran > 0) evaluated[script.url.slice(dist.length)] = ran;
    }
  }
  const results = JSON.parse(readFileSync(out, 'utf8')) as Item[][];
  return { results, evaluated };
};

/** A signed delivery of `key`'s event (its sample data, or `data`) as Zapier hands it to perform. */
const delivery = (key: string, inputData: object, data?: object): Step => {
  const def = EVENTS.find((e) => e.key === key)!;
  const sub = {
    id: 1,
    secret: 'whsec_shipped',
    target_path: '/hooks/1/shipped/',
    event: def.event,
    api: def.api,
  };
  const rawBody = JSON.stringify({
    id: `evt_shipped_${key}_${runs}`,
    event: def.event,
    tenant_id: 1,
    occurred_at: '2026-11-21T10:00:00+03:00',
    api_version: 'v1',
    data: data ?? def.sampleData ?? def.resource.sample,
  });
  return [
    `triggers.${key}.operation.perform`,
    {
      authData: appConnection(sb),
      inputData,
      subscribeData: sub,
      rawRequest: signedDelivery({ secret: sub.secret, path: sub.target_path, rawBody }).rawRequest,
    },
  ];
};

beforeAll(async () => {
  meta = await bundle();
  built = productionBuild();
  work = built.dir;
  unpacked = built.app.folder;
  sb = await startSandbox({ port: 0, quiet: true, holdBackMs: 0, rateLimitPerMinute: 1000 });
});

afterAll(async () => {
  await sb?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

it('is what check:build requires: the contract’s triggers through zapierwrapper.js, no sandbox or bundled package, at most 1.5× the one-trigger app', () => {
  expect(checkBuild(built).problems).toEqual([]);
  // The same check refuses a zip over its ceiling.
  const heavier = { ...built, app: { ...built.app, bytes: built.oneTrigger.bytes * 1.6 } };
  expect(checkBuild(heavier).problems).toEqual([expect.stringMatching(/1\.60× the one-trigger app's/)]);
  // And one without a part the app requires on first use (Zapier's build ships only what it traces).
  const names = built.app.names.filter((name) => name !== 'dist/zod-parts.js');
  expect(checkBuild({ ...built, app: { ...built.app, names } }).problems).toEqual([
    'the zip lacks dist/zod-parts.js',
  ]);
});

it('ships zod and the phone library in files of their own beside the app, which holds neither', () => {
  const files = Object.keys(ENTRIES).map((name) => `${name}.js`);
  expect(readdirSync(join(unpacked, 'dist')).sort()).toEqual([...files].sort());
  /** How many of a package's modules went into a dist/ file. */
  const modules = (file: string, pkg: string) =>
    Object.keys(meta.outputs[`dist/${file}`]!.inputs).filter((input) =>
      input.startsWith(`node_modules/${pkg}/`),
    ).length;
  expect(modules('index.js', 'zod') + modules('index.js', 'libphonenumber-js')).toBe(0);
  expect(modules('zod-parts.js', 'zod')).toBeGreaterThan(10);
  expect(modules('phone-parts.js', 'libphonenumber-js')).toBeGreaterThan(10);
  // The app reaches them by a path that resolves beside it in the unpacked zip.
  const app = readFileSync(join(unpacked, 'dist', 'index.js'), 'utf8');
  expect(app.match(/require\("\.\/[\w-]+\.js"\)/g)?.sort()).toEqual([
    'require("./phone-parts.js")',
    'require("./zod-parts.js")',
  ]);
});

it('bundles from the app alone: no module of the development folders reaches dist/', () => {
  const inputs = Object.values(meta.outputs).flatMap((output) => Object.keys(output.inputs));
  expect(inputs.filter((input) => /^(harness|test|sandbox|scripts|bench)\//.test(input))).toEqual([]);
  // The sources are there, so an empty list above is the app's own graph, not a metafile without paths.
  expect(inputs).toContain('lib/hooks/delivery.ts');
});

it('bundling again leaves the app in dist/ all along (npm test validates dist/ while this suite bundles)', async () => {
  const again = bundle();
  expect(existsSync(outfile)).toBe(true);
  await again;
  const files = Object.keys(ENTRIES).map((name) => `${name}.js`);
  expect(readdirSync(dirname(outfile)).sort()).toEqual(files.sort());
});

it('a cold start and a first delivery of every hook trigger evaluate neither zod nor the phone library', async () => {
  const steps = EVENTS.map((def) => delivery(def.key, { include_patient: false }));
  const { results, evaluated } = await runShipped(steps);
  expect(results.map((items) => items.length)).toEqual(EVENTS.map(() => 1));
  expect(results.map((items) => String(items[0]!.id))).toEqual(
    EVENTS.map((def) => String((def.sampleData ?? def.resource.sample).id)),
  );
  // The app ran (its definition and the deliveries); neither library's file was required.
  expect(Object.keys(evaluated)).toEqual(['index.js']);
  expect(evaluated['index.js']).toBeGreaterThan(100);
});

it('a delivery with patient details reads the patient, and Book Appointment by phone books, at the sandbox', async () => {
  const patient = sb.refs.clinic.patient;
  const sample = EVENTS.find((e) => e.key === 'invoice_paid')!.resource.sample as Item;
  const at = new Date(Date.now() + 45 * 24 * 3600_000);
  at.setUTCHours(7, 0, 0, 0);
  sb.resetRequests();
  const { results, evaluated } = await runShipped([
    delivery('invoice_paid', { include_patient: true }, { ...sample, patient_id: patient }),
    [
      'creates.book_appointment.operation.perform',
      {
        authData: appConnection(sb),
        inputData: {
          patient_phone: '050 000 0789',
          patient_name: 'Shipped Build',
          branch_id: '1',
          appointment_type_id: '1',
          starts_at: at.toISOString(),
          external_ref: 'SHIPPED-BOOK-1',
        },
      },
    ],
  ]);
  const [[paid], booked] = results as [[Item], Item];
  expect(paid).toMatchObject({ id: sample.id, patient_id: patient });
  expect((paid.patient as Item).name_en).toEqual(expect.any(String));
  expect(booked).toMatchObject({ duplicate: false, patient: { phone: '+966500000789' } });
  const made = sb.requests().map((q) => `${q.method} ${q.path}`);
  expect(made).toEqual([
    `GET /partner/v1/patients/${patient}`,
    'POST /partner/v1/appointments',
    `GET /partner/v1/patients/${String(booked.patient_id)}`,
  ]);
  // The action needed zod (its inputs) and the phone library: loaded then, on first use, and run.
  expect(Object.keys(evaluated).sort()).toEqual(['index.js', 'phone-parts.js', 'zod-parts.js']);
  expect(evaluated['zod-parts.js']).toBeGreaterThan(10);
  expect(evaluated['phone-parts.js']).toBeGreaterThan(10);
});

it('a trigger filter’s dropdown (choices.perform) runs by its path, as Zapier runs it, and offers what its hidden list offers', async () => {
  const authData = appConnection(sb);
  const { results } = await runShipped([
    [choicesPath(App, 'receipt_issued', 'branch_id'), { authData, inputData: {} }],
    ['triggers.branch_list.operation.perform', { authData, meta: { page: 0 } }],
    [choicesPath(App, 'appointment_created', 'practitioner_id'), { authData, inputData: { branch_id: '1' } }],
    ['triggers.practitioner_list.operation.perform', { authData, meta: { page: 0 } }],
  ]);
  const [branches, branchList, practitioners, practitionerList] = results as unknown as [
    { results: Item[]; paging_token: string | null },
    Item[],
    { results: Item[]; paging_token: string | null },
    Item[],
  ];
  expect(branches.results.length).toBeGreaterThan(0);
  expect(branches.results).toEqual(branchList);
  // No filter waits for another: a chosen Branch leaves the Practitioner list whole.
  expect(practitioners.results.length).toBeGreaterThan(1);
  expect(practitioners.results).toEqual(practitionerList);
  expect([branches.paging_token, practitioners.paging_token]).toEqual([null, null]);
});
