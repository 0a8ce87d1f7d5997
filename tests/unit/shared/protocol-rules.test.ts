import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  actionsAt,
  afterReduceOnlyClose,
  reduceOnlyCloseFor,
  repayFor,
  sizeOf,
  valueAt,
  type Holdings,
  type PricePair,
  type ProtocolRatios,
} from '../../../src/shared/risk-model';
import { positionArb } from '../../support/positions';

/** The protocol's defaults (docs/service.md) and the Demo network's WAL_USDC (src/sim/chain/assets.ts). */
const DEFAULTS: ProtocolRatios = { liquidation: 1.125, min_borrow: 1.25, min_withdraw: 2 };
const WAL: ProtocolRatios = { liquidation: 1.2, min_borrow: 1.35, min_withdraw: 2.2 };

/** Pool ratios as a pool may set them: liquidation below the minimum borrow, below the minimum withdraw. */
const ratiosArb = fc
  .record({
    liquidation: fc.double({ min: 1.05, max: 1.3, noNaN: true }),
    borrowGap: fc.double({ min: 0.01, max: 0.5, noNaN: true }),
    withdrawGap: fc.double({ min: 0, max: 1.5, noNaN: true }),
  })
  .map((r): ProtocolRatios => ({
    liquidation: r.liquidation,
    min_borrow: r.liquidation + r.borrowGap,
    min_withdraw: r.liquidation + r.borrowGap + r.withdrawGap,
  }));

/** Borrowing `x` USD of the asset owed, kept in the manager: assets and debt both rise by it. */
function borrowUsd(h: Holdings, p: PricePair, x: number): Holdings {
  return h.debtBase > 0
    ? { ...h, base: h.base + x / p.base, debtBase: h.debtBase + x / p.base }
    : { ...h, quote: h.quote + x / p.quote, debtQuote: h.debtQuote + x / p.quote };
}

/** Withdrawing a share of every asset held. */
const withdrawShare = (h: Holdings, s: number): Holdings => ({
  ...h,
  base: h.base * (1 - s),
  quote: h.quote * (1 - s),
});

/**
 * The reduce-only close done by hand: a long sells `s` base at P / Pq and repays the quote it
 * fetched; a short buys `s` base with quote and repays the base.
 */
function closeByHand(h: Holdings, p: PricePair, s: number): Holdings {
  const q = (s * p.base) / p.quote;
  return h.debtQuote > 0
    ? { base: h.base - s, quote: h.quote, debtBase: h.debtBase, debtQuote: h.debtQuote - q }
    : { base: h.base, quote: h.quote - q, debtBase: h.debtBase - s, debtQuote: h.debtQuote }; // bought, then repaid
}

describe('what the protocol allows at a ratio (docs/valuation.md "The danger band")', () => {
  it('sorts a ratio into its band on the default and the WAL_USDC parameters', () => {
    expect(actionsAt(null, DEFAULTS)).toEqual({
      band: 'free',
      deposit: true,
      repay: false,
      borrow: true,
      withdraw: true,
    });
    expect(actionsAt(2.4, DEFAULTS)).toMatchObject({ band: 'free', borrow: true, withdraw: true, repay: true });
    expect(actionsAt(1.6, DEFAULTS)).toMatchObject({ band: 'no-withdraw', borrow: true, withdraw: false });
    expect(actionsAt(1.25, DEFAULTS)).toMatchObject({ band: 'no-withdraw', borrow: true });
    expect(actionsAt(1.2499, DEFAULTS)).toMatchObject({ band: 'danger', borrow: false, withdraw: false });
    expect(actionsAt(1.125, DEFAULTS)).toMatchObject({ band: 'liquidatable', borrow: false, withdraw: false });
    // 1.3 is free of the default pool's band and inside WAL_USDC's (1.2 < 1.3 < 1.35).
    expect(actionsAt(1.3, DEFAULTS).band).toBe('no-withdraw');
    expect(actionsAt(1.3, WAL)).toMatchObject({ band: 'danger', borrow: false, withdraw: false, deposit: true });
  });

  it('allows a borrow exactly at or above the minimum borrow ratio, a withdrawal at or above the minimum withdraw; more at a higher ratio', () => {
    fc.assert(
      fc.property(
        ratiosArb,
        fc.double({ min: 0.5, max: 4, noNaN: true }),
        fc.double({ min: 0.5, max: 4, noNaN: true }),
        (r, a, b) => {
          const at = actionsAt(a, r);
          expect(at.borrow).toBe(a >= r.min_borrow);
          expect(at.withdraw).toBe(a >= r.min_withdraw);
          expect(at.deposit && at.repay).toBe(true);
          expect(at.band === 'danger').toBe(a > r.liquidation && a < r.min_borrow);
          expect(at.band === 'liquidatable').toBe(a <= r.liquidation);
          // Monotone: what is allowed at a ratio is allowed at any higher one.
          const [lo, hi] = a <= b ? [a, b] : [b, a];
          const low = actionsAt(lo, r);
          const high = actionsAt(hi, r);
          if (low.borrow) expect(high.borrow).toBe(true);
          if (low.withdraw) expect(high.withdraw).toBe(true);
        },
      ),
    );
  });

  it('below a minimum, every borrow or withdrawal of any size, executed on the holdings, leaves the ratio below it: refused; above it, a small one passes', () => {
    fc.assert(
      fc.property(
        positionArb,
        ratiosArb,
        fc.double({ min: 1e-6, max: 10, noNaN: true }),
        fc.double({ min: 1e-6, max: 0.99, noNaN: true }),
        (pos, r, borrowShare, withdrawn) => {
          const h = pos.holdings;
          const p = pos.prices!;
          const v = valueAt(h, p);
          const now = v.ratio!;
          const allowed = actionsAt(now, r);
          // The protocol's own checks, on the holdings after the trade.
          const borrowed = valueAt(borrowUsd(h, p, borrowShare * v.debt), p).ratio!;
          const afterWithdraw = valueAt(withdrawShare(h, withdrawn), p).ratio!;
          expect(borrowed).toBeLessThan(now);
          expect(afterWithdraw).toBeLessThan(now);
          if (!allowed.borrow) expect(borrowed).toBeLessThan(r.min_borrow);
          if (!allowed.withdraw) expect(afterWithdraw).toBeLessThan(r.min_withdraw);
          // Clear of a minimum, half the room to it is a borrow (a withdrawal) the check passes.
          if (now > r.min_borrow * (1 + 1e-9)) {
            const room = (v.assets - r.min_borrow * v.debt) / (r.min_borrow - 1);
            expect(valueAt(borrowUsd(h, p, room / 2), p).ratio!).toBeGreaterThanOrEqual(r.min_borrow);
          }
          if (now > r.min_withdraw * (1 + 1e-9)) {
            const share = (v.assets - r.min_withdraw * v.debt) / v.assets;
            expect(valueAt(withdrawShare(h, share / 2), p).ratio!).toBeGreaterThanOrEqual(r.min_withdraw);
          }
        },
      ),
    );
  });
});

describe('the reduce-only close to a target', () => {
  it('sells 280 SUI of a long in the band, or buys 280 SUI for a short, to reach 1.250', () => {
    const p = { base: 2.5, quote: 1 };
    // Long: 1,000 SUI and 200 USDC against 2,300 USDC: 2,700 / 2,300 = 1.174.
    // s = (1.25 x 2,300 - 2,700) / (0.25 x 2.5) = 175 / 0.625 = 280 SUI, for 700 USDC:
    // 720 SUI and 200 USDC against 1,600 USDC is 2,000 / 1,600 = 1.25.
    const long = { base: 1000, quote: 200, debtBase: 0, debtQuote: 2300 };
    const c = reduceOnlyCloseFor(long, p, 1.25, 4)!;
    expect(c).toMatchObject({ trade: 'sell', reaches: true });
    expect(c.exact).toBeCloseTo(280, 9);
    expect(c.amount).toBeCloseTo(280, 9);
    expect(c.quote).toBeCloseTo(700, 9);
    expect(c.usd).toBeCloseTo(700, 9);
    expect(c.ratio_after).toBeCloseTo(1.25, 12);
    expect(valueAt(closeByHand(long, p, 280), p).ratio).toBeCloseTo(1.25, 12);
    // Short: owes 1,000 SUI ($2,500), holds 2,950 USDC: 1.18. s = (3,125 - 2,950) / 0.625 = 280 SUI for 700 USDC:
    // 2,250 USDC against 720 SUI ($1,800) is 1.25.
    const short = { base: 0, quote: 2950, debtBase: 1000, debtQuote: 0 };
    const s = reduceOnlyCloseFor(short, p, 1.25, 4)!;
    expect(s).toMatchObject({ trade: 'buy', reaches: true });
    expect(s.amount).toBeCloseTo(280, 9);
    expect(s.quote).toBeCloseTo(700, 9);
    expect(afterReduceOnlyClose(short, p, 280)).toEqual({ base: 0, quote: 2250, debtBase: 720, debtQuote: 0 });
  });

  it('says when all it may sell does not reach the target, and what that reaches', () => {
    const p = { base: 2.5, quote: 1 };
    // 10 SUI ($25) and 2,675 USDC against 2,300 USDC: 1.174; it would need 280 SUI, holds 10.
    // Selling all 10: 2,675 / 2,275 = 1.1758.
    const h = { base: 10, quote: 2675, debtBase: 0, debtQuote: 2300 };
    const c = reduceOnlyCloseFor(h, p, 1.25, 4)!;
    expect(c.reaches).toBe(false);
    expect(c.amount).toBe(10);
    expect(c.ratio_after).toBeCloseTo(2675 / 2275, 12);
  });

  it('offers nothing at or above the target, at a ratio of 1 or below, or for a long that owes the base', () => {
    const p = { base: 2.5, quote: 1 };
    expect(reduceOnlyCloseFor({ base: 1000, quote: 0, debtBase: 0, debtQuote: 1000 }, p, 1.25, 4)).toBeNull();
    expect(reduceOnlyCloseFor({ base: 400, quote: 0, debtBase: 0, debtQuote: 1000 }, p, 1.25, 4)).toBeNull();
    // Holds 1,000 SUI, owes 450 SUI: long, repaid from its own SUI (repayFor), not by a trade.
    expect(reduceOnlyCloseFor({ base: 1000, quote: 0, debtBase: 900, debtQuote: 0 }, p, 1.25, 4)).toBeNull();
    expect(reduceOnlyCloseFor({ base: 1000, quote: 0, debtBase: 0, debtQuote: 0 }, p, 1.25, 4)).toBeNull();
  });

  it('executed on the holdings, reaches the target within 1e-9; rounded up it is there, one unit less is not; it never passes the size, the debt or what is held', () => {
    fc.assert(
      fc.property(positionArb, fc.double({ min: 1.15, max: 2.5, noNaN: true }), (pos, target) => {
        const h = pos.holdings;
        const p = pos.prices!;
        const now = valueAt(h, p).ratio!;
        const c = reduceOnlyCloseFor(h, p, target, 4);
        const long = sizeOf(h) > 0 && h.debtQuote > 0;
        const short = sizeOf(h) < 0 && h.debtBase > 0;
        if (now >= target || !(long || short)) {
          expect(c).toBeNull();
          return;
        }
        expect(c).not.toBeNull();
        const close = c!;
        expect(close.trade).toBe(long ? 'sell' : 'buy');
        const after = closeByHand(h, p, close.amount);
        expect(afterReduceOnlyClose(h, p, close.amount)).toEqual(after);
        // Reduce-only: the side stays, nothing held goes negative, no debt is overpaid.
        // (Traded to the whole size, what is left may be a float's speck either side of 0: 5e-324 SUI.)
        expect(close.amount).toBeLessThanOrEqual(Math.abs(sizeOf(h)));
        if (Math.abs(sizeOf(after)) > 1e-9 * Math.abs(sizeOf(h)))
          expect(Math.sign(sizeOf(after))).toBe(Math.sign(sizeOf(h)));
        for (const x of [after.base, after.quote, after.debtBase, after.debtQuote])
          expect(x).toBeGreaterThanOrEqual(-1e-9 * Math.max(h.base, h.quote, h.debtBase, h.debtQuote));
        if (!close.reaches) {
          expect(close.amount).toBeLessThan(close.exact);
          expect(close.ratio_after!).toBeLessThan(target);
          return;
        }
        // The same value as a repayment from its own balance: a trade that repays is one.
        const repay = repayFor(h, p, target, 12)!;
        const debtPrice = h.debtQuote > 0 ? p.quote : p.base;
        expect(close.exact * p.base).toBeCloseTo(repay.exact * debtPrice, 6);
        expect(Math.abs(valueAt(closeByHand(h, p, close.exact), p).ratio! / target - 1)).toBeLessThan(1e-9);
        // Rounded up, it is there: within the billionth of a unit that rounding takes as float dust
        // (rounding.ts), which on a $16 debt of 0.0002 SUI is 5e-10 of the ratio.
        // (Rounded up to the whole debt, nothing is owed after it: no ratio, nothing refused.)
        expect(close.ratio_after).toBe(valueAt(after, p).ratio);
        if (close.ratio_after !== null) expect(close.ratio_after).toBeGreaterThanOrEqual(target * (1 - 1e-9));
        // One unit less (0.0001 base) is below it, where such a unit is worth telling apart.
        const v = valueAt(h, p);
        if ((1e-4 * p.base) / v.debt > 1e-11 && close.amount > 1e-4)
          expect(valueAt(closeByHand(h, p, close.amount - 1e-4), p).ratio!).toBeLessThan(target);
      }),
    );
  });
});
