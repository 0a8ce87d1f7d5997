import { describe, expect, it } from 'vitest';
import { CURVE, PROTOCOL_SPREAD } from '../../../../src/sim/chain/margin-pools';
import { World } from '../../../../src/sim/chain/world';
import { borrowApr, supplyApr } from '../../../../src/shared/risk-model';

const NOW = Date.UTC(2026, 10, 23);
const DAY_SEC = 86_400;

describe("the Demo network's margin pools", () => {
  it('borrow on a kinked curve, steep past the kink as the real USDC pool: 14 % -> 39 % -> 64 % at 80 / 85 / 90 %', () => {
    expect(borrowApr(CURVE, 0.8)).toBeCloseTo(0.14, 12);
    expect(borrowApr(CURVE, 0.85)).toBeCloseTo(0.39, 12);
    expect(borrowApr(CURVE, 0.9)).toBeCloseTo(0.64, 12);
    // Below the kink the line is shallow: 10 points of use add 1.5 points of rate.
    expect(borrowApr(CURVE, 0.7) - borrowApr(CURVE, 0.6)).toBeCloseTo(0.015, 12);
  });

  it('are driven to a use as suppliers would, the rate and supply yield following on the curve', () => {
    const w = new World({ seed: 11, nowMs: NOW, historyDays: 0.5 });
    const usdc = w.margin.pools.get('USDC')!;
    const borrowedBefore = usdc.borrowShares * usdc.borrowIndex;
    // Past the kink: the largest supplies leave.
    w.driveUtilization('USDC', 0.9);
    expect(w.margin.book.utilization(usdc)).toBeCloseTo(0.9, 6);
    expect(usdc.borrowShares * usdc.borrowIndex).toBe(borrowedBefore);
    // Back below it: a supplier brings what takes it to 70 %.
    w.driveUtilization('USDC', 0.7);
    expect(w.margin.book.utilization(usdc)).toBeCloseTo(0.7, 6);
    // A day at 90 %: borrowers pay 64 % a year, suppliers earn it on the borrowed share, less the spread.
    w.driveUtilization('USDC', 0.9);
    const borrowIndex = usdc.borrowIndex;
    const supplyIndex = usdc.supplyIndex;
    w.accrueFor(DAY_SEC * 1000, 60);
    const borrowDaily = usdc.borrowIndex / borrowIndex - 1;
    const supplyDaily = usdc.supplyIndex / supplyIndex - 1;
    // Accrual pushes use up a little over the day (debt grows faster than supply): within 1 %.
    expect(borrowDaily * 365).toBeGreaterThan(borrowApr(CURVE, 0.9));
    expect(borrowDaily * 365).toBeLessThan(borrowApr(CURVE, 0.9) * 1.01);
    expect(supplyDaily * 365).toBeGreaterThan(supplyApr(CURVE, 0.9, PROTOCOL_SPREAD));
    expect(supplyDaily * 365).toBeLessThan(supplyApr(CURVE, 0.9, PROTOCOL_SPREAD) * 1.02);
  });
});
