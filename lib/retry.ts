/**
 * A read retried within the step, for the reads whose failure nobody would bring back: on Zapier, the patient of a
 * hook trigger's event or of a poll's new item (lib/host.ts). A failure for now (429, 5xx, time-out, network) is
 * tried again after the interface's Retry-After or a short backoff; everything, waits and attempts, ends within
 * one budget, so the trigger still answers well inside the 30 s Zapier gives it.
 */
import { requestTimeoutMs } from './config';
import { TransportError } from './http';

/** Time as the retries see it: a test or the bench sets its own (tests wait on events, never on time). */
export const CLOCK = {
  now: (): number => Date.now(),
  sleep: (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms)),
};

/** Backoff between attempts after a 5xx, a time-out or a network failure, then doubling. */
const FIRST_BACKOFF_MS = 1_000;
/** An attempt given less than this would time out before any interface could answer: not worth starting. */
const SHORTEST_ATTEMPT_MS = 2_000;

/** Core's errors carry their facts as JSON in the message: AppError `{status}`, ThrottledError `{delay}`. */
const factsOf = (err: Error): { status?: unknown; delay?: unknown } => {
  try {
    const facts: unknown = JSON.parse(err.message);
    return facts && typeof facts === 'object' ? facts : {};
  } catch {
    return {};
  }
};

/**
 * How long to wait before trying again after `err`, or undefined when trying again would not help (a 4xx, a
 * refusal, a bug): a 429's Retry-After, or the backoff for a 5xx, a time-out or a network failure.
 */
export const retryDelayMs = (err: unknown, attempt: number): number | undefined => {
  if (!(err instanceof Error)) return undefined;
  const backoff = FIRST_BACKOFF_MS * 2 ** (attempt - 1);
  if (err.name === 'ThrottledError') {
    const delay = Number(factsOf(err).delay);
    return Number.isFinite(delay) && delay > 0 ? delay * 1000 : backoff;
  }
  if (err instanceof TransportError) return backoff;
  const status = Number(factsOf(err).status);
  return err.name === 'AppError' && status >= 500 ? backoff : undefined;
};

/**
 * `read` until it answers, trying again after failures for now while the budget lasts: each attempt is given the
 * time left (`timeoutMs`, at most the usual request time-out), and a wait that would leave no time for a last
 * attempt is not taken. Throws the last failure.
 */
export const retryWithin = async <T>(
  budgetMs: number,
  read: (timeoutMs: number) => Promise<T>,
): Promise<T> => {
  const deadline = CLOCK.now() + budgetMs;
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await read(Math.max(1, Math.min(requestTimeoutMs(), deadline - CLOCK.now())));
    } catch (err) {
      const wait = retryDelayMs(err, attempt);
      if (wait === undefined || CLOCK.now() + wait + SHORTEST_ATTEMPT_MS > deadline) throw err;
      await CLOCK.sleep(wait);
    }
  }
};
