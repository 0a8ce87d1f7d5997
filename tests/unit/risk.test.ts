import { describe, expect, it } from 'vitest';
import { distanceToLiquidationPct, impliedBasePrice, riskRatioOf, type Position } from '../../src/main/core/risk/distance';
import { ThresholdTracker } from '../../src/main/core/risk/thresholds';

describe('distance to liquidation (worked examples)', () => {
  it('a long: 1,000 SUI at $3.00 against 2,400 USDC of debt', () => {
    // Ratio 3000 / 2400 = 1.25. Liquidation at 1.125 needs assets of 2700: SUI at $2.70, a 10% fall.
    const p: Position = { base: 1000, quote: 0, basePrice: 3, quotePrice: 1, debt: 2400, debtSide: 'quote' };
    expect(riskRatioOf(p)).toBeCloseTo(1.25, 12);
    expect(distanceToLiquidationPct(p)).toBeCloseTo(-10, 10);
  });

  it('a long with USDC collateral beside it needs a larger fall', () => {
    // 1000 SUI at $3 + 600 USDC = 3600 vs 3000 debt: ratio 1.2; at 1.125 assets are 3375: SUI at 2.775 (-7.5%).
    const p: Position = { base: 1000, quote: 600, basePrice: 3, quotePrice: 1, debt: 3000, debtSide: 'quote' };
    expect(riskRatioOf(p)).toBeCloseTo(1.2, 12);
    expect(distanceToLiquidationPct(p)).toBeCloseTo(-7.5, 10);
  });

  it('a short: 3,750 USDC against 1,000 SUI of debt at $3.00', () => {
    // Ratio 3750 / 3000 = 1.25; at 1.125, 3750 = 1.125 * 1000 * P: P = 3.3333, a rise of 11.11%.
    const p: Position = { base: 0, quote: 3750, basePrice: 3, quotePrice: 1, debt: 1000, debtSide: 'base' };
    expect(riskRatioOf(p)).toBeCloseTo(1.25, 12);
    expect(distanceToLiquidationPct(p)).toBeCloseTo(11.111111, 5);
  });

  it('no debt or no exposure to the base price: no distance', () => {
    expect(distanceToLiquidationPct({ base: 10, quote: 0, basePrice: 3, quotePrice: 1, debt: 0, debtSide: 'quote' })).toBeNull();
    expect(distanceToLiquidationPct({ base: 0, quote: 100, basePrice: 3, quotePrice: 1, debt: 50, debtSide: 'quote' })).toBeNull();
  });

  it('measures from the price that explains the service ratio', () => {
    // The deposit says SUI was $3.00, the service now reports 1.2: SUI must be at $2.88 today.
    const p: Position = { base: 1000, quote: 0, basePrice: 3, quotePrice: 1, debt: 2400, debtSide: 'quote' };
    const now = impliedBasePrice(p, 1.2)!;
    expect(now).toBeCloseTo(2.88, 10);
    expect(distanceToLiquidationPct({ ...p, basePrice: now })).toBeCloseTo((1.125 / 1.2 - 1) * 100, 8);
  });
});

describe('thresholds with hysteresis and cooldown', () => {
  const t = { warning: 1.5, critical: 1.25 };

  it('alerts once per crossing while a ratio hovers at a threshold', () => {
    const tr = new ThresholdTracker(0.02, 60_000);
    const ratios = [1.6, 1.49, 1.51, 1.49, 1.505, 1.495, 1.52, 1.49];
    const fired = ratios.map((r, i) => tr.observe('m', r, t, i * 1000));
    expect(fired.filter((x) => x !== null)).toEqual(['warning']);
  });

  it('escalates to critical, and alerts again after recovering past the hysteresis and the cooldown', () => {
    const tr = new ThresholdTracker(0.02, 10_000);
    expect(tr.observe('m', 1.45, t, 0)).toBe('warning');
    expect(tr.observe('m', 1.2, t, 1000)).toBe('critical');
    expect(tr.observe('m', 1.26, t, 2000)).toBeNull(); // above 1.25 but inside the hysteresis band
    expect(tr.level('m')).toBe('critical');
    expect(tr.observe('m', 1.6, t, 3000)).toBeNull();
    expect(tr.level('m')).toBe('ok');
    expect(tr.observe('m', 1.45, t, 5000)).toBeNull(); // within the cooldown of the last warning
    expect(tr.observe('m', 1.6, t, 6000)).toBeNull();
    expect(tr.observe('m', 1.45, t, 20_000)).toBe('warning');
  });

  it('keeps managers apart', () => {
    const tr = new ThresholdTracker();
    expect(tr.observe('a', 1.4, t)).toBe('warning');
    expect(tr.observe('b', 1.4, t)).toBe('warning');
  });
});
