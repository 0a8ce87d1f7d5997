import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { backoffDelay, type BackoffPolicy } from '../../../../src/main/core/client/backoff';

/** The policies the monitor's retry loops keep (client/http.ts, streams/supervisor.ts, notify/outbox-worker.ts). */
const REQUESTS: BackoffPolicy = { baseMs: 1_000, capMs: 8_000, jitter: 'full' };
const STREAMS: BackoffPolicy = { baseMs: 1_000, capMs: 30_000, jitter: 'full' };
const CHANNELS: BackoffPolicy = { baseMs: 1_000, capMs: 600_000, jitter: 0.2 };

/** A draw just under 1, Math.random's highest. */
const TOP = 1 - 2 ** -53;

describe('backoffDelay', () => {
  it('doubles from the base to the cap: the delay itself is the top of a full-jitter draw', () => {
    const tops = (p: BackoffPolicy, n: number): number[] =>
      Array.from({ length: n }, (_, retry) => backoffDelay(p, retry, () => TOP));
    expect(tops(REQUESTS, 6)).toEqual([1_000, 2_000, 4_000, 8_000, 8_000, 8_000]);
    expect(tops(STREAMS, 7)).toEqual([1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000]);
    // Full jitter reaches down to nothing: many clients retrying at once spread over the whole span.
    expect(backoffDelay(STREAMS, 4, () => 0)).toBe(0);
    expect(backoffDelay(STREAMS, 4, () => 0.5)).toBe(8_000);
  });

  it('spreads a share of jitter either side of the delay: the channels\u2019 \u00b120 %', () => {
    expect(backoffDelay(CHANNELS, 0, () => 0)).toBe(800);
    expect(backoffDelay(CHANNELS, 0, () => 0.5)).toBe(1_000);
    expect(backoffDelay(CHANNELS, 0, () => TOP)).toBe(1_200);
    // 1 s doubling: 512 s at the tenth retry, then the 10-minute cap, jittered after the cap (up to 12 minutes).
    expect(backoffDelay(CHANNELS, 9, () => 0.5)).toBe(512_000);
    expect(backoffDelay(CHANNELS, 10, () => 0.5)).toBe(600_000);
    expect(backoffDelay(CHANNELS, 40, () => TOP)).toBe(720_000);
    expect(backoffDelay(CHANNELS, 40, () => 0)).toBe(480_000);
  });

  it('grows by the factor it is given', () => {
    const triple: BackoffPolicy = { baseMs: 100, capMs: 10_000, factor: 3, jitter: 'full' };
    expect([0, 1, 2, 3, 4, 5].map((retry) => backoffDelay(triple, retry, () => TOP))).toEqual([
      100, 300, 900, 2_700, 8_100, 10_000,
    ]);
  });

  it('draws once per delay and counts a retry below 0 as the first', () => {
    let draws = 0;
    const random = (): number => (draws++, 0.5);
    expect(backoffDelay(STREAMS, -3, random)).toBe(500);
    expect(draws).toBe(1);
  });

  it('stays in whole milliseconds within its bounds, for any retry and draw', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 5_000 }),
        fc.integer({ min: 1, max: 3_600_000 }),
        fc.constantFrom<BackoffPolicy['jitter']>('full', 0.1, 0.2, 0.5, 1),
        fc.integer({ min: 0, max: 2_000 }),
        fc.double({ min: 0, max: TOP, noNaN: true }),
        (baseMs, capMs, jitter, retry, r) => {
          const delay = Math.min(capMs, baseMs * 2 ** retry);
          const ms = backoffDelay({ baseMs, capMs, jitter }, retry, () => r);
          expect(Number.isInteger(ms)).toBe(true);
          const [lo, hi] = jitter === 'full' ? [0, delay] : [delay * (1 - jitter), delay * (1 + jitter)];
          expect(ms).toBeGreaterThanOrEqual(Math.floor(lo));
          expect(ms).toBeLessThanOrEqual(Math.ceil(hi));
        },
      ),
    );
  });
});
