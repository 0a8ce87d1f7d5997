import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  accrue,
  afterDeposit,
  afterRepay,
  depositAndRepayFor,
  depositFor,
  breakEvenOf,
  priceAtRatio,
  repayFor,
  shockPortfolio,
  shockPosition,
  ALL,
  valueAt,
  type Holdings,
  type ModelPosition,
  timeToLiquidationByInterest,
  movePct,
  sideOf,
} from '../../../src/shared/risk-model';
import { DEFAULT_LIQUIDATION_RATIO } from '../../../src/shared/portfolio';
import { params, thresholds, positionArb } from '../../support/positions';

/** The holdings after bringing `amount` of the asset owed from the wallet and repaying it: the assets stay. */
function afterWalletRepay(h: Holdings, amount: number): Holdings {
  return h.debtBase > 0 && h.debtQuote <= 0
    ? { ...h, debtBase: h.debtBase - amount }
    : { ...h, debtQuote: h.debtQuote - amount };
}

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
        const unit = p.holdings.debtQuote > 0 ? 1 : p.prices!.base;
        // Repaid from the manager's own balance (the protocol's repay): assets and debt fall together.
        const r = repayFor(p.holdings, p.prices!, target, decimals);
        if (v.ratio! <= 1) expect(r).toBeNull();
        else {
          expect(Math.abs(valueAt(afterRepay(p.holdings, r!.exact), p.prices!).ratio! / target - 1)).toBeLessThan(1e-9);
          expect(valueAt(afterRepay(p.holdings, r!.amount), p.prices!).ratio!).toBeGreaterThanOrEqual(
            target * (1 - 1e-12),
          );
          if (visible(decimals, unit))
            expect(valueAt(afterRepay(p.holdings, r!.amount - 10 ** -decimals), p.prices!).ratio!).toBeLessThan(target);
          // Brought in from the wallet, whole or half, the same amount reaches further.
          const half = afterRepay(afterWalletRepay(p.holdings, r!.amount / 2), r!.amount / 2);
          expect(valueAt(half, p.prices!).ratio!).toBeGreaterThanOrEqual(target * (1 - 1e-12));
          expect(valueAt(afterWalletRepay(p.holdings, r!.amount), p.prices!).ratio!).toBeGreaterThanOrEqual(target);
        }
        // Deposited first, then repaid: the assets stay, so less is needed.
        const w = depositAndRepayFor(p.holdings, p.prices!, target, decimals)!;
        expect(Math.abs(valueAt(afterWalletRepay(p.holdings, w.exact), p.prices!).ratio! / target - 1)).toBeLessThan(
          1e-9,
        );
        expect(valueAt(afterWalletRepay(p.holdings, w.amount), p.prices!).ratio!).toBeGreaterThanOrEqual(
          target * (1 - 1e-12),
        );
        if (visible(decimals, unit))
          expect(valueAt(afterWalletRepay(p.holdings, w.amount - 10 ** -decimals), p.prices!).ratio!).toBeLessThan(
            target,
          );
        if (r) expect(w.amount).toBeLessThanOrEqual(r.amount);
      }),
    );
  });

  it('profit is 0 right after opening, and the break-even is then the price paid', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0.01, max: 1e5, noNaN: true }),
        fc.double({ min: 10, max: 1e6, noNaN: true }),
        fc.double({ min: 1.26, max: 3, noNaN: true }),
        (price, deposit, ratio) => {
          // A long: deposit USDC, borrow USDC, buy base with both.
          const borrowed = deposit / (ratio - 1);
          const long: Holdings = { base: (deposit + borrowed) / price, quote: 0, debtBase: 0, debtQuote: borrowed };
          const a = breakEvenOf(long, { base: price, quote: 1 }, deposit);
          expect(Math.abs(a.pnl)).toBeLessThan(1e-6 * deposit);
          expect(a.breakEven! / price).toBeCloseTo(1, 9);
          // A short: deposit USDC, borrow base, sell it for USDC.
          const short: Holdings = { base: 0, quote: deposit + borrowed, debtBase: borrowed / price, debtQuote: 0 };
          expect(Math.abs(breakEvenOf(short, { base: price, quote: 1 }, deposit).pnl)).toBeLessThan(1e-6 * deposit);
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

describe('the price that liquidates (worked examples)', () => {
  const L = DEFAULT_LIQUIDATION_RATIO;
  it('a long: 1,000 SUI at $3.00 against 2,400 USDC of debt', () => {
    // Ratio 3000 / 2400 = 1.25. Liquidation at 1.125 needs assets of 2700: SUI at $2.70, a 10% fall.
    const h: Holdings = { base: 1000, quote: 0, debtBase: 0, debtQuote: 2400 };
    expect(valueAt(h, { base: 3, quote: 1 }).ratio).toBeCloseTo(1.25, 12);
    expect(priceAtRatio(h, 1, L)).toBeCloseTo(2.7, 12);
    expect(movePct(3, priceAtRatio(h, 1, L))).toBeCloseTo(-10, 10);
    expect(sideOf(h)).toBe('long');
  });

  it('a long with USDC collateral beside it needs a larger fall', () => {
    // 1000 SUI at $3 + 600 USDC = 3600 vs 3000 debt: ratio 1.2; at 1.125 assets are 3375: SUI at 2.775 (-7.5%).
    const h: Holdings = { base: 1000, quote: 600, debtBase: 0, debtQuote: 3000 };
    expect(valueAt(h, { base: 3, quote: 1 }).ratio).toBeCloseTo(1.2, 12);
    expect(movePct(3, priceAtRatio(h, 1, L))).toBeCloseTo(-7.5, 10);
  });

  it('a short: 3,750 USDC against 1,000 SUI of debt at $3.00', () => {
    // Ratio 3750 / 3000 = 1.25; at 1.125, 3750 = 1.125 * 1000 * P: P = 3.3333, a rise of 11.11%.
    const h: Holdings = { base: 0, quote: 3750, debtBase: 1000, debtQuote: 0 };
    expect(valueAt(h, { base: 3, quote: 1 }).ratio).toBeCloseTo(1.25, 12);
    expect(priceAtRatio(h, 1, L)).toBeCloseTo(3.333333, 5);
    expect(movePct(3, priceAtRatio(h, 1, L))).toBeCloseTo(11.111111, 5);
    expect(sideOf(h)).toBe('short');
  });

  it('no debt or no exposure to the base price: no liquidation price', () => {
    expect(priceAtRatio({ base: 10, quote: 0, debtBase: 0, debtQuote: 0 }, 1, L)).toBeNull();
    expect(priceAtRatio({ base: 0, quote: 100, debtBase: 0, debtQuote: 50 }, 1, L)).toBeNull();
  });
});
