import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { MarginManager } from '../../src/shared/api';
import { OracleBook } from '../../src/main/core/risk/oracle-book';
import { positionOf, type ValuationContext } from '../../src/main/core/risk/positions';
import type { AssetBook } from '../../src/main/core/risk/asset-book';
import { DEFAULT_RISK_PARAMS } from '../../src/main/core/risk/risk-params';
import {
  accrue,
  afterDeposit,
  depositFor,
  entryOf,
  priceAtRatio,
  repayFor,
  shockPortfolio,
  shockPosition,
  ALL,
  valueAt,
  type Holdings,
  type ModelPosition,
  timeToLiquidationByInterest,
} from '../../src/shared/risk-model';

/** The holdings after repaying `amount` of the debt: what a repay plan is checked against. */
function afterRepay(h: Holdings, amount: number): Holdings {
  return h.debtBase > 0 && h.debtQuote <= 0
    ? { ...h, debtBase: h.debtBase - amount }
    : { ...h, debtQuote: h.debtQuote - amount };
}

const params = { liquidation: 1.125, target_liquidation: 1.25, user_reward: 0.01, pool_reward: 0.04 };
const thresholds = { warning: 1.2, critical: 1.15, near_pct: 3 };

/** A position with debt in one asset, around the ratios traders hold (1.13 … 3). */
const positionArb = fc
  .record({
    long: fc.boolean(),
    price: fc.double({ min: 0.01, max: 100_000, noNaN: true }),
    collateralUsd: fc.double({ min: 10, max: 1e7, noNaN: true }),
    ratio: fc.double({ min: 1.13, max: 3, noNaN: true }),
    quoteShare: fc.double({ min: 0, max: 0.5, noNaN: true }),
  })
  .map(({ long, price, collateralUsd, ratio, quoteShare }): ModelPosition & { holdings: Holdings } => {
    // Debt D, assets R x D; a long holds base (and some quote), a short holds quote (and some base).
    const debtUsd = collateralUsd / (ratio - 1);
    const assetsUsd = ratio * debtUsd;
    const other = assetsUsd * quoteShare;
    const holdings: Holdings = long
      ? { base: (assetsUsd - other) / price, quote: other, debtBase: 0, debtQuote: debtUsd }
      : { base: other / price, quote: assetsUsd - other, debtBase: debtUsd / price, debtQuote: 0 };
    return {
      manager_id: 'm',
      base_symbol: 'SUI',
      quote_symbol: 'USDC',
      holdings,
      prices: { base: price, quote: 1 },
      params,
      thresholds,
    };
  });

describe('the risk model (docs/valuation.md)', () => {
  it("a shock of 0 gives today's ratios and equity", () => {
    fc.assert(
      fc.property(positionArb, (p) => {
        const s = shockPosition(p, {});
        expect(s.ratio).toBeCloseTo(valueAt(p.holdings, p.prices!).ratio!, 12);
        expect(s.equity_change).toBeCloseTo(0, 6);
        expect(s.liquidated).toBe(false);
      }),
    );
  });

  it('the ratio is monotone in the shock: up for a long as the base rises, down for a short', () => {
    fc.assert(
      fc.property(
        positionArb,
        fc.double({ min: -0.5, max: 0.5, noNaN: true }),
        fc.double({ min: -0.5, max: 0.5, noNaN: true }),
        (p, a, b) => {
          const [lo, hi] = a <= b ? [a, b] : [b, a];
          const rl = shockPosition(p, { SUI: lo }).ratio!;
          const rh = shockPosition(p, { SUI: hi }).ratio!;
          if (p.holdings.debtQuote > 0) expect(rh).toBeGreaterThanOrEqual(rl * (1 - 1e-12));
          else expect(rh).toBeLessThanOrEqual(rl * (1 + 1e-12));
          // "All non-stable assets" moves SUI alike; USDC never moves.
          expect(shockPosition(p, { [ALL]: lo }).ratio).toBeCloseTo(rl, 9);
          expect(shockPosition(p, { USDC: lo }).ratio).toBeCloseTo(shockPosition(p, {}).ratio!, 12);
        },
      ),
    );
  });

  it("at the liquidation price the ratio is the pool's liquidation ratio; below it the shock liquidates", () => {
    fc.assert(
      fc.property(positionArb, (p) => {
        const liq = priceAtRatio(p.holdings, 1, params.liquidation);
        if (liq === null) return;
        expect(valueAt(p.holdings, { base: liq, quote: 1 }).ratio!).toBeCloseTo(params.liquidation, 9);
        const move = liq / p.prices!.base - 1;
        if (Math.abs(move) > 0.5 || Math.abs(move) < 1e-6) return;
        expect(shockPosition(p, { SUI: move * 1.01 }).liquidated).toBe(true);
        expect(shockPosition(p, { SUI: move * 0.99 }).liquidated).toBe(false);
      }),
    );
  });

  it('the repair brings the ratio to the target within 1e-9; rounded up to a unit it is there, one unit less is not', () => {
    fc.assert(
      fc.property(positionArb, fc.double({ min: 1.2, max: 2, noNaN: true }), (p, target) => {
        const v = valueAt(p.holdings, p.prices!);
        if (v.ratio! >= target) return;
        // One unit less is visible only where a unit is worth more than double precision can tell apart.
        const visible = (decimals: number, price: number): boolean => (10 ** -decimals * price) / v.debt > 1e-11;
        for (const [asset, decimals] of [
          ['quote', 6],
          ['base', 9],
        ] as const) {
          const price = asset === 'quote' ? 1 : p.prices!.base;
          const d = depositFor(p.holdings, p.prices!, target, asset, decimals)!;
          expect(
            Math.abs(valueAt(afterDeposit(p.holdings, asset, d.exact), p.prices!).ratio! / target - 1),
          ).toBeLessThan(1e-9);
          expect(valueAt(afterDeposit(p.holdings, asset, d.amount), p.prices!).ratio!).toBeGreaterThanOrEqual(
            target * (1 - 1e-12),
          );
          if (visible(decimals, price))
            expect(valueAt(afterDeposit(p.holdings, asset, d.amount - 10 ** -decimals), p.prices!).ratio!).toBeLessThan(
              target,
            );
        }
        const decimals = p.holdings.debtQuote > 0 ? 6 : 9;
        const r = repayFor(p.holdings, p.prices!, target, decimals)!;
        expect(Math.abs(valueAt(afterRepay(p.holdings, r.exact), p.prices!).ratio! / target - 1)).toBeLessThan(1e-9);
        expect(valueAt(afterRepay(p.holdings, r.amount), p.prices!).ratio!).toBeGreaterThanOrEqual(
          target * (1 - 1e-12),
        );
        if (visible(decimals, p.holdings.debtQuote > 0 ? 1 : p.prices!.base)) {
          expect(valueAt(afterRepay(p.holdings, r.amount - 10 ** -decimals), p.prices!).ratio!).toBeLessThan(target);
        }
      }),
    );
  });

  it('profit is 0 right after opening, and the entry is the price paid', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0.01, max: 1e5, noNaN: true }),
        fc.double({ min: 10, max: 1e6, noNaN: true }),
        fc.double({ min: 1.26, max: 3, noNaN: true }),
        (price, deposit, ratio) => {
          // A long: deposit USDC, borrow USDC, buy base with both.
          const borrowed = deposit / (ratio - 1);
          const long: Holdings = { base: (deposit + borrowed) / price, quote: 0, debtBase: 0, debtQuote: borrowed };
          const a = entryOf(long, { base: price, quote: 1 }, deposit);
          expect(Math.abs(a.pnl)).toBeLessThan(1e-6 * deposit);
          expect(a.entry! / price).toBeCloseTo(1, 9);
          // A short: deposit USDC, borrow base, sell it for USDC.
          const short: Holdings = { base: 0, quote: deposit + borrowed, debtBase: borrowed / price, debtQuote: 0 };
          expect(Math.abs(entryOf(short, { base: price, quote: 1 }, deposit).pnl)).toBeLessThan(1e-6 * deposit);
        },
      ),
    );
  });

  it('interest alone: the time to liquidation is when the accrued ratio meets the liquidation ratio', () => {
    fc.assert(
      fc.property(positionArb, fc.double({ min: 0.01, max: 2, noNaN: true }), (p, apr) => {
        const ms = timeToLiquidationByInterest(p.holdings, p.prices!, { base: apr, quote: apr }, params.liquidation);
        const ratio = valueAt(p.holdings, p.prices!).ratio!;
        const exact = (Math.log(ratio / params.liquidation) / apr) * 365 * 86_400_000;
        if (exact > 365 * 86_400_000) expect(ms).toBeNull();
        else expect(Math.abs(ms! - exact)).toBeLessThanOrEqual(120_000);
      }),
    );
    expect(accrue(100, 0.1, 365 * 86_400_000)).toBeCloseTo(100 * Math.exp(0.1), 9);
  });

  it('totals a shock across the portfolio', () => {
    const a: ModelPosition = {
      manager_id: 'a',
      base_symbol: 'SUI',
      quote_symbol: 'USDC',
      holdings: { base: 1000, quote: 0, debtBase: 0, debtQuote: 2400 },
      prices: { base: 3, quote: 1 },
      params,
      thresholds,
    };
    const b: ModelPosition = {
      ...a,
      manager_id: 'b',
      holdings: { base: 1000, quote: 0, debtBase: 0, debtQuote: 1500 },
    };
    // SUI -15 %: a (liquidated at -10 %) goes, b (ratio 2.0 -> 1.7) stays.
    const { rows, totals } = shockPortfolio([a, b], { SUI: -0.15 });
    expect(rows.map((r) => r.liquidated)).toEqual([true, false]);
    expect(totals).toMatchObject({ positions: 2, liquidated: 1 });
    // a at $2.55: assets 2550, debt 2400, ratio 1.0625 < 1.05 x ... not underwater (2550 > 2520): repay (1.25 x 2400 - 2550) / (1.25 - 1.05) = 2250.
    expect(totals.repaid_usd).toBeCloseTo(2250, 6);
    // Equity: a 600 -> 150 - 2250 x 5 % = 37.5; b 1500 -> 1050. Change -562.5 - 450.
    expect(totals.equity_change_usd).toBeCloseTo(-1012.5, 6);
  });
});

describe("the valuation learns the oracle from the service's ratios", () => {
  const SUI = '0x2::sui::SUI';
  const USDC = '0x5::usdc::USDC';
  const pool = {
    pool_id: 'p',
    pool_name: 'SUI_USDC',
    base_asset_id: SUI,
    base_asset_symbol: 'SUI',
    base_asset_decimals: 9,
    quote_asset_id: USDC,
    quote_asset_symbol: 'USDC',
    quote_asset_decimals: 6,
  } as never;
  const book: AssetBook = {
    poolsById: new Map([['p', pool]]),
    marginPoolAsset: new Map([
      ['mp-usdc', USDC],
      ['mp-sui', SUI],
    ]),
    decimalsOf: new Map([
      [SUI, 9],
      [USDC, 6],
    ]),
    risk: { byPool: new Map(), published: false },
    interest: new Map(),
  };

  it("assets / debt = ratio on every position, and equals the service's ratio at the read, whatever the exchange says", () => {
    fc.assert(
      fc.property(
        fc.array(positionArb, { minLength: 1, maxLength: 6 }),
        fc.double({ min: 0.5, max: 2, noNaN: true }),
        (list, basis) => {
          const oracle = new OracleBook();
          const oraclePrice = list[0]!.prices!.base;
          const managers = list.map((p, i): MarginManager => {
            // The same position at the common oracle price (its ratio kept): base amounts scale.
            const k = p.prices!.base / oraclePrice;
            const h = { ...p.holdings, base: p.holdings.base * k, debtBase: p.holdings.debtBase * k };
            const ratio = valueAt(h, { base: oraclePrice, quote: 1 }).ratio!;
            const long = h.debtQuote > 0;
            return {
              margin_manager_id: `m${i}`,
              owner: 'o',
              dex_pool_id: 'p',
              created_at: new Date(0).toISOString(),
              checkpoint_timestamp_ms: 0,
              deposit: {
                base_asset_amount: Math.round(h.base * 1e9),
                quote_asset_amount: Math.round(h.quote * 1e6),
                last_base_oracle_price: 1,
                last_base_oracle_decimals: 0,
                last_quote_oracle_price: 1,
                last_quote_oracle_decimals: 0,
                timestamp: new Date(0).toISOString(),
              },
              active_loans: [
                {
                  margin_pool_id: long ? 'mp-usdc' : 'mp-sui',
                  loan_amount: 1,
                  loan_shares: 1,
                  remaining_amount: Math.round(long ? h.debtQuote * 1e6 : h.debtBase * 1e9),
                  remaining_shares: 1,
                  risk_ratio: Math.round(ratio * 1e6) / 1e6,
                  timestamp: new Date(0).toISOString(),
                },
              ],
            } as unknown as MarginManager;
          });
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

  it('profit counts what a liquidation took; the entry leaves it out', () => {
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
    // Equity 2,500 - 1,900 = 600 = what was put in: no profit; the liquidation's 5 % of 1,000 USDC
    // is a loss of the position, so the entry is 2.5 - 50 / 1,000 = 2.45.
    expect(p.pnl.pnl_usd).toBeCloseTo(0, 6);
    expect(p.pnl.entry_price).toBeCloseTo(2.45, 9);
    expect(p.pnl.note).toContain('$50 lost to a liquidation');
  });
});
