import { describe, expect, it } from 'vitest';
import type { PortfolioSummary } from '../../../../src/shared/contract';
import { upgradeKept } from '../../../../src/main/core/risk/risk-refresh';

/** A Portfolio as an earlier version kept it in the store: the break-even named `entry_price`. */
const kept = (pnls: Array<{ entry_price: number | null; note: string | null }>): PortfolioSummary =>
  ({
    wallets: [
      {
        owner: '0xowner',
        label: null,
        positions: pnls.map((pnl, i) => ({
          manager_id: `m${i}`,
          pnl: { net_deposited_usd: 600, pnl_usd: 0, estimated: false, ...pnl },
        })),
        supplies: [],
      },
    ],
    prices: [],
    computed_at: 0,
  }) as unknown as PortfolioSummary;

describe('a Portfolio kept by an earlier version', () => {
  it('reads as a break-even where no liquidation took part, else unknown until the next valuation', () => {
    const p = upgradeKept(
      kept([
        { entry_price: 2.5, note: null },
        {
          entry_price: 2.45,
          note: 'The profit counts $50 lost to a liquidation (their rewards); the entry leaves it out.',
        },
      ]),
    );
    const [calm, liquidated] = p.wallets[0]!.positions.map((x) => x.pnl);
    expect(calm).toEqual({
      net_deposited_usd: 600,
      pnl_usd: 0,
      estimated: false,
      note: null,
      break_even_price: 2.5,
      break_even_moved_at: null,
    });
    expect(liquidated!.break_even_price).toBeNull();
    expect('entry_price' in liquidated!).toBe(false);
    // A Portfolio of this version is left as it is.
    expect(upgradeKept(structuredClone(p))).toEqual(p);
  });
});
