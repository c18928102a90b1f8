import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import nock from 'nock';
import { testAuth } from '../authentication';
import { EVENTS } from '../lib/hooks/events';
import {
  data,
  definition,
  deliveredAsSent,
  pathOf,
  deliveredEvents,
  delivered,
  recorded,
  recordWith,
  replay,
  replayInOrder,
  replayMismatches,
  scenarioFile,
  scenarios,
  UNIT_BASE_URLS,
  UNIT_TOKENS,
  type Definition,
  type Json,
} from './fixtures';
import { App, appTester, AUTH, clinicApi, clinicPath, useNock } from './helpers';
import { seedRefs } from '../sandbox';
import { closeSandboxes, RECORD_SANDBOX, recordHook, recording, toBeWritten } from './support/recorder';

/*
 * The recorded fixtures themselves: nock definitions on the unit suites' base addresses, with
 * nothing of the sandbox left in them, and replayable as they are.
 */

const ORIGINS = Object.values(UNIT_BASE_URLS).map((u) => new URL(u).origin);
const BASE_PATHS = Object.values(UNIT_BASE_URLS).map((u) => new URL(u).pathname);

describe('recorded fixtures', () => {
  useNock();

  it('exist, one file per scenario', () => {
    expect(scenarios().length).toBeGreaterThan(50);
  });

  it.each(scenarios())('%s: partner requests on the unit base addresses, no volatile headers', (name) => {
    const defs: Definition[] = recorded(name);
    expect(defs.length).toBeGreaterThan(0);
    for (const d of defs) {
      expect(ORIGINS).toContain(d.scope);
      // Only the sandbox's stand-in for the clinic's unshown re-send endpoint keeps its own path (and says so).
      if (!BASE_PATHS.some((p) => d.path.startsWith(`${p}/`))) expect(d.note).toMatch(/stand|sandbox/);
      expect(JSON.stringify(d)).not.toMatch(/127\.0\.0\.1|localhost|sbx_/);
      for (const header of Object.keys(d.rawHeaders ?? {}))
        expect(header).not.toMatch(/^(date|x-ratelimit-|content-length|connection|keep-alive)/i);
    }
    // nock takes the file as it is.
    expect(nock.define(defs).length).toBe(defs.length);
    nock.cleanAll();
  });

  it('a whole scenario replays offline through the app (nock.define)', async () => {
    nock.define(recorded('ping'));
    const found = (await appTester(testAuth, { authData: AUTH })) as Record<string, { account?: string }>;
    expect(found.clinic?.account).toBe(data('ping', { api: 'clinic' }).clinic.name);
    expect(found.cashier?.account).toBe(data('ping', { api: 'cashier' }).account.name);
  });

  // Checked outside record mode only: record mode runs the recorder for real, and must write no scenario here.
  (recording ? describe.skip : describe)(
    'a scenario recorded in order (replayInOrder): Find Invoice, the invoice then the patient it names',
    () => {
      const path = new RegExp(`^${clinicPath('')}/(invoices|patients)/[^/]+$`);
      const findInvoice = async (id: string) => {
        const search = (App.searches as Record<string, { operation: { perform: unknown } }>).find_invoice!;
        const bundle = { authData: AUTH, inputData: { invoice_id: id } };
        return (await appTester(search.operation.perform as never, bundle as never)) as Array<
          Record<string, Json>
        >;
      };

      it('replays the n-th recorded answer to the n-th request, which must be the one recorded', async () => {
        const invoice = data('find-invoice-by-id');
        const answers = replayInOrder('find-invoice-by-id');
        clinicApi().get(path).times(2).reply(answers);
        const [found] = await findInvoice(invoice.id);
        expect(found!.id).toBe(invoice.id);
        expect(found!.patient.file_no).toBe(data('find-invoice-by-id', 1).file_no);
        expect(replayMismatches).toEqual([]);
        // The same requests again: past the recording.
        clinicApi().get(path).reply(answers);
        await expect(findInvoice(invoice.id)).rejects.toThrow();
        expect(replayMismatches.splice(0)).toEqual([
          `find-invoice-by-id: request #2 (${clinicPath(`/invoices/${invoice.id}`)}) was not recorded (\`RECORD=1 npx jest test/fixtures.test.ts\` records it)`,
        ]);
      });

      it('records the requests the app makes, asked of the sandbox, with no file to follow', async () => {
        const id = seedRefs(RECORD_SANDBOX).clinic.invoicePaid;
        nock.enableNetConnect('127.0.0.1');
        recordWith(recordHook);
        try {
          clinicApi().persist().get(path).reply(replayInOrder('in-order-probe'));
          const [found] = await findInvoice(id);
          expect(scenarioFile('in-order-probe')).toBeUndefined();
          const [read, patient] = recorded('in-order-probe');
          expect([read, patient].map((d) => `${d!.method} ${pathOf(d!)}`)).toEqual([
            `GET /invoices/${id}`,
            `GET /patients/${read!.response.data.patient_id}`,
          ]);
          expect(found).toMatchObject({ id, patient: { file_no: patient!.response.data.file_no } });
          expect(recorded('in-order-probe')).toHaveLength(2);
        } finally {
          recordWith(undefined);
          await closeSandboxes();
          nock.disableNetConnect();
        }
      });
    },
  );

  // Adding an event's row adds a request its scenario's file does not hold yet (maintaining.md, "Adding an event").
  (recording ? describe.skip : describe)('a request the scenario file does not hold', () => {
    const pick = { api: 'clinic' as const, query: { probe: '1' } };

    it('a delivery not recorded says which command records it', () => {
      expect(() => delivered('appointment.teleported')).toThrow(
        'no recorded delivery of appointment.teleported: `npm run record` records one',
      );
    });

    it('a replay says which command records it', () => {
      expect(() => replay('ping', pick)).toThrow(
        `fixture ping holds no recording of ${JSON.stringify(pick)}: \`RECORD=1 npx jest test/fixtures.test.ts\` records it`,
      );
    });

    it('a recording adds it once, after the entries the file holds, which it leaves alone', async () => {
      const before = recorded('ping');
      nock.enableNetConnect('127.0.0.1');
      recordWith(recordHook);
      try {
        clinicApi().get(clinicPath('/ping')).query({ probe: '1' }).times(2).reply(replay('ping', pick));
        const ask = () =>
          fetch(`${UNIT_BASE_URLS.clinic}/ping?probe=1`, {
            headers: { authorization: `Bearer ${UNIT_TOKENS.clinic}`, 'accept-language': 'en' },
          }).then((r) => r.status);
        expect([await ask(), await ask()]).toEqual([200, 200]);
        // The suite reads what it recorded in the same run, before the file is written.
        expect(definition('ping', pick).path).toBe(clinicPath('/ping?probe=1'));
        const after = toBeWritten('ping');
        expect(after.slice(0, before.length)).toEqual(before);
        expect(after.slice(before.length).map((d) => [d.method, d.path, d.status])).toEqual([
          ['GET', clinicPath('/ping?probe=1'), 200],
        ]);
      } finally {
        recordWith(undefined);
        await closeSandboxes();
        nock.disableNetConnect();
      }
    });
  });

  it('hold one genuine delivery per event, and a test delivery (ping)', () => {
    const missing = EVENTS.map((e) => e.event).filter((e) => !deliveredEvents().includes(e));
    expect(
      missing.length ? `no delivery of ${missing.join(', ')}: \`npm run record\` records them` : '',
    ).toBe('');
    expect(deliveredEvents()).toEqual([...new Set([...EVENTS.map((e) => e.event), 'ping'])].sort());
    for (const event of deliveredEvents()) {
      const envelope = delivered(event);
      expect(envelope).toMatchObject({ event, api_version: 'v1' });
      expect(envelope.id).toMatch(/^evt_/);
      expect(Object.keys(envelope).sort()).toEqual(
        ['api_version', 'data', 'event', 'id', 'occurred_at', 'tenant_id'].sort(),
      );
      // What it was recorded from: the delivery's own headers name its event, id and the delivery recorded.
      const { recorded_from: from, headers } = deliveredAsSent(event);
      expect(from.event).toBe(event);
      expect(headers).toMatchObject({
        'x-partner-event': event,
        'x-partner-event-id': envelope.id,
        'x-partner-delivery': String(from.delivery_id),
      });
      expect(headers['x-partner-signature']).toMatch(/^sha256=[0-9a-f]{64}$/);
      expect(from.subscription.secret).toMatch(/^whsec_/);
    }
  });
});

/*
 * Where each scenario is kept says who replays it (test/fixtures/index.ts): a suite's own folder for a scenario only
 * that suite reads, the shared folder for one that several read. Read from the sources: a file names a scenario as a
 * string, or as a template whose fixed parts match it (`clinic-errors-${lang}`). A support file (test/helpers.ts)
 * that names a scenario reads it for the suites that call it: a suite's own scenario may be named there too, and a
 * shared one named there is taken as read by several.
 */
describe('each scenario file', () => {
  const ROOT = join(__dirname, '..');
  const posix = (path: string) => path.split(sep).join('/');
  const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  /** What a source could mean by a scenario: its strings, and its templates as patterns. */
  const namesIn = (text: string): RegExp[] => [
    ...[...text.matchAll(/'([a-z0-9][a-z0-9.-]*)'/g)].map(([, s]) => new RegExp(`^${escape(s!)}$`)),
    ...[...text.matchAll(/`([a-z][a-z0-9.-]{3,}(?:\$\{[^}]*\}[a-z0-9.-]*)+)`/g)].map(
      ([, t]) =>
        new RegExp(
          `^${t!
            .split(/\$\{[^}]*\}/)
            .map(escape)
            .join('.+')}$`,
        ),
    ),
  ];
  const sources = readdirSync(__dirname, { recursive: true, encoding: 'utf8' })
    .map(posix)
    .filter((f) => f.endsWith('.ts') && !f.startsWith('fixtures/') && f !== 'fixtures.test.ts')
    .map((f) => ({ file: `test/${f}`, names: namesIn(readFileSync(join(__dirname, f), 'utf8')) }));
  const readersOf = (scenario: string) =>
    sources.filter(({ names }) => names.some((n) => n.test(scenario))).map(({ file }) => file);
  /** The suite whose own folder holds `file`, if it is in one. */
  const ownerOf = (file: string) => {
    const [, dir, suite] = /^(.*)\/recordings\/([^/]+)\/[^/]+\.json$/.exec(file) ?? [];
    return suite ? `${dir}/${suite}.test.ts` : undefined;
  };

  it.each(scenarios())('%s: is read, and kept where its readers say', (scenario) => {
    const file = posix(relative(ROOT, scenarioFile(scenario)!));
    const readers = readersOf(scenario);
    const owner = ownerOf(file);
    const suites = readers.filter((r) => r.endsWith('.test.ts'));
    const alone = suites.length === 1 ? suites[0] : undefined;
    const problem = !readers.length
      ? 'no suite reads it: delete it'
      : owner
        ? alone === owner
          ? undefined
          : `kept as ${owner}'s own, read by ${readers.join(', ')}: move it (git mv) to test/fixtures/shared-answers/`
        : alone && alone === readers[0] && readers.length === 1
          ? `only ${alone} reads it: move it (git mv) to its recordings/ folder`
          : undefined;
    expect({ file, problem }).toEqual({ file, problem: undefined });
  });
});
