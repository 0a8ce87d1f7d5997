import { describe, expect, it } from 'vitest';
import { paceFactor, readsPerDay } from '../../../../src/main/core/budget/budget-pacer';
import { UNPLANNED_WINDOW_MS, UnplannedSpend } from '../../../../src/main/core/credits/unplanned-spend';

const MIN = 60_000;
const DAY = 86_400_000;

describe('the spend beyond the plan', () => {
  it('is what the requests spent over the window less what the plans in force expected', () => {
    const u = new UnplannedSpend();
    // The plan expects 144,000 a day (100 a minute); 130 a minute are spent.
    for (let m = 0; m <= 10; m++) u.note(m * MIN, m * 130, 144_000);
    expect(u.perDay()).toBeCloseTo(30 * 1440, 6);
  });

  it('reserves nothing before two minutes are measured, nor when the plan spends more than it reads', () => {
    const u = new UnplannedSpend();
    u.note(0, 0, 144_000);
    u.note(MIN, 500, 144_000);
    expect(u.perDay()).toBe(0);
    const under = new UnplannedSpend();
    for (let m = 0; m <= 5; m++) under.note(m * MIN, m * 50, 144_000);
    expect(under.perDay()).toBe(0);
  });

  it('integrates each plan over the time it was in force', () => {
    const u = new UnplannedSpend();
    // 5 minutes at 100 a minute planned, then 5 at 200 a minute; 150 a minute spent throughout.
    for (let m = 0; m <= 10; m++) u.note(m * MIN, m * 150, m <= 5 ? 144_000 : 288_000);
    expect(u.perDay()).toBeCloseTo(0, 6);
  });

  it('forgets what is older than the window, and starts again with a new month', () => {
    const u = new UnplannedSpend();
    // An hour ago a burst of 10,000 beyond the plan; the last 20 minutes exactly as planned.
    u.note(0, 0, 144_000);
    u.note(MIN, 10_100, 144_000);
    for (let m = 2; m <= 60; m++) u.note(m * MIN, 10_000 + m * 100, 144_000);
    expect(u.perDay()).toBeCloseTo(0, 6);
    u.note(61 * MIN, 5, 144_000);
    expect(u.perDay()).toBe(0);
    expect(UNPLANNED_WINDOW_MS).toBe(20 * MIN);
  });

  it('paces the scheduled reads so the day, with what was not planned, fits what is allowed', () => {
    const bounds = { minMs: 45_000, maxMs: 15 * MIN };
    const reads = [1, 2, 3, 4].map((i) => ({ id: `asset ${i}`, intervalMs: 45_000, credits: 20 }));
    const allowed = 161_290;
    const u = new UnplannedSpend();
    // Reads outside the schedule: 40,000 a day on top of a plan that fits by itself.
    let spent = 0;
    let planned = readsPerDay(reads, paceFactor(reads, 2_600, allowed, bounds), bounds);
    for (let m = 0; m <= 20; m++) {
      spent += (planned + 40_000) / 1440;
      u.note(m * MIN, spent, planned);
      planned = readsPerDay(reads, paceFactor(reads, 2_600 + u.perDay(), allowed, bounds), bounds);
    }
    expect(u.perDay()).toBeGreaterThan(39_000);
    expect(planned + 40_000 + 2_600).toBeLessThanOrEqual(allowed + 1);
    expect(planned).toBeLessThan((DAY / 45_000) * 20 * 4);
  });
});
