/** The limiter is paused (a 429's Retry-After) for longer than a caller should wait. */
export class LimiterPausedError extends Error {
  override readonly name = 'LimiterPausedError';
  constructor(readonly remainingMs: number) {
    super(`requests are paused for ${Math.ceil(remainingMs / 1000)} s`);
  }
}

/** Client-side request pacing: a token bucket (requests per second) and a concurrency bound. */
export class RequestLimiter {
  private tokens: number;
  private last = Date.now();
  private active = 0;
  private readonly waiting: Array<() => void> = [];
  /** Until when every request waits (set by a 429's Retry-After). */
  private pausedUntil = 0;

  constructor(
    private perSecond: number,
    private concurrency: number,
    private readonly sleep: (ms: number) => Promise<void> = (ms) => new Promise((r) => setTimeout(r, ms)),
    /** A pause longer than this fails the request at once (the caller answers from its cache). */
    private readonly maxPauseWaitMs = 2_000,
  ) {
    this.tokens = perSecond;
  }

  configure(perSecond: number, concurrency: number): void {
    this.perSecond = perSecond;
    this.concurrency = concurrency;
  }

  pauseFor(ms: number): void {
    this.pausedUntil = Math.max(this.pausedUntil, Date.now() + ms);
  }

  /** Forget a pause (the service or the key changed: the old one's Retry-After no longer applies). */
  clearPause(): void {
    this.pausedUntil = 0;
  }

  /** Milliseconds left of a pause, 0 when none. */
  pausedFor(): number {
    return Math.max(0, this.pausedUntil - Date.now());
  }

  /** Run `task` once a rate token and a concurrency slot are free; `signal` gives up waiting. */
  async run<T>(task: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    const paused = this.pausedFor();
    if (paused > this.maxPauseWaitMs) throw new LimiterPausedError(paused);
    while (this.active >= this.concurrency) {
      await new Promise<void>((r) => {
        this.waiting.push(r);
        signal?.addEventListener(
          'abort',
          () => {
            const i = this.waiting.indexOf(r);
            if (i >= 0) this.waiting.splice(i, 1);
            r();
          },
          { once: true },
        );
      });
      signal?.throwIfAborted();
    }
    this.active++;
    try {
      for (;;) {
        signal?.throwIfAborted();
        const pause = this.pausedFor();
        if (pause > this.maxPauseWaitMs) throw new LimiterPausedError(pause);
        if (pause > 0) {
          await this.sleep(pause);
          continue;
        }
        const now = Date.now();
        this.tokens = Math.min(this.perSecond, this.tokens + ((now - this.last) / 1000) * this.perSecond);
        this.last = now;
        if (this.tokens >= 1) {
          this.tokens -= 1;
          break;
        }
        await this.sleep(Math.ceil(((1 - this.tokens) / this.perSecond) * 1000));
      }
      return await task();
    } finally {
      this.active--;
      this.waiting.shift()?.();
    }
  }
}
