/**
 * What a run of the lane prints and what it leaves behind: one line per check in the order planned (a check never
 * reached is a failure), a line per stage with its time, and the stopping of everything the run started, whatever
 * ends it (the last check, a failure, a signal).
 */

const results: Array<{ name: string; ok: boolean; detail?: string }> = [];
const planned: string[] = [];

/** Declares the checks a section will run, in order, so one it never reaches is reported. */
export const plan = <K extends string>(checks: Record<K, string>): Record<K, string> => {
  planned.push(...Object.values<string>(checks));
  return checks;
};

const seconds = (since: number) => `${((Date.now() - since) / 1000).toFixed(1)} s`;

/** Ends the run after a failed check: what follows depends on it. */
export class Stop extends Error {}

export const check = async <T>(name: string, fn: () => Promise<T>): Promise<T> => {
  const started = Date.now();
  try {
    const value = await fn();
    results.push({ name, ok: true, detail: seconds(started) });
    return value;
  } catch (err) {
    results.push({ name, ok: false, detail: err instanceof Error ? err.message : String(err) });
    throw new Stop();
  }
};

/** Runs `fn` as a check, recording a failure without stopping (the checks after it do not depend on it). */
export const soft = async (name: string, fn: () => Promise<void>) => {
  await check(name, fn).catch((e) => {
    if (!(e instanceof Stop)) throw e;
  });
};

/** Runs a stage (a mode's section, the install) and prints how long it took, whether it passed or not. */
export const stage = async <T>(name: string, fn: () => Promise<T>): Promise<T> => {
  const started = Date.now();
  console.log(`stage ${name}: started`);
  try {
    return await fn();
  } finally {
    console.log(`stage ${name}: ${seconds(started)}`);
  }
};

/** What stops each thing the run started, last started first. */
const stops: Array<() => Promise<unknown>> = [];

/**
 * A stage that stands on its own (a mode): a failed check ends it, not the run, and what it started is stopped
 * when it ends.
 */
export const section = (name: string, fn: () => Promise<void>) =>
  stage(name, async () => {
    const mark = stops.length;
    try {
      await fn();
    } catch (err) {
      if (!(err instanceof Stop)) {
        const detail = err instanceof Error ? (err.stack ?? err.message) : String(err);
        results.push({ name: `${name}: the run itself`, ok: false, detail });
      }
    } finally {
      while (stops.length > mark) await stops.pop()!();
    }
  });

/** Registers how to stop something just started; the returned function stops it now (and only once). */
export const onStop = (stop: () => Promise<unknown>): (() => Promise<void>) => {
  let done = false;
  const once = async () => {
    if (done) return;
    done = true;
    await stop().catch(() => undefined);
  };
  stops.push(once);
  return once;
};

/** Stops everything still running, last started first. */
export const stopAll = async () => {
  while (stops.length) await stops.pop()!();
};

/** Stops everything, prints the checks and answers the number of failures. */
const finish = async (): Promise<number> => {
  await stopAll();
  for (const name of planned) {
    if (!results.some((r) => r.name === name)) results.push({ name, ok: false, detail: 'not reached' });
  }
  for (const r of results)
    console.log(`${r.ok ? 'ok  ' : 'FAIL'} ${r.name}${r.detail ? ` (${r.detail})` : ''}`);
  const passed = results.filter((r) => r.ok).length;
  console.log(`${passed} passed, ${results.length - passed} failed`);
  return results.length - passed;
};

/**
 * Runs `main`, then stops everything and exits: 0 when every planned check passed, 1 otherwise, 130 on SIGINT or
 * SIGTERM (after stopping everything too).
 */
export const runLane = (main: () => Promise<void>) => {
  let stopping = false;
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.on(signal, () => {
      if (stopping) return;
      stopping = true;
      void finish().then(() => process.exit(130));
    });
  }
  main()
    .catch((err: unknown) => {
      if (!(err instanceof Stop)) {
        const detail = err instanceof Error ? (err.stack ?? err.message) : String(err);
        results.push({ name: 'the run itself', ok: false, detail });
      }
    })
    .finally(async () => {
      if (stopping) return;
      stopping = true;
      const failed = await finish();
      process.exit(failed ? 1 : 0);
    });
};
