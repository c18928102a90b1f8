/**
 * Shared by the app's end-to-end suites (app-*.test.ts): one sandbox of both partner interfaces and one hook
 * intake per file, the real app (the TypeScript sources) run through zapier-platform-core's app tester, and
 * plain fetch for what a test reads or does in the sandbox directly. No nock: it would intercept the sandbox's
 * deliveries.
 */
import { createAppTester } from 'zapier-platform-core';
import App from '../../index';
import { appConnection, startSandbox, type Sandbox, type SandboxOptions } from '../../sandbox';
import { call, type Answer, type Json } from '../../harness/call';
import { startIntake, type Intake } from '../../harness/intake';

export { App };

export type { Answer, Json } from '../../harness/call';

export { call };

type Fn = (z: unknown, bundle: unknown) => unknown;
type Operations = Record<string, { operation: Record<string, unknown> }>;
const app = App as unknown as {
  triggers: Operations;
  creates: Operations;
  searches: Operations;
  authentication: { test: Fn; connectionLabel: Fn };
  hydrators: Record<string, Fn>;
};

/** `z.dehydrate`'s pointer: `hydrate|||{"type":"method","method":"hydrators.x","bundle":{…}}|||hydrate`. */
const POINTER = /^hydrate\|\|\|(.+)\|\|\|hydrate$/s;

export type Kind = 'triggers' | 'creates' | 'searches';

export interface World {
  sb: Sandbox;
  intake: Intake;
  authData: Record<string, string>;
  /** Runs an operation's function of the real app as Zapier does (perform, performList…). */
  run<T = Json>(kind: Kind, key: string, inputData?: object, extra?: object, fn?: string): Promise<T>;
  /** Runs the connection test, then the label from its result, as Zapier does. */
  testConnection(authData?: Record<string, string>): Promise<{ result: Json; label: string }>;
  /** Resolves a dehydrated pointer as Zapier does when the trigger fires: its hydrator runs with its bundle. */
  hydrate<T = Json>(pointer: unknown): Promise<T>;
  /**
   * One Zap on a hook trigger: subscribes as turning the Zap on does, makes the event happen (`cause`), waits for
   * the signed delivery, unsubscribes, and answers the items perform made of it (an error fails the test).
   */
  fire(key: string, cause: () => Promise<unknown>, inputData?: Record<string, unknown>): Promise<Json[]>;
  /** Partner interfaces with the owner tokens, and the sandbox-only endpoints. */
  clinic(path: string, options?: { method?: string; body?: unknown; token?: string }): Promise<Answer>;
  cashier(path: string, options?: { method?: string; body?: unknown; token?: string }): Promise<Answer>;
  control(path: string, options?: { method?: string; body?: unknown }): Promise<Answer>;
  close(): Promise<void>;
}

/** A sandbox on a free port (real time: the app checks delivery timestamps against its own clock) and an intake. */
export const startWorld = async (options: SandboxOptions = {}): Promise<World> => {
  const sb = await startSandbox({
    port: 0,
    quiet: true,
    holdBackMs: 0,
    rateLimitPerMinute: 1000,
    ...options,
  });
  const authData = appConnection(sb);
  const intake = await startIntake({ app: App as never, authData });
  const tester = createAppTester(App);
  const run = <T>(kind: Kind, key: string, inputData: object = {}, extra: object = {}, fn = 'perform') => {
    const operation = app[kind][key]?.operation;
    if (!operation || typeof operation[fn] !== 'function')
      throw new Error(`The app has no ${kind}.${key}.${fn}`);
    return tester(operation[fn] as never, { authData, inputData, ...extra } as never) as Promise<T>;
  };
  return {
    sb,
    intake,
    authData,
    run,
    async testConnection(auth = authData) {
      const result = await tester(app.authentication.test as never, { authData: auth } as never);
      const label = (await tester(
        app.authentication.connectionLabel as never,
        { authData: auth, inputData: result } as never,
      )) as string;
      return { result, label };
    },
    async hydrate<T>(pointer: unknown) {
      const found = typeof pointer === 'string' ? POINTER.exec(pointer) : null;
      if (!found) throw new Error(`Not a dehydrated pointer: ${JSON.stringify(pointer)}`);
      const { method, bundle } = JSON.parse(found[1]!) as { method: string; bundle: object };
      const fn = app.hydrators[method.replace(/^hydrators\./, '')];
      if (!fn) throw new Error(`The app has no ${method}`);
      return tester(fn as never, { authData, inputData: bundle } as never) as Promise<T>;
    },
    async fire(key, cause, inputData = {}) {
      await sb.settle();
      const hook = await intake.subscribe(key, inputData);
      await cause();
      await sb.settle();
      const runs = await intake.waitForRuns(hook, 1, 3000);
      await intake.unsubscribe(hook);
      expect(runs.map((r) => r.error)).toEqual([undefined]);
      return runs[0]!.items;
    },
    clinic: (path, o = {}) => call(`${sb.clinicBaseUrl}${path}`, { token: sb.tokens.clinicOwner, ...o }),
    cashier: (path, o = {}) => call(`${sb.cashierBaseUrl}${path}`, { token: sb.tokens.cashierOwner, ...o }),
    control: (path, o = {}) => call(`${sb.controlUrl}${path}`, o),
    async close() {
      await intake.close();
      await sb.close();
    },
  };
};

/**
 * A start time far from the seeded appointments and from every other call's, in clinic hours (09:00–16:00 Saudi
 * time, whole hours); a Friday's, the Saudi weekend, moves to the Saturday at its own hour.
 */
let slot = 0;
export const freeSlot = (): string => {
  slot += 1;
  const at = new Date(Date.now() + (40 + slot) * 24 * 3600_000);
  at.setUTCHours(6 + (slot % 8), 0, 0, 0);
  if (at.getUTCDay() === 5) at.setUTCDate(at.getUTCDate() + 1);
  return at.toISOString().replace(/\.\d+Z$/, 'Z');
};

/** An appointment booked at the front desk (not through the app) for the seeded patient, at a free slot. */
export const frontDeskBooking = async (w: World, extra: object = {}): Promise<Json> => {
  const res = await w.control('/clinic/appointments', {
    body: {
      branch_id: 1,
      appointment_type_id: 1,
      starts_at: freeSlot(),
      patient_id: w.sb.refs.clinic.patient,
      ...extra,
    },
  });
  expect(res.status).toBe(201);
  return res.body.data;
};

export { expectSarSiblings, sar } from '../support/money';

/** The thrown error of a promise that must fail. */
export const failure = (p: Promise<unknown>): Promise<Error> =>
  p.then(
    () => new Error('expected a failure'),
    (e: Error) => e,
  );
