import { describe, expect, it } from 'vitest';
import { CADENCE_RULES } from '../../../../src/main/core/risk/cadence';
import { planReads } from '../../../../src/main/core/risk/price-schedule';
import { PRIOR_DAILY_VOL } from '../../../../src/main/core/risk/volatility';
import { suiLong } from '../../../support/positions';

const sigma = PRIOR_DAILY_VOL / Math.sqrt(86_400);

describe('the read plan', () => {
  it('reads an asset as its nearest position needs, and says why with that position', () => {
    const pos = (id: string, distancePct: number) => ({
      position: suiLong({ manager_id: id, distance_pct: distancePct }),
      thresholds: { warning: 1.5, critical: 1.25, near_pct: null },
      baseAsset: 'SUI',
      quoteAsset: 'USDC',
    });
    const at = { readable: (a: string) => a === 'SUI', quoteUsd: () => 1, sigma: () => sigma, now: 0 };
    // Both within 10 % of liquidation: both ask for the 45 s floor; the reason is the nearer one's.
    const plan = planReads([pos('a', -8.5), pos('b', 2.9)], CADENCE_RULES.guard, null, at);
    expect(plan.assets).toEqual([
      { asset: 'SUI', wantMs: 45_000, everyMs: 45_000, why: 'near liquidation (+2.9\u202F%)' },
    ]);
  });
});
