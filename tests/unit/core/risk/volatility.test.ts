import { describe, expect, it } from 'vitest';
import { VolatilityBook, PRIOR_DAILY_VOL, SIGMA_FLOOR } from '../../../../src/main/core/risk/volatility';

const sigma = PRIOR_DAILY_VOL / Math.sqrt(86_400);

describe('volatility', () => {
  it('starts from the prior, learns from candles and from the prices read', () => {
    const v = new VolatilityBook();
    expect(v.sigma('SUI')).toBeCloseTo(sigma, 12);
    // Closes alternating +-1 % every 5 minutes: σ = 0.00995 / sqrt(300).
    const candles = Array.from({ length: 25 }, (_, i) => ({ close: i % 2 ? 1.01 : 1 })) as never;
    v.seed('SUI', candles, 300);
    expect(v.sigma('SUI')).toBeCloseTo(Math.log(1.01) / Math.sqrt(300), 8);
    // Reads: a steady price drives it down to its floor; reads closer than 5 s are skipped.
    for (let i = 0; i < 100; i++) v.note('SUI', 2, i * 60_000);
    expect(v.sigma('SUI')).toBe(SIGMA_FLOOR);
    v.note('SUI', 4, 99 * 60_000 + 1000);
    expect(v.sigma('SUI')).toBe(SIGMA_FLOOR);
    v.note('SUI', 2.02, 100 * 60_000);
    expect(v.sigma('SUI')).toBeGreaterThan(1e-4);
  });
});
