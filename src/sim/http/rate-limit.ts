/**
 * A token bucket per api-key: `perSecond` requests, bursts up to the same number. `sim --plan`
 * takes the rate from the service's plans (PLANS in src/shared/credit-prices.ts, which the app's
 * Settings read too).
 */
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
