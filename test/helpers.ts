import nock from 'nock';
import * as core from 'zapier-platform-core';
import { createAppTester } from 'zapier-platform-core';
import App from '../index';
import {
  definition,
  type Json,
  pathOf,
  recorderOn,
  recordWith,
  replay,
  replayMismatches,
  UNIT_TOKENS,
} from './fixtures';
import { closeSandboxes, recordHook, recording, writeRecordings } from './support/recorder';

// jest.config.js lists 'ts' before 'js', so `../index` is index.ts (the sources), not the root index.js that
// loads the last build in dist/.
export { App };

export const appTester = createAppTester(App);

type Handler = (event: object) => Promise<{ results: unknown }>;
// Core exports it (src/index.js) but its types leave it out.
const handler = (core as unknown as { createAppHandler: (app: object) => Handler }).createAppHandler(App);

/**
 * Runs a function of the definition by its path, through core's handler as Zapier runs it. appTester finds a
 * function's path itself, and cannot run a trigger field's `choices.perform` (test/dropdowns.test.ts shows why).
 */
export const runAt = async <T>(method: string, bundle: object): Promise<T> =>
  (await handler({ command: 'execute', method, bundle, zcacheTestObj: {} })).results as T;

export const CLINIC = process.env.CLINIC_BASE_URL!;
export const CASHIER = process.env.CASHIER_BASE_URL!;
export const CLINIC_TOKEN = UNIT_TOKENS.clinic;
export const CASHIER_TOKEN = UNIT_TOKENS.cashier;

/**
 * A start time a booking takes whenever the suite runs: 30 days ahead of the real clock, 10:30 in Riyadh (ahead of
 * the 5-minute lead, within the two-year horizon of lib/input-times.ts).
 */
export const START_AHEAD = `${new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10)}T10:30:00+03:00`;

/** Connection with both interfaces, base addresses from the environment (as on Zapier). */
export const AUTH = { clinic_api_token: CLINIC_TOKEN, cashier_api_token: CASHIER_TOKEN, language: 'en' };

/** A nock scope on the clinic interface that insists on the token and language headers. */
export const clinicApi = (lang = 'en') =>
  nock(new URL(CLINIC).origin, {
    reqheaders: { authorization: `Bearer ${CLINIC_TOKEN}`, 'accept-language': lang },
  });

export const cashierApi = (lang = 'en') =>
  nock(new URL(CASHIER).origin, {
    reqheaders: { authorization: `Bearer ${CASHIER_TOKEN}`, 'accept-language': lang },
  });

/** Path of an interface endpoint as nock sees it (base path included). */
export const clinicPath = (p: string) => `${new URL(CLINIC).pathname}${p}`;
export const cashierPath = (p: string) => `${new URL(CASHIER).pathname}${p}`;

/** The five fields of a patient an item carries (CONTRACT §8), read from a patient record, and its status. */
export const contactOf = (p: Json) => ({
  name_ar: p.name_ar,
  name_en: p.name_en,
  phone: p.phone,
  email: p.email,
  file_no: p.file_no,
  status: 'found',
});

/**
 * The patient read a recorded scenario made after its main call (GET /patients/{id}, the id the answer carried),
 * set up in nock as recorded; gives the scope (to assert it was made) and the contact the item must carry. In record
 * mode it takes the patient the sandbox's main answer names now, not the one the file read.
 */
export const recordedPatientRead = (scenario: string, times = 1) => {
  const pick = { path: /^\/patients\// };
  const scope = clinicApi()
    .get(
      recording
        ? new RegExp(`^${clinicPath('/patients/')}[^/]+$`)
        : clinicPath(pathOf(definition(scenario, pick))),
    )
    .times(times)
    .reply(replay(scenario, pick));
  return { scope, contact: contactOf(definition(scenario, pick).response.data) };
};

export { delivery, nowSeconds } from '../harness/delivery';

/**
 * Watches for requests no interceptor answers (with the network off none leaves: a request made where none should
 * be); the function it gives stops watching and answers them as "METHOD path". Record mode's own requests to the
 * sandbox are not counted.
 */
export const strays = (): (() => string[]) => {
  const seen: string[] = [];
  const listener = (req: {
    method?: string;
    path?: string;
    href?: string;
    hostname?: string;
    options?: { path?: string };
  }) => {
    if (recorderOn() && req.hostname === '127.0.0.1') return;
    seen.push(`${req.method ?? '?'} ${req.path ?? req.options?.path ?? req.href ?? '?'}`);
  };
  nock.emitter.on('no match', listener);
  return () => {
    nock.emitter.removeListener('no match', listener);
    return seen;
  };
};

/**
 * Every file that uses nock: no real network, every scope consumed, core's http patch undone at the end. With
 * RECORD=1 the replayed answers are asked of the sandbox and recorded instead (test/support/recorder.ts).
 */
export const useNock = () => {
  /** Requests no interceptor answered: the app may swallow the failure (a patient read does), a test must not. */
  let stop = () => [] as string[];
  beforeAll(() => {
    nock.disableNetConnect();
    if (recording) {
      nock.enableNetConnect('127.0.0.1');
      recordWith(recordHook);
    }
    stop = strays();
  });
  afterEach(async () => {
    if (recording) await closeSandboxes();
    const pending = nock.pendingMocks();
    const unanswered = stop();
    stop = strays();
    const drifted = replayMismatches.splice(0);
    nock.cleanAll();
    // A delayed reply (`.delay()`) the app stopped waiting for still holds nock's timer until it would have answered;
    // a second or so after a time-out test, often past the file's end, where it keeps the jest worker from exiting.
    nock.abortPendingRequests();
    expect(pending).toEqual([]);
    expect(unanswered).toEqual([]);
    expect(drifted).toEqual([]);
  });
  afterAll(async () => {
    if (recording) {
      recordWith(undefined);
      await writeRecordings();
    }
    stop();
    nock.enableNetConnect();
    nock.restore();
  });
};

/** The message of an error as a Zap builder reads it (z.errors.Error carries JSON of message, code and status). */
export const messageOf = (error: unknown): string => {
  const text = error instanceof Error ? error.message : String(error);
  try {
    const parsed = JSON.parse(text) as { message?: unknown };
    return typeof parsed.message === 'string' ? parsed.message : text;
  } catch {
    return text;
  }
};
