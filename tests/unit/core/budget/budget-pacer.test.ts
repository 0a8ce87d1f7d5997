import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  allowedPerDay,
  paceFactor,
  pacedIntervalMs,
  readsPerDay,
  type PacedRead,
} from '../../../../src/main/core/budget/budget-pacer';
import { CADENCE_RULES } from '../../../../src/main/core/risk/cadence';

const DAY_MS = 86_400_000;

describe('budget pacing (docs/credits.md "Budget")', () => {
  const b = CADENCE_RULES.guard;
  const reads = (n: number): PacedRead[] =>
    Array.from({ length: n }, (_, i) => ({ id: `a${i}`, intervalMs: b.minMs * (1 + i * 3), credits: 20 }));

  it('stretches the least urgent most, and finds the smallest factor that fits', () => {
    const rs = [
      { id: 'near', intervalMs: b.minMs, credits: 20 },
      { id: 'far', intervalMs: b.maxMs, credits: 20 },
    ];
    const f = paceFactor(rs, 50, 10_000, b);
    expect(f).toBeGreaterThan(1);
    expect(50 + readsPerDay(rs, f, b)).toBeLessThanOrEqual(10_000 + 1e-6);
    expect(50 + readsPerDay(rs, f * 0.99, b)).toBeGreaterThan(10_000);
    expect(pacedIntervalMs(b.maxMs, f, b) / b.maxMs).toBeCloseTo(f, 6);
    expect(pacedIntervalMs(b.minMs, f, b) / b.minMs).toBeCloseTo(f ** 0.25, 6);
    expect(paceFactor(rs, 50, 1e9, b)).toBe(1);
    expect(paceFactor(rs, 10_000, 10_000, b)).toBe(Infinity);
  });

  it('a read with a longest interval is never stretched past it', () => {
    const rs = [{ id: 'records', intervalMs: 3 * 3_600_000, credits: 100, maxMs: DAY_MS }];
    expect(pacedIntervalMs(rs[0]!.intervalMs, 1e6, b, DAY_MS)).toBe(DAY_MS);
  });

  it('never spends more than a 31st of the budget a day, nor more than is left', () => {
    expect(allowedPerDay(250_000, 0, new Date(2026, 10, 25, 12))).toBeCloseTo(250_000 / 31, 6);
    expect(allowedPerDay(250_000, 249_000, new Date(2026, 10, 29, 0))).toBeCloseTo(1_000 / 2, 6);
    expect(allowedPerDay(250_000, 300_000, new Date(2026, 10, 2))).toBe(0);
  });

  it('over a simulated month, pacing never exceeds the budget (margin stream included)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 8 }),
        fc.integer({ min: 20_000, max: 5_000_000 }),
        fc.double({ min: 0, max: 200, noNaN: true }),
        fc.integer({ min: 0, max: 27 }),
        (n, budget, stream, startDay) => {
          fc.pre(stream * 31 < budget);
          let spent = 0;
          // Each hour of the month from the start day: plan, then spend that hour's share.
          for (let h = startDay * 24; h < 30 * 24; h++) {
            const now = new Date(2026, 10, 1, h);
            const allowed = allowedPerDay(budget, spent, now);
            const f = paceFactor(reads(n), stream, allowed, b);
            spent += (stream + readsPerDay(reads(n), f, b)) / 24;
          }
          expect(spent).toBeLessThanOrEqual(budget * 1.000001);
        },
      ),
      { numRuns: 60 },
    );
  });
});
