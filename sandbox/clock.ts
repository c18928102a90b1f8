/**
 * The sandbox's own clock. Sandbox time runs `timeScale` times as fast as real time (1 by default, 0 to stand
 * still) and can be moved forward by `advance`, so a test can let a 60-second retry back-off pass in
 * milliseconds. Everything time-dependent in the sandbox (timestamps, retries, rate-limit windows, the receipts
 * hold-back) reads this clock, never `Date.now()` directly.
 */

interface Timer {
  id: number;
  at: number;
  run: () => unknown;
}

export interface ClockOptions {
  /** Sandbox time at start, ms since the epoch; real time by default. */
  start?: number;
  /** Sandbox milliseconds per real millisecond; 0 freezes the clock (only `advance` moves it). */
  timeScale?: number;
}

export class SandboxClock {
  private base: number;
  private realBase: number;
  private scale: number;
  private timers: Timer[] = [];
  private nextTimerId = 1;
  private realTimer: NodeJS.Timeout | undefined;
  private advancing: Promise<void> = Promise.resolve();
  private disposed = false;

  constructor(options: ClockOptions = {}) {
    this.realBase = Date.now();
    this.base = options.start ?? this.realBase;
    this.scale = options.timeScale ?? 1;
    if (!(this.scale >= 0)) throw new Error('timeScale must be 0 or more');
  }

  now(): number {
    return Math.floor(this.base + (Date.now() - this.realBase) * this.scale);
  }

  nowSeconds(): number {
    return Math.floor(this.now() / 1000);
  }

  get timeScale(): number {
    return this.scale;
  }

  /** Changes the pace from now on, without a jump in sandbox time. */
  setTimeScale(scale: number): void {
    if (!(scale >= 0)) throw new Error('timeScale must be 0 or more');
    this.base = this.now();
    this.realBase = Date.now();
    this.scale = scale;
    this.arm();
  }

  schedule(at: number, run: () => unknown): number {
    const timer = { id: this.nextTimerId++, at, run };
    this.timers.push(timer);
    this.timers.sort((a, b) => a.at - b.at || a.id - b.id);
    this.arm();
    return timer.id;
  }

  cancel(id: number): void {
    this.timers = this.timers.filter((t) => t.id !== id);
    this.arm();
  }

  /**
   * Moves sandbox time forward by `ms`, running every timer that falls due on the way, each at its own time and
   * in order, and waiting for what they start (e.g. a retried delivery) before going on.
   */
  advance(ms: number): Promise<void> {
    if (!(ms >= 0)) return Promise.reject(new Error('advance takes a number of milliseconds ≥ 0'));
    const step = async () => {
      const target = this.now() + ms;
      for (;;) {
        const next = this.timers[0];
        if (!next || next.at > target) break;
        this.timers.shift();
        const gap = next.at - this.now();
        if (gap > 0) this.base += gap;
        await next.run();
      }
      const rest = target - this.now();
      if (rest > 0) this.base += rest;
      this.arm();
    };
    this.advancing = this.advancing.then(step, step);
    return this.advancing;
  }

  /** Stops every timer; the clock keeps telling the time. */
  dispose(): void {
    this.disposed = true;
    this.timers = [];
    if (this.realTimer) clearTimeout(this.realTimer);
    this.realTimer = undefined;
  }

  /** With a running clock, one real timer waits for the earliest sandbox timer. */
  private arm(): void {
    if (this.realTimer) clearTimeout(this.realTimer);
    this.realTimer = undefined;
    const next = this.timers[0];
    if (!next || this.disposed || this.scale === 0) return;
    const wait = Math.max(0, Math.ceil((next.at - this.now()) / this.scale));
    // setTimeout's limit is about 24.8 days; longer waits re-arm on the way.
    this.realTimer = setTimeout(() => this.runDue(), Math.min(wait, 2 ** 31 - 1));
    this.realTimer.unref();
  }

  private runDue(): void {
    this.realTimer = undefined;
    const now = this.now();
    const due = this.timers.filter((t) => t.at <= now);
    this.timers = this.timers.filter((t) => t.at > now);
    // A timer's own failure must not stop the clock: the delivery engine records its outcomes itself.
    for (const timer of due)
      void Promise.resolve()
        .then(timer.run)
        .catch(() => undefined);
    this.arm();
  }
}
