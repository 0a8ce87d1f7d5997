import { describe, expect, it } from 'vitest';
import { ALL, type ShockTotals } from '../../../src/shared/risk-model';
import { shockSentenceText, shocksText } from '../../../src/shared/shock-text';

const totals: ShockTotals = {
  positions: 9,
  liquidated: 3,
  repaid_usd: 12_400.184,
  equity_change_usd: -40_100.526,
  levels: { ok: 4, warning: 1, critical: 1, liquidatable: 3 },
};

describe('price shocks in words (the shock panels and `tidewatch risk`)', () => {
  it('writes each move as it was set: a 2.5 % move is never "3 %"', () => {
    expect(shocksText({ SUI: -0.15, [ALL]: 0.025 }, 'en-US')).toBe(
      'SUI \u221215\u202F% and all non-stable assets +2.5\u202F%',
    );
    expect(shocksText({ WAL: 0, SUI: -0.15 }, 'en-US')).toBe('SUI \u221215\u202F%');
    expect(shocksText({}, 'en-US')).toBe('');
  });

  it("writes the money it sums as the positions' own, to the cent whatever its size", () => {
    expect(shockSentenceText({ SUI: -0.15 }, totals, 'en-US')).toBe(
      'SUI \u221215\u202F%: 3 of 9 positions liquidated, $12,400.18 of debt repaid by liquidators, equity \u2212$40,100.53',
    );
    expect(shockSentenceText({ SUI: -0.01 }, { ...totals, liquidated: 0, repaid_usd: 0, positions: 1 }, 'en-US')).toBe(
      'SUI \u22121\u202F%: 0 of 1 position liquidated, equity \u2212$40,100.53',
    );
  });
});
