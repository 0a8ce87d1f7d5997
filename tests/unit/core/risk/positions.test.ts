import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { MarginManager } from '../../../../src/shared/api';
import { OracleBook } from '../../../../src/main/core/risk/oracle-book';
import { positionOf, type ValuationContext } from '../../../../src/main/core/risk/positions';
import { describePosition, positionHeadline } from '../../../../src/main/core/alerts/position-text';
import type { AssetBook } from '../../../../src/main/core/risk/asset-book';
import { DEFAULT_RISK_PARAMS } from '../../../../src/main/core/risk/risk-params';
import { BOOK as book, SUI, USDC as USDC_ID, managerOf, thresholds, positionArb } from '../../../support/positions';

describe("the valuation learns the oracle from the service's ratios", () => {
  it("assets / debt = ratio on every position, and equals the service's ratio at the read, whatever the exchange says", () => {
    fc.assert(
      fc.property(
        fc.array(positionArb, { minLength: 1, maxLength: 6 }),
        fc.double({ min: 0.5, max: 2, noNaN: true }),
        (list, basis) => {
          const oracle = new OracleBook();
          const oraclePrice = list[0]!.prices!.base;
          const managers = list.map((p, i) => managerOf(p, oraclePrice, `m${i}`));
          // The exchange differs from the oracle by `basis`: it must never leak into the ratio.
          const exchange = { symbol: 'SUI', usd: oraclePrice * basis, source: 'exchange' as const, at: 1_000 };
          oracle.learn(managers, book, () => exchange.usd, 1_000);
          const ctx: ValuationContext = {
            book,
            price: (a) => oracle.price(a, a === SUI ? 'SUI' : 'USDC', a === SUI ? exchange : null, 1_000),
            exchange: (a) => (a === SUI ? exchange : { symbol: 'USDC', usd: 1, source: 'stablecoin', at: 1_000 }),
            pastPrice: () => null,
            thresholds: () => thresholds,
            history: () => undefined,
            readAt: 1_000,
            now: 1_000,
          };
          for (const m of managers) {
            const p = positionOf(m, ctx);
            if (p.risk_ratio === null || p.collateral_usd === null || !p.debt_usd) continue;
            expect(Math.abs(p.collateral_usd / p.debt_usd / p.risk_ratio - 1)).toBeLessThan(1e-3);
            // Amounts rounded to raw units and ratios to 1e-6 leave a little; 0.1 % is the bound.
            expect(Math.abs(p.risk_ratio / m.active_loans![0]!.risk_ratio! - 1)).toBeLessThan(1e-3);
            expect(p.risk_params).toEqual(DEFAULT_RISK_PARAMS);
            if (Math.abs(basis - 1) > 0.011) expect(p.exchange_view).not.toBeNull();
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it('the break-even is where the profit shown is zero, and says which liquidation moved it', () => {
    const oracle = new OracleBook();
    const m = {
      margin_manager_id: 'm',
      owner: 'o',
      dex_pool_id: 'p',
      created_at: new Date(0).toISOString(),
      checkpoint_timestamp_ms: 0,
      deposit: {
        base_asset_amount: 1000e9,
        quote_asset_amount: 0,
        last_base_oracle_price: 25,
        last_base_oracle_decimals: 1,
        last_quote_oracle_price: 1,
        last_quote_oracle_decimals: 0,
        timestamp: new Date(0).toISOString(),
      },
      active_loans: [
        {
          margin_pool_id: 'mp-usdc',
          loan_amount: 1,
          loan_shares: 1,
          remaining_amount: 1900e6,
          remaining_shares: 1,
          risk_ratio: 2500 / 1900,
          timestamp: new Date(0).toISOString(),
        },
      ],
    } as unknown as MarginManager;
    oracle.learn([m], book, () => 2.5, 1_000);
    const history = {
      complete: true,
      flows: [
        { at: 0, kind: 'deposit' as const, base: 0, quote: 600e6 },
        { at: 500, kind: 'liquidation' as const, repaid: 1000e6, marginPoolId: 'mp-usdc' },
      ],
    };
    const p = positionOf(m, {
      book,
      price: (a) => oracle.price(a, a === SUI ? 'SUI' : 'USDC', null, 1_000),
      exchange: () => null,
      pastPrice: () => null,
      thresholds: () => thresholds,
      history: () => history,
      readAt: 1_000,
      now: 1_000,
    });
    // Equity 2,500 - 1,900 = 600 = what was put in: no profit, so the break-even is today's 2.5.
    // It counts the liquidation's 5 % of 1,000 USDC as the profit does (an entry price would not
    // move; this one did, at the liquidation's time), and the note says how much it took.
    expect(p.pnl.pnl_usd).toBeCloseTo(0, 6);
    expect(p.pnl.break_even_price).toBeCloseTo(2.5, 9);
    expect(p.pnl.break_even_moved_at).toBe(500);
    expect(p.pnl.note).toBe('The profit counts $50.00 lost to a liquidation (their rewards).');
    // Without the liquidation nothing moved it.
    const calm = positionOf(m, {
      book,
      price: (a) => oracle.price(a, a === SUI ? 'SUI' : 'USDC', null, 1_000),
      exchange: () => null,
      pastPrice: () => null,
      thresholds: () => thresholds,
      history: () => ({ complete: true, flows: history.flows.slice(0, 1) }),
      readAt: 1_000,
      now: 1_000,
    });
    expect(calm.pnl.break_even_moved_at).toBeNull();
    expect(calm.pnl.note).toBeNull();
  });
});

describe("a position's prices at its pool's tick", () => {
  /** A long of `size` base against 1,900 USDC of debt, valued at `base` dollars, in `pool`'s book. */
  function valued(pool: { tick_size: number; base_asset_decimals: number }, base: number, size: number) {
    const b: AssetBook = {
      ...book,
      poolsById: new Map([['p', { ...book.poolsById.get('p')!, ...pool }]]),
      decimalsOf: new Map([
        [SUI, pool.base_asset_decimals],
        [USDC_ID, 6],
      ]),
    };
    const m = {
      margin_manager_id: 'm',
      owner: 'o',
      dex_pool_id: 'p',
      created_at: new Date(0).toISOString(),
      checkpoint_timestamp_ms: 0,
      active_loans: [
        {
          margin_pool_id: 'mp-usdc',
          loan_amount: 1,
          loan_shares: 1,
          remaining_amount: 1900e6,
          remaining_shares: 1,
          risk_ratio: (size * base) / 1900,
          timestamp: new Date(0).toISOString(),
        },
      ],
      deposit: {
        base_asset_amount: Math.round(size * 10 ** pool.base_asset_decimals),
        quote_asset_amount: 0,
        last_base_oracle_price: 1,
        last_base_oracle_decimals: 0,
        last_quote_oracle_price: 1,
        last_quote_oracle_decimals: 0,
        timestamp: new Date(0).toISOString(),
      },
    } as unknown as MarginManager;
    const oracle = new OracleBook();
    oracle.learn([m], b, () => base, 1_000);
    return positionOf(m, {
      book: b,
      price: (a) => oracle.price(a, a === SUI ? 'SUI' : 'USDC', null, 1_000),
      exchange: () => null,
      pastPrice: () => null,
      thresholds: () => thresholds,
      history: () => undefined,
      readAt: 1_000,
      now: 1_000,
    });
  }

  it("carries the tick's decimals, rounds the liquidation price at them toward the price now, and the alert writes them", () => {
    // WAL_USDC: a 0.00001 tick (raw 10, 9 and 6 decimals). issue 40: "$0.1965" in one view, "0.19650" in another.
    const wal = valued({ tick_size: 10, base_asset_decimals: 9 }, 0.25, 10_000);
    expect(wal.price_decimals).toBe(5);
    const exact = (1900 * wal.liquidation_ratio) / 10_000;
    // A long's rounds up at the fifth decimal: reached no later than the true one.
    expect(wal.liquidation_price).toBe(Math.ceil(exact * 1e5 - 1e-6) / 1e5);
    expect(wal.liquidation_price).toBeGreaterThanOrEqual(exact);
    const written = `$${wal.liquidation_price!.toFixed(5)}`;
    expect(positionHeadline(wal)).toContain(`liquidation at ${written},`);
    expect(describePosition(wal).text).toContain(`at ${written} (`);

    // XBTC_USDC: a 0.1 tick (raw 1,000,000, 8 and 6 decimals): one decimal, "$108,757.4".
    const xbtc = valued({ tick_size: 1_000_000, base_asset_decimals: 8 }, 120_000, 0.02);
    expect(xbtc.price_decimals).toBe(1);
    expect(Number.isInteger(Math.round(xbtc.liquidation_price! * 10 * 1e6) / 1e6)).toBe(true);
    expect(positionHeadline(xbtc)).toMatch(/liquidation at \$\d{3},\d{3}\.\d,/);

    // SUI_USDC's 0.0001: four.
    expect(valued({ tick_size: 100, base_asset_decimals: 9 }, 3.5, 1000).price_decimals).toBe(4);
  });

  it('says a long past its liquidation price is below it, never a signed move still to come', () => {
    // 600 SUI at $3.50 against 1,900 USDC: 1.105, under the liquidation ratio; the price is already
    // below the liquidation price, so the distance is positive: "+1.8 %" read as "a rise liquidates it".
    const sui = valued({ tick_size: 100, base_asset_decimals: 9 }, 3.5, 600);
    expect(sui.risk_ratio!).toBeLessThan(sui.liquidation_ratio);
    expect(sui.distance_pct!).toBeGreaterThan(0);
    const written = `$${sui.liquidation_price!.toFixed(4)}`;
    const pct = `${sui.distance_pct!.toFixed(1)}\u202F%`;
    expect(positionHeadline(sui)).toContain(`, past its liquidation price ${written} (${pct} below)`);
    expect(positionHeadline(sui)).not.toContain('+');
    expect(describePosition(sui).text).toContain(` SUI is ${pct} below its liquidation price, ${written}.`);
    // Above it, the usual words.
    const safe = valued({ tick_size: 100, base_asset_decimals: 9 }, 3.5, 1000);
    expect(positionHeadline(safe)).toMatch(/, liquidation at \$\d\.\d{4}, \u2212\d+\.\d\u202F%$/);
  });
});
