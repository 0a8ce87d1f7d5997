import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RiskRefresh, type RiskRefreshDeps } from '../../../../src/main/core/risk/risk-refresh';

const HOUR = 3_600_000;

beforeEach(() => {
  vi.useFakeTimers({ now: new Date(2026, 10, 2, 9, 0).getTime() });
});
afterEach(() => {
  vi.useRealTimers();
});

describe("the margin records' timer", () => {
  it('reads when the plan in force says: a budget that moves the interval moves the timer', async () => {
    let interval = 3 * HOUR;
    const r = new RiskRefresh({ intervalMs: () => interval } as unknown as RiskRefreshDeps);
    const reads: number[] = [];
    vi.spyOn(r, 'refresh').mockImplementation(async () => {
      reads.push(Date.now());
      return [];
    });
    const start = Date.now();
    r.restartTimer();
    // An hour in, the budget stretches the records to a day: no read at 3 h, one at 24 h.
    await vi.advanceTimersByTimeAsync(HOUR);
    interval = 24 * HOUR;
    r.retime();
    await vi.advanceTimersByTimeAsync(3 * HOUR);
    expect(reads).toEqual([]);
    await vi.advanceTimersByTimeAsync(20 * HOUR);
    expect(reads).toEqual([start + 24 * HOUR]);
    // Two hours after that read, the budget allows 30 min again: overdue, read at once, then every 30 min.
    await vi.advanceTimersByTimeAsync(2 * HOUR);
    interval = HOUR / 2;
    r.retime();
    await vi.advanceTimersByTimeAsync(0);
    expect(reads).toEqual([start + 24 * HOUR, start + 26 * HOUR]);
    await vi.advanceTimersByTimeAsync(HOUR);
    expect(reads.slice(2)).toEqual([start + 26.5 * HOUR, start + 27 * HOUR]);
    // The same interval again changes nothing.
    r.retime();
    await vi.advanceTimersByTimeAsync(HOUR / 2 - 1);
    expect(reads).toHaveLength(4);
    r.close();
  });
});
