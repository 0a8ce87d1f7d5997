import { describe, expect, it } from 'vitest';
import { paceFactor, readsPerDay } from '../../../../src/main/core/budget/budget-pacer';
import { UnplannedSpend } from '../../../../src/main/core/credits/unplanned-spend';

const MIN = 60_000;

/** Notes once a minute for `minutes`: `spentPerMin(m)` spent in minute m, the plan at `plannedPerDay(m)`. */
function run(
  u: UnplannedSpend,
  minutes: number,
  spentPerMin: (m: number) => number,
  plannedPerDay: (m: number) => number,
) {
  let spent = 0;
  for (let m = 0; m <= minutes; m++) {
    if (m > 0) spent += spentPerMin(m);
    u.note(m * MIN, spent, plannedPerDay(m));
  }
}

describe('the spend beyond the plan', () => {
  it('is what the requests spent less what the plans in force expected, as a rate a day', () => {
    const u = new UnplannedSpend();
    // The plan expects 144,000 a day (100 a minute); 130 a minute are spent.
    run(
      u,
      30,
      () => 130,
      () => 144_000,
    );
    expect(u.perDay()).toBeCloseTo(30 * 1440, 6);
  });

  it('reserves nothing before 15 minutes are measured, nor when the plan spends more than it reads', () => {
    const u = new UnplannedSpend();
    run(
      u,
      14,
      () => 500,
      () => 144_000,
    );
    expect(u.perDay()).toBe(0);
    const under = new UnplannedSpend();
    run(
      under,
      30,
      () => 50,
      () => 144_000,
    );
    expect(under.perDay()).toBe(0);
  });

  it('integrates each plan over the time it was in force', () => {
    const u = new UnplannedSpend();
    // 10 minutes at 100 a minute planned, then 20 at 200 a minute; spent as planned throughout.
    run(
      u,
      30,
      (m) => (m <= 10 ? 100 : 200),
      (m) => (m <= 10 ? 144_000 : 288_000),
    );
    expect(u.perDay()).toBeCloseTo(0, 6);
  });

  it('takes a one-off for what it is: the start of every wallet read at once reserves nothing', () => {
    const u = new UnplannedSpend();
    // 2,000 credits in the first minute (records and prices of every wallet), then as planned.
    run(
      u,
      30,
      (m) => (m === 1 ? 2_000 : 100),
      () => 144_000,
    );
    expect(u.perDay()).toBe(0);
    // A steady excess in every window is a rate, whatever one-off sits in one of them.
    const steady = new UnplannedSpend();
    run(
      steady,
      30,
      (m) => (m === 1 ? 2_000 : 150),
      () => 144_000,
    );
    expect(steady.perDay()).toBeCloseTo(50 * 1440, 6);
  });

  it('forgets what is older than half an hour, and starts again with a new month', () => {
    const u = new UnplannedSpend();
    // For the first half hour 60 a minute beyond the plan, then exactly as planned.
    run(
      u,
      70,
      (m) => (m <= 30 ? 160 : 100),
      () => 144_000,
    );
    expect(u.perDay()).toBeCloseTo(0, 6);
    u.note(71 * MIN, 5, 144_000);
    expect(u.perDay()).toBe(0);
  });

  it('reads notes at any spacing, between the samples', () => {
    const u = new UnplannedSpend();
    // Notes every 45 s (a round of price reads), 30 % beyond a plan of 100 a minute.
    for (let t = 0; t <= 40 * MIN; t += 45_000) u.note(t, (t / MIN) * 130, 144_000);
    expect(u.perDay()).toBeCloseTo(30 * 1440, 6);
  });

  it('paces the scheduled reads so the day, with what was not planned, fits what is allowed', () => {
    const bounds = { minMs: 45_000, maxMs: 15 * MIN };
    const reads = [1, 2, 3, 4].map((i) => ({ id: `asset ${i}`, intervalMs: 45_000, credits: 20 }));
    const allowed = 161_290;
    const margin = 2_600;
    const u = new UnplannedSpend();
    // Reads outside the schedule: 40,000 a day on top of a plan that fits by itself.
    let spent = 0;
    let planned = readsPerDay(reads, paceFactor(reads, margin, allowed, bounds), bounds);
    for (let m = 0; m <= 40; m++) {
      if (m > 0) spent += (planned + 40_000) / 1440;
      u.note(m * MIN, spent, planned);
      planned = readsPerDay(reads, paceFactor(reads, margin + u.perDay(), allowed, bounds), bounds);
    }
    expect(u.perDay()).toBeCloseTo(40_000, 0);
    expect(planned + 40_000 + margin).toBeLessThanOrEqual(allowed + 1);
  });
});
