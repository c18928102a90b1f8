/** The sandbox clock (sandbox/README.md, "Clock"): everything time-dependent reads it, never Date.now(). */
export class SandboxClock {
  private base: number;
  private realBase = Date.now();
  private scale = 0;
  private timers: Array<{ at: number; run: () => unknown }> = [];
  private realTimer: NodeJS.Timeout | undefined;
  private advancing: Promise<void> = Promise.resolve();
  private disposed = false;

  /** `start`: sandbox time at start, ms since the epoch (real time by default). */
  constructor(options: { start?: number; timeScale?: number } = {}) {
    this.base = options.start ?? this.realBase;
    this.setTimeScale(options.timeScale ?? 1);
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

  /** Runs `run` at sandbox time `at`; timers due at the same time run in the order they were set. */
  schedule(at: number, run: () => unknown): void {
    this.timers.push({ at, run });
    this.timers.sort((a, b) => a.at - b.at);
    this.arm();
  }

  /**
   * Moves sandbox time forward by `ms`, running every timer that falls due on the way, each at its own time and
   * in order, and waiting for what it starts (e.g. a retried delivery) before going on.
   */
  advance(ms: number): Promise<void> {
    if (!(ms >= 0)) return Promise.reject(new Error('advance takes a number of milliseconds ≥ 0'));
    const step = async () => {
      const target = this.now() + ms;
      for (let next = this.timers[0]; next && next.at <= target; next = this.timers[0]) {
        this.timers.shift();
        this.base += Math.max(0, next.at - this.now());
        await next.run();
      }
      this.base += Math.max(0, target - this.now());
      this.arm();
    };
    this.advancing = this.advancing.then(step, step);
    return this.advancing;
  }

  /** Stops every timer; the clock keeps telling the time. */
  dispose(): void {
    this.disposed = true;
    this.timers = [];
    clearTimeout(this.realTimer);
  }

  /** With a running clock, one real timer waits for the earliest sandbox timer, then runs what is due. */
  private arm(): void {
    clearTimeout(this.realTimer);
    const next = this.timers[0];
    if (!next || this.disposed || this.scale === 0) return;
    const wait = Math.ceil((next.at - this.now()) / this.scale);
    // setTimeout's limit is about 24.8 days; longer waits re-arm on the way.
    this.realTimer = setTimeout(
      () => {
        const now = this.now();
        const due = this.timers.filter((t) => t.at <= now);
        this.timers = this.timers.filter((t) => t.at > now);
        // Each runs on its own; the delivery engine records every outcome itself.
        for (const timer of due) void timer.run();
        this.arm();
      },
      Math.min(Math.max(0, wait), 2 ** 31 - 1),
    ).unref();
  }
}
