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

  /** Run `task` once a rate token and a concurrency slot are free. */
  async run<T>(task: () => Promise<T>): Promise<T> {
    while (this.active >= this.concurrency) await new Promise<void>((r) => this.waiting.push(r));
    this.active++;
    try {
      for (;;) {
        const pause = this.pausedUntil - Date.now();
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

/** Full-jitter exponential backoff: a random delay in [0, min(cap, base x 2^attempt)]. */
export function backoffMs(attempt: number, baseMs: number, capMs: number, random: () => number = Math.random): number {
  return Math.round(random() * Math.min(capMs, baseMs * 2 ** attempt));
}
