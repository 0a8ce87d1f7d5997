import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CADENCE_RULES, distanceToNextThreshold, readIntervalMs } from '../../../../src/main/core/risk/cadence';
import { PRIOR_DAILY_VOL } from '../../../../src/main/core/risk/volatility';
import { suiLong } from '../../../support/positions';

const sigma = PRIOR_DAILY_VOL / Math.sqrt(86_400);

describe('the read cadence (docs/credits.md "How often")', () => {
  const rule = CADENCE_RULES.guard;

  it('reads a price as often as a quarter of the distance could be covered at 3 sigma, between its bounds', () => {
    // 5 % to the next threshold at 6 %/day: (0.25 * 0.05 / (3 * σ))^2 s.
    const want = ((0.25 * 0.05) / (3 * sigma)) ** 2 * 1000;
    expect(readIntervalMs(CADENCE_RULES.volatility, 0.05, 30, sigma)).toBeCloseTo(want, 0);
    expect(readIntervalMs(rule, 0.5, 60, sigma)).toBe(rule.maxMs);
    expect(readIntervalMs(rule, 0.0001, 60, sigma)).toBe(rule.minMs);
    expect(readIntervalMs(rule, 0, 60, sigma)).toBe(rule.minMs);
    // Within 10 % of liquidation: at least every 45 s, however far the next threshold.
    expect(readIntervalMs(rule, 0.5, -9.9, sigma)).toBe(45_000);
    expect(readIntervalMs(CADENCE_RULES.fixed, 0.001, -1, sigma)).toBe(60_000);
  });

  it('closer to a threshold or to liquidation never reads less often; more volatile never less often', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0, max: 2, noNaN: true }),
        fc.double({ min: 0, max: 2, noNaN: true }),
        fc.double({ min: -80, max: 80, noNaN: true }),
        fc.double({ min: -80, max: 80, noNaN: true }),
        fc.double({ min: 1e-6, max: 1e-2, noNaN: true }),
        fc.double({ min: 1e-6, max: 1e-2, noNaN: true }),
        fc.constantFrom(...Object.values(CADENCE_RULES)),
        (d1, d2, l1, l2, s1, s2, r) => {
          const [near, far] = d1 <= d2 ? [d1, d2] : [d2, d1];
          const [nearLiq, farLiq] = Math.abs(l1) <= Math.abs(l2) ? [l1, l2] : [l2, l1];
          const [calm, wild] = s1 <= s2 ? [s1, s2] : [s2, s1];
          expect(readIntervalMs(r, near, nearLiq, calm)).toBeLessThanOrEqual(readIntervalMs(r, far, farLiq, calm));
          expect(readIntervalMs(r, near, nearLiq, wild)).toBeLessThanOrEqual(readIntervalMs(r, near, nearLiq, calm));
          const ms = readIntervalMs(r, near, nearLiq, calm);
          expect(ms).toBeGreaterThanOrEqual(r.minMs);
          expect(ms).toBeLessThanOrEqual(r.maxMs);
        },
      ),
    );
  });

  it('measures the move to the next threshold below the ratio, carried as the valuation carries it', () => {
    const t = { warning: 1.5, critical: 1.25, near_pct: null };
    // The ratio moves with the SUI price (no quote held): 1.5 is reached at 2 * 1.5 / 1.6 = 1.875, -6.25 %.
    expect(distanceToNextThreshold(suiLong(), t)).toBeCloseTo(0.0625, 6);
    // Below warning, the next is critical: -13.8 % from 1.45.
    expect(distanceToNextThreshold(suiLong({}, 1.45), t)).toBeCloseTo(1 - 1.25 / 1.45, 6);
    // Within 3 % of the liquidation price counts as critical. From 1.2 the liquidation price is
    // 6.25 % below (1.125 / 1.2); its 3 % edge comes after a 3.4 % fall, before critical (4.2 %).
    const near = distanceToNextThreshold(suiLong({}, 1.2), { warning: 1.5, critical: 1.15, near_pct: 3 });
    expect(near).toBeCloseTo(1 - 1.125 / 1.2 / 0.97, 6);
    // At or below liquidation: as often as allowed.
    expect(distanceToNextThreshold(suiLong({}, 1.1), t)).toBe(0);
  });
});
