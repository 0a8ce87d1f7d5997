import { describe, expect, it } from 'vitest';
import { dangerBand, levelHeld, levelReason } from '../../../../src/renderer/src/features/portfolio/position-text';
import type { PositionSummary } from '../../../../src/shared/contract';
import { suiLong } from '../../../support/positions';

const thresholds = { warning: 1.2, critical: 1.15, near_pct: 3 };
const at = (risk_ratio: number, distance_pct: number, level: PositionSummary['level']): PositionSummary =>
  suiLong({ risk_ratio, distance_pct, level, thresholds, liquidation_ratio: 1.125 } as Partial<PositionSummary>);

describe("a row's level in words", () => {
  it('says why it is at its level, by the thresholds it was judged with', () => {
    expect(levelReason(at(1.14, -5, 'critical'))).toMatch(
      /^Ratio 1\.140 is below the critical ratio\. Warning below 1\.200/,
    );
    expect(levelReason(at(1.17, -2.9, 'critical'))).toMatch(/^Within 3\u202F% of its liquidation price\./);
    expect(levelReason(at(1.12, -0.1, 'liquidatable'))).toMatch(/^Ratio 1\.120 is below the liquidation ratio/);
  });

  it('marks a level held by the hysteresis on its badge, and only then', () => {
    expect(levelHeld(at(1.16, -4, 'critical'))).toBe(true);
    expect(levelHeld(at(1.21, -8, 'warning'))).toBe(true);
    expect(levelHeld(at(1.14, -5, 'critical'))).toBe(false);
    expect(levelHeld(at(1.19, -8, 'warning'))).toBe(false);
  });

  it('says a level held by the hysteresis is held, and until when, as the alerts hold it', () => {
    // Critical at 1.14, now 1.16 and 4 % away: judged alone a warning, held critical until 1.173 and 3.3 %.
    expect(levelReason(at(1.16, -4, 'critical'))).toMatch(
      /^Ratio 1\.160: held at critical until it is 2\u202F% past the edge \(1\.173, and 3\.3\u202F% from its liquidation price\)/,
    );
    expect(levelReason(at(1.21, -8, 'warning'))).toMatch(/^Ratio 1\.210: held at warning until .*\(1\.224\)/);
  });
});

describe('the danger band in a row', () => {
  // WAL_USDC on the Demo network (src/sim/chain/assets.ts): liquidated below 1.2, borrows need 1.35, withdrawals 2.2.
  const wal = { liquidation: 1.2, target_liquidation: 1.35, min_borrow: 1.35, min_withdraw: 2.2 };
  const onWal = (risk_ratio: number, params: Partial<typeof wal> = {}): PositionSummary =>
    suiLong({
      risk_ratio,
      pool_name: 'WAL_USDC',
      liquidation_ratio: 1.2,
      risk_params: { ...wal, ...params, user_reward: 0.01, pool_reward: 0.05, enabled: true, source: 'service' },
    } as Partial<PositionSummary>);

  it('marks a ratio below the minimum borrow ratio and above the liquidation ratio, and says what is refused and why', () => {
    expect(dangerBand(onWal(1.3))).toEqual({
      label: 'borrows refused',
      title:
        "Ratio 1.300, below WAL_USDC's minimum borrow ratio 1.350: new borrows and withdrawals are refused (withdrawals need 2.200), since each would lower the ratio further. Deposit, repay or close part of it to get back above 1.350. Liquidated below 1.200.",
    });
    // 1.3499 reads 1.349 (a ratio is written rounded down): still below 1.350.
    expect(dangerBand(onWal(1.3499))?.title).toMatch(/^Ratio 1\.349, below WAL_USDC's minimum borrow ratio 1\.350/);
  });

  it("says in the level's words that withdrawals are refused between the minimum borrow and withdraw ratios", () => {
    expect(levelReason({ ...onWal(1.6), thresholds })).toMatch(
      /Withdrawals are refused below WAL_USDC's minimum withdraw ratio 2\.200; borrows are allowed down to 1\.350\.$/,
    );
    // Above the minimum withdraw ratio, and in the danger band (which has its own mark): not said.
    expect(levelReason({ ...onWal(2.3), thresholds })).not.toContain('Withdrawals');
    expect(levelReason({ ...onWal(1.3), thresholds })).not.toContain('Withdrawals are refused below');
  });

  it('leaves the mark off at and above the minimum borrow ratio, at or below liquidation, and without debt', () => {
    expect(dangerBand(onWal(1.35))).toBeNull();
    expect(dangerBand(onWal(1.6))).toBeNull();
    // Liquidatable: the level says more than the band.
    expect(dangerBand(onWal(1.2))).toBeNull();
    expect(dangerBand(onWal(1.1))).toBeNull();
    expect(dangerBand({ ...onWal(1.3), risk_ratio: null })).toBeNull();
  });

  it('names only borrows where a pool lets withdrawals through below its minimum borrow ratio', () => {
    expect(dangerBand(onWal(1.3, { min_withdraw: 1.25 }))?.title).toContain(
      ': new borrows are refused, since each would lower the ratio further.',
    );
  });
});
