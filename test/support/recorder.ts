/**
 * Recording the unit suites' fixtures from their own requests: the one place that turns an exchange with the
 * sandbox into a fixture definition. What `npm run record` shares with it (the sandbox's seed, the loopback receiver,
 * the JSON writer) is in harness/recording.ts.
 *
 * `RECORD=1 npx jest <file>` (`npm run record:tests` for every file): each interceptor a test answers with
 * `.reply(replay(name, pick))` forwards the test's request to a fresh in-process sandbox instead (fixed seed and
 * start time, clock standing still; one sandbox per scenario and test), with the sandbox's base address and tokens
 * for the unit ones. The answer goes back to the app and, rewritten to the unit base addresses, into
 * the scenario's file at the place of `pick` when the file ends: where `recorded(name)` reads it, or for a new
 * scenario in the recording suite's own folder (`recordings/<suite>/`, test/fixtures). The request recorded is the request
 * the test made, so the replay (which matches method, path, query and body) cannot drift from it. What a scenario
 * needs of the sandbox first (a created order, another token) is declared beside its test with `given(name, …)`,
 * which does nothing outside record mode; a test that declares it in a `beforeEach` (as each row of the errors
 * suite does) gives each test of one scenario its own. A scenario answered with `replayInOrder(name)` (a transfer's
 * pages and patient reads) is recorded whole: each request of a test at the next place, the file what the run recorded.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { closeReceiver, RECORD_SANDBOX, writeJsonFiles } from '../../harness/recording';
import type { Sandbox, SandboxOptions, TokenName } from '../../sandbox';
import {
  indexOf,
  matches,
  ownDir,
  rescan,
  scenarioFile,
  UNIT_BASE_URLS,
  UNIT_TOKENS,
  type Definition,
  type Json,
  type Pick,
  type RecordHook,
  SHARED_DIR,
  unlike,
} from '../fixtures';
import { SHARED_GIVENS } from '../fixtures/givens';

export const recording = process.env.RECORD === '1';

export { closeReceiver, RECORD_SANDBOX, receiverUrl, writeJsonFiles } from '../../harness/recording';

/**
 * For a test whose request depends on the time ("upcoming", "the last 60 days"): the app's `Date` stands still at
 * the recordings' start (or at `at`, ms: an end-to-end test moves the app's and the sandbox's `Date` with it),
 * timers run as usual. Undo with `jest.useRealTimers()`.
 */
export const clockAtRecording = (at = Date.parse(String(RECORD_SANDBOX.startTime))) =>
  jest.useFakeTimers({
    now: at,
    doNotFake: [
      'hrtime',
      'nextTick',
      'performance',
      'queueMicrotask',
      'setImmediate',
      'clearImmediate',
      'setInterval',
      'clearInterval',
      'setTimeout',
      'clearTimeout',
    ],
  });

export const SANDBOX_PREFIX = { clinic: '/partner/v1', cashier: '/api/partner/v1' } as const;
export type Api = keyof typeof SANDBOX_PREFIX;

/** Response headers that change from run to run or say nothing about the answer. */
const VOLATILE_HEADER = /^(date|connection|keep-alive|content-length|transfer-encoding|x-ratelimit-.*)$/i;

const byKey = ([a]: [string, unknown], [b]: [string, unknown]) => (a < b ? -1 : a > b ? 1 : 0);

/** The sandbox's answer for the re-send endpoint the clinic spec implies and does not show. */
const RESEND_STAND_IN = /^\/sandbox\/deliveries\/\d+\/resend$/;

/** An exchange with the sandbox, at the sandbox's addresses (a definition before its rewrite). */
export type RawExchange = Omit<Definition, 'note'>;

/** A recorded exchange as the unit suites see it, or undefined when it is not a partner interface's. */
export const toDefinition = (raw: RawExchange, sb: Sandbox, standIn?: string): Definition | undefined => {
  if (raw.scope !== sb.url) return undefined; // the sandbox's deliveries to receivers
  const path = String(raw.path);
  let api = (Object.keys(SANDBOX_PREFIX) as Api[]).find(
    (a) =>
      path === SANDBOX_PREFIX[a] ||
      path.startsWith(`${SANDBOX_PREFIX[a]}/`) ||
      path.startsWith(`${SANDBOX_PREFIX[a]}?`),
  );
  let newPath = api
    ? `${new URL(UNIT_BASE_URLS[api]).pathname}${path.slice(SANDBOX_PREFIX[api].length)}`
    : path;
  let note: string | undefined;
  if (!api && standIn === 'resend' && RESEND_STAND_IN.test(path)) {
    api = 'clinic';
    newPath = path;
    note =
      'The clinic spec implies an endpoint that re-sends a delivery and shows none; the sandbox answers for it at this path.';
  }
  if (!api) return undefined; // sandbox-only endpoints
  const headers = Object.fromEntries(
    Object.entries(raw.rawHeaders ?? {})
      .filter(([k]) => !VOLATILE_HEADER.test(k))
      .sort(byKey),
  );
  const present = (v: unknown) => v !== '' && v !== undefined;
  const scope = new URL(UNIT_BASE_URLS[api]).origin;
  // Addresses inside answers (e.g. /meta's docs_url) name the unit suites' hosts too.
  const response = present(raw.response)
    ? (JSON.parse(
        JSON.stringify(raw.response)
          .split(sb.clinicBaseUrl)
          .join(UNIT_BASE_URLS.clinic)
          .split(sb.cashierBaseUrl)
          .join(UNIT_BASE_URLS.cashier)
          .split(sb.url)
          .join(scope),
      ) as Json)
    : undefined;
  // Keys in one fixed order, so the files read alike and diff cleanly.
  return {
    scope,
    method: String(raw.method).toUpperCase(),
    path: newPath,
    ...(present(raw.body) ? { body: raw.body as Json } : {}),
    status: Number(raw.status),
    ...(response === undefined ? {} : { response }),
    ...(Object.keys(headers).length ? { rawHeaders: headers } : {}),
    ...(note ? { note } : {}),
  };
};

/** What a scenario needs of the sandbox before the test's requests reach it (record mode only). */
export interface Given {
  /** Options of its sandbox (seed, history…), over RECORD_SANDBOX. */
  sandbox?: SandboxOptions;
  /**
   * Which of the sandbox's tokens the unit tokens stand for (the owners' by default); null: none, the request goes
   * without its Authorization header (what the app never sends, for the answer to it).
   */
  tokens?: Partial<Record<Api, TokenName | null>>;
  /**
   * One sandbox for the scenario across the file's tests, in their order, instead of a fresh one for each test.
   */
  shared?: boolean;
  /** Steps before the test's requests; may answer literal tokens (one it created) for the unit ones. */
  setup?: (sb: Sandbox) => Promise<void | Partial<Record<Api, string>>>;
}

const givens = new Map<string, Given>(Object.entries(SHARED_GIVENS));

/** Declares, beside the test, what scenario `name` needs of the sandbox when it is recorded. */
export const given = (name: string, what: Given) => {
  if (SHARED_GIVENS[name]) throw new Error(`record: ${name} is declared in test/fixtures/givens.ts`);
  if (recording) givens.set(name, what);
};

interface Live {
  sb: Sandbox;
  tokens: Record<Api, string | null>;
}
/** The sandboxes of the test running, by scenario; the shared ones live until the file ends. */
const live = new Map<string, Promise<Live>>();
const shared = new Map<string, Promise<Live>>();
/** What this file recorded: by scenario, the definitions by their place in the file (-1: appended). */
const recorded = new Map<string, Array<[number, Definition]>>();

const sandboxFor = (name: string): Promise<Live> => {
  const sandboxes = givens.get(name)?.shared ? shared : live;
  let found = sandboxes.get(name);
  if (!found) {
    found = (async () => {
      const { startSandbox } = await import('../../sandbox');
      const what = givens.get(name) ?? {};
      const sb = await startSandbox({ ...RECORD_SANDBOX, port: 0, ...what.sandbox });
      const literal = (await what.setup?.(sb)) ?? {};
      await sb.settle();
      const named = (api: Api, owner: TokenName) => {
        const name = what.tokens?.[api];
        return name === null ? null : sb.tokens[name ?? owner];
      };
      const tokens = {
        clinic: literal.clinic ?? named('clinic', 'clinicOwner'),
        cashier: literal.cashier ?? named('cashier', 'cashierOwner'),
      };
      return { sb, tokens };
    })();
    sandboxes.set(name, found);
  }
  return found;
};

const parsedBody = (requestBody: unknown): Json => {
  if (typeof requestBody !== 'string' || requestBody === '') return requestBody;
  try {
    return JSON.parse(requestBody) as Json;
  } catch {
    return requestBody;
  }
};

/** A recorded answer for the app, a copy: what a test reshapes must not change the recording. */
const answerOf = (d: Definition): [number, Json, Record<string, string>] => [
  d.status,
  structuredClone(d.response ?? ''),
  { ...d.rawHeaders },
];

/** Scenarios recorded in order (`replayInOrder`): the file is what the run recorded, nothing kept from before. */
const whole = new Set<string>();

/** A scenario's file once this run's recordings are in it. */
const withRecorded = (name: string, before: Definition[]): Definition[] => {
  const after = whole.has(name) ? [] : [...before];
  for (const [place, def] of recorded.get(name) ?? []) {
    if (place >= 0) after[place] = def;
    else after.push(def);
  }
  return after;
};

/**
 * Each suite records its own scenarios and the shared ones, never another suite's own (recording one suite leaves
 * the others' files as they are).
 */
const refuseOthers = (name: string) => {
  const file = scenarioFile(name);
  const suite = expect.getState().testPath!;
  if (file && !file.startsWith(SHARED_DIR) && dirname(file) !== ownDir(suite)) {
    throw new Error(
      `record: ${file} is another suite's own; a scenario several suites replay is kept in ${SHARED_DIR}`,
    );
  }
};

/**
 * A nock reply function that sends the test's request to the scenario's sandbox, answers the app with what it said
 * and keeps it for `writeRecordings` at the place `placeOf` gives the request.
 */
const forwardTo = (name: string, placeOf: () => number, newPick?: Exclude<Pick, number>) => {
  refuseOthers(name);
  return async function (
    this: { req: { method?: string; headers: Record<string, string | string[] | undefined> } },
    uri: string,
    requestBody: unknown,
  ): Promise<[number, Json, Record<string, string>]> {
    const place = placeOf();
    const method = String(this.req.method ?? 'GET').toUpperCase();
    // A request this file recorded at this place already is answered with that recording, as its replay will be: a
    // repeat (a retry, a step run again, the next test's same call) must not reach a sandbox that has moved on.
    // A request its file does not hold yet is recorded once, the first time, and found again by its pick.
    const again = recorded
      .get(name)
      ?.find(([p, d]) =>
        place < 0 ? p < 0 && newPick !== undefined && matches(d, newPick) : p === place,
      )?.[1];
    if (again && !unlike(again, method, uri, requestBody).length) return answerOf(again);
    const host = String(this.req.headers.host ?? '');
    const api = (Object.keys(UNIT_BASE_URLS) as Api[]).find((a) => new URL(UNIT_BASE_URLS[a]).host === host);
    if (!api) throw new Error(`record: ${host} is not a unit base address`);
    const { sb, tokens } = await sandboxFor(name);
    const unitPath = new URL(UNIT_BASE_URLS[api]).pathname;
    // The clinic's re-send stand-in answers below the sandbox's origin, as the unit origin's (toDefinition).
    const standIn = api === 'clinic' && RESEND_STAND_IN.test(uri.split('?')[0] ?? '');
    if (!standIn && !uri.startsWith(`${unitPath}/`) && uri !== unitPath && !uri.startsWith(`${unitPath}?`)) {
      throw new Error(`record: ${uri} is not below ${unitPath}`);
    }
    const path = standIn ? uri : `${SANDBOX_PREFIX[api]}${uri.slice(unitPath.length)}`;
    const headers: Record<string, string> = {
      accept: 'application/json',
      'accept-language': String(this.req.headers['accept-language'] ?? 'en'),
    };
    const auth = String(this.req.headers.authorization ?? '');
    const token = tokens[api];
    if (auth && !(auth === `Bearer ${UNIT_TOKENS[api]}` && token === null)) {
      headers.authorization = auth === `Bearer ${UNIT_TOKENS[api]}` ? `Bearer ${token}` : auth;
    }
    const hasBody = requestBody !== '' && requestBody !== undefined;
    if (hasBody) headers['content-type'] = 'application/json';
    const res = await fetch(`${sb.url}${path}`, {
      method,
      headers,
      body: hasBody
        ? typeof requestBody === 'string'
          ? requestBody
          : JSON.stringify(requestBody)
        : undefined,
    });
    const text = await res.text();
    const rawHeaders = Object.fromEntries(res.headers.entries());
    const raw: RawExchange = {
      scope: sb.url,
      method,
      path,
      body: parsedBody(requestBody),
      status: res.status,
      response: parsedBody(text),
      rawHeaders,
    };
    const def = toDefinition(raw, sb, standIn ? 'resend' : undefined);
    // The first test to record a place records it; a later test making another request for it is answered by the
    // sandbox, not recorded again.
    const earlier = recorded.get(name) ?? [];
    if (def && !again && (place < 0 || !earlier.some(([p]) => p === place)))
      recorded.set(name, [...earlier, [place, def]]);
    // The app gets what a replay of the recording will give it: the answer rewritten to the unit addresses.
    return def ? answerOf(def) : [res.status, text, rawHeaders];
  };
};

/** Record mode's `replay(name, pick)`: recorded at the place of `pick` (appended for a new scenario). */
const forward = (name: string, pick: Pick) => {
  const place = indexOf(name, pick);
  return forwardTo(name, () => place, typeof pick === 'number' ? undefined : pick);
};

/** Record mode's `replayInOrder(name)`: each request of the test recorded at the next place, from the first. */
const forwardInOrder = (name: string) => {
  whole.add(name);
  let next = 0;
  return forwardTo(name, () => next++);
};

/** What `replay` and the rest of test/fixtures do in record mode (hooked in by `useNock`). */
export const recordHook: RecordHook = {
  replay: forward,
  inOrder: forwardInOrder,
  sofar: (name) => {
    if (!recorded.has(name)) return undefined;
    if (whole.has(name)) return withRecorded(name, []);
    // A request the file did not hold (a new event's row) is read from this run until the file is written, so the
    // test that recorded it can read what it recorded; the file's own entries stay as they were read.
    const added = recorded.get(name)!.filter(([place]) => place < 0);
    if (!added.length) return undefined;
    const file = scenarioFile(name);
    const before = file ? (JSON.parse(readFileSync(file, 'utf8')) as Definition[]) : [];
    return [...before, ...added.map(([, def]) => def)];
  },
};

/** What `writeRecordings` would write for a scenario now: its file with this run's recordings in place. */
export const toBeWritten = (name: string): Definition[] => {
  const file = scenarioFile(name);
  return withRecorded(name, file ? (JSON.parse(readFileSync(file, 'utf8')) as Definition[]) : []);
};

/** After each test in record mode: its sandboxes are stopped (the next test's scenarios start afresh). */
export const closeSandboxes = async (which = live) => {
  const all = [...which.values()];
  which.clear();
  for (const p of all) {
    const { sb } = await p;
    await sb.settle();
    await sb.close();
  }
};

/**
 * After the file in record mode: each scenario it recorded is written, its recorded places replaced and the rest
 * kept as they were; says which places of each file were recorded, so what no test records shows.
 */
export const writeRecordings = async () => {
  const suite = expect.getState().testPath!;
  await closeSandboxes(shared);
  await closeReceiver();
  const files: Array<[string, unknown]> = [];
  for (const [name, defs] of [...recorded.entries()].sort(byKey)) {
    const file = scenarioFile(name) ?? join(ownDir(suite), `${name}.json`);
    let before: Definition[] = [];
    try {
      before = JSON.parse(readFileSync(file, 'utf8')) as Definition[];
    } catch {
      /* a new scenario */
    }
    const after = withRecorded(name, before);
    files.push([file, after]);
    const places = [...new Set(defs.map(([p]) => (p < 0 ? 'new' : String(p))))].join(', ');
    process.stdout.write(`recorded ${name}: ${places} of ${after.length}\n`);
  }
  recorded.clear();
  whole.clear();
  writeJsonFiles(files);
  rescan();
};
