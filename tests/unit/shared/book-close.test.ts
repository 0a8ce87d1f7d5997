import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  fillQuote,
  reduceOnlyCloseFor,
  reduceOnlyCloseOnBook,
  valueAt,
  type BookLevel,
  type Holdings,
  type PricePair,
} from '../../../src/shared/risk-model';
import { positionArb } from '../../support/positions';

/** Trading `s` base on `levels` and repaying with it, by hand: what the trader's exchange does. */
function tradeByHand(h: Holdings, levels: readonly BookLevel[], s: number): Holdings {
  let left = s;
  let q = 0;
  for (const l of levels) {
    const take = Math.min(left, l.quantity);
    q += take * l.price;
    left -= take;
  }
  if (h.debtQuote > 0)
    return {
      ...h,
      base: h.base - s,
      debtQuote: Math.max(0, h.debtQuote - q),
      quote: h.quote + Math.max(0, q - h.debtQuote),
    };
  return {
    ...h,
    quote: h.quote - q,
    debtBase: Math.max(0, h.debtBase - s),
    base: h.base + Math.max(0, s - h.debtBase),
  };
}

describe('the reduce-only close against the book', () => {
  const p: PricePair = { base: 2.5, quote: 1 };
  // The long of protocol-rules.test.ts: 1,000 SUI and 200 USDC against 2,300 USDC (1.174); at the
  // oracle's $2.50 it sells 280 SUI for 700 USDC to reach 1.250.
  const long: Holdings = { base: 1000, quote: 200, debtBase: 0, debtQuote: 2300 };

  it('fills level by level, and says nothing past the levels given', () => {
    const bids = [
      { price: 2.5, quantity: 100 },
      { price: 2.4, quantity: 100 },
    ];
    expect(fillQuote(bids, 150)).toBeCloseTo(250 + 120, 9);
    expect(fillQuote(bids, 201)).toBeNull();
  });

  it('sells more than at the oracle price where the bids are below it, and reaches the target as written', () => {
    // 100 SUI at each of $2.48, $2.45, $2.40, $2.30: 280 SUI fetch 248 + 245 + 192 = 685 USDC, short of the 700.
    const bids = [2.48, 2.45, 2.4, 2.3].map((price) => ({ price, quantity: 100 }));
    const oracle = reduceOnlyCloseFor(long, p, 1.25, 4)!;
    expect(valueAt(tradeByHand(long, bids, oracle.amount), p).ratio!).toBeLessThan(1.25);
    const c = reduceOnlyCloseOnBook(long, p, 1.25, 4, bids)!;
    expect(c).toMatchObject({ trade: 'sell', reaches: true, depth: 400 });
    // 720 - s' SUI at $2.50 + 200 against 2,300 - fills: 1.25 at s = 289.4737 (the fourth level at $2.30).
    expect(c.amount).toBeGreaterThan(oracle.amount);
    expect(valueAt(tradeByHand(long, bids, c.amount), p).ratio!).toBeGreaterThanOrEqual(1.25);
    expect(valueAt(tradeByHand(long, bids, c.amount - 0.0001), p).ratio!).toBeLessThan(1.25);
    expect(c.average).toBeCloseTo(c.quote / c.amount, 12);
    expect(c.ratio_after).toBeCloseTo(valueAt(tradeByHand(long, bids, c.amount), p).ratio!, 12);
  });

  it('says when the book shown cannot take enough, and what the most it takes reaches', () => {
    const thin = [{ price: 2.45, quantity: 50 }];
    const c = reduceOnlyCloseOnBook(long, p, 1.25, 4, thin)!;
    expect(c).toMatchObject({ reaches: false, amount: 50, depth: 50 });
    expect(c.ratio_after).toBeCloseTo(valueAt(tradeByHand(long, thin, 50), p).ratio!, 12);
    expect(reduceOnlyCloseOnBook(long, p, 1.25, 4, [])).toBeNull();
  });

  it('executed as written on a random book, reaches the target; one unit less does not; never past the size or the debt', () => {
    const book = fc.array(
      fc.record({
        step: fc.double({ min: 0.0001, max: 0.03, noNaN: true }),
        quantity: fc.double({ min: 1, max: 5_000, noNaN: true }),
      }),
      { minLength: 1, maxLength: 20 },
    );
    fc.assert(
      fc.property(positionArb, fc.double({ min: 1.15, max: 2.5, noNaN: true }), book, (pos, target, steps) => {
        const h = pos.holdings;
        const prices = pos.prices!;
        const now = valueAt(h, prices).ratio;
        if (now === null || now >= target || now <= 1) return;
        const isLong = h.base - h.debtBase > 0 && h.debtQuote > 0 && h.debtBase <= 0;
        const isShort = h.debtBase - h.base > 0 && h.debtBase > 0 && h.debtQuote <= 0;
        if (!isLong && !isShort) return;
        // Levels walking away from the oracle's cross price: bids down for a long, asks up for a short.
        const cross = prices.base / prices.quote;
        let at = cross;
        const levels = steps.map((s) => ({
          price: (at = at * (isLong ? 1 - s.step : 1 + s.step)),
          quantity: s.quantity,
        }));
        const c = reduceOnlyCloseOnBook(h, prices, target, 4, levels);
        expect(c).not.toBeNull();
        const close = c!;
        const after = tradeByHand(h, levels, close.amount);
        expect(after.base).toBeGreaterThanOrEqual(-1e-9);
        expect(after.quote).toBeGreaterThanOrEqual(-1e-6 * Math.max(1, h.quote));
        if (isLong) expect(close.amount).toBeLessThanOrEqual(h.base - h.debtBase + 1e-9);
        else expect(close.amount).toBeLessThanOrEqual(h.debtBase - h.base + 1e-9);
        const r = valueAt(after, prices).ratio;
        if (close.reaches) {
          expect(r === null || r >= target - 1e-9).toBe(true);
          const less = close.amount - 0.0001;
          if (less > 0 && close.amount === Math.ceil(close.exact * 1e4) / 1e4) {
            const r2 = valueAt(tradeByHand(h, levels, less), prices).ratio;
            expect(r2 !== null && r2 < target + 1e-9).toBe(true);
          }
        } else expect(r === null ? Infinity : r).toBeLessThan(target + 1e-9);
      }),
      { numRuns: 1_000 },
    );
  });
});
