/**
 * The real service's plans (its published limits): requests per second per key and streams open
 * at once per key. `sim --plan NAME` enforces one with 429s.
 */
export const PLANS = {
  free: { requestsPerSecond: 10, streams: 1 },
  starter: { requestsPerSecond: 25, streams: 3 },
  pro: { requestsPerSecond: 50, streams: 10 },
  business: { requestsPerSecond: 100, streams: 25 },
} as const;
export type PlanName = keyof typeof PLANS;

/** A token bucket per api-key: `perSecond` requests, bursts up to the same number. */
export class RateLimiter {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(private readonly perSecond: number) {}

  /** Undefined when admitted, else the seconds to wait (for `Retry-After`). */
  take(key: string, now = Date.now()): number | undefined {
    const b = this.buckets.get(key) ?? { tokens: this.perSecond, at: now };
    b.tokens = Math.min(this.perSecond, b.tokens + ((now - b.at) / 1000) * this.perSecond);
    b.at = now;
    this.buckets.set(key, b);
    if (b.tokens >= 1) {
      b.tokens -= 1;
      return undefined;
    }
    return Math.max(1, Math.ceil((1 - b.tokens) / this.perSecond));
  }
}
