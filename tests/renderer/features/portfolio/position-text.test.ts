import { describe, expect, it } from 'vitest';
import { levelReason } from '../../../../src/renderer/src/features/portfolio/position-text';
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

  it('says a level held by the hysteresis is held, and until when, as the alerts hold it', () => {
    // Critical at 1.14, now 1.16 and 4 % away: judged alone a warning, held critical until 1.173 and 3.3 %.
    expect(levelReason(at(1.16, -4, 'critical'))).toMatch(
      /^Ratio 1\.160: held at critical until it is 2\u202F% past the edge \(1\.173, and 3\.3\u202F% from its liquidation price\)/,
    );
    expect(levelReason(at(1.21, -8, 'warning'))).toMatch(/^Ratio 1\.210: held at warning until .*\(1\.224\)/);
  });
});
