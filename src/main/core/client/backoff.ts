/**
 * Exponential backoff, written once for every retry loop of the monitor: the REST client's
 * retries (client/http.ts), the streams' reconnects (streams/supervisor.ts) and the alert
 * channels' retries (notify/outbox-worker.ts). Each keeps its own policy; this is the arithmetic.
 */
export interface BackoffPolicy {
  /** The first retry's delay before jitter. */
  readonly baseMs: number;
  /** The longest delay before jitter: the growth stops here. */
  readonly capMs: number;
  /** How much each retry multiplies the delay by; 2 when not set. */
  readonly factor?: number;
  /**
   * `full`: a uniform draw in [0, delay] (many clients retrying at once spread out, none waits
   * longer than the delay); a share s: a uniform draw in [delay x (1 - s), delay x (1 + s)].
   */
  readonly jitter: 'full' | number;
}

/**
 * The delay before retry `retry` (0 the first), in whole milliseconds: min(cap, base x factor^retry),
 * jittered. `random` answers in [0, 1), as Math.random does; a test hands its own.
 */
export function backoffDelay(policy: BackoffPolicy, retry: number, random: () => number = Math.random): number {
  const delay = Math.min(policy.capMs, policy.baseMs * (policy.factor ?? 2) ** Math.max(0, retry));
  const r = random();
  const spread = policy.jitter === 'full' ? r : 1 - policy.jitter + 2 * policy.jitter * r;
  return Math.round(delay * spread);
}
