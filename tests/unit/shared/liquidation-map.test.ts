import { describe, expect, it } from 'vitest';
import {
  bucketsOf,
  bucketWidth,
  cascadeAt,
  clustersOf,
  liquidatedBetween,
  mapEntryOf,
  mapReach,
  type BookLevel,
  type Holdings,
  type LiquidationParams,
  type MapEntry,
} from '../../../src/shared/risk-model';

/** The protocol's defaults: liquidated at 1.125, back to 1.25, rewards 1 % + 4 % (bonus 1.05). */
const PARAMS: LiquidationParams = {
  liquidation: 1.125,
  target_liquidation: 1.25,
  user_reward: 0.01,
  pool_reward: 0.04,
};

const long = (base: number, debtQuote: number): Holdings => ({ base, quote: 0, debtBase: 0, debtQuote });
const short = (quote: number, debtBase: number): Holdings => ({ base: 0, quote, debtBase, debtQuote: 0 });

/*
 * The loans, by hand. A long holding only base b and owing quote dq is liquidated where
 * b P = 1.125 dq, so P* = 1.125 dq / b. There A = 1.125 D, and the protocol repays
 * (T D - A) / (T - 1.05) = (1.25 - 1.125) D / 0.2 = 0.625 D, seizing 1.05 x that = 0.65625 D of
 * assets: 0.65625 / 1.125 = 7/12 of its base, all sold into the bids.
 *
 *   A: b 120, dq 288    P* = 1.125 x 288 / 120   = 2.70   repays 180    sells 70 base
 *   B: b 120, dq 284.8  P* = 1.125 x 284.8 / 120 = 2.67   repays 178    sells 70
 *   C: b 240, dq 480    P* = 1.125 x 480 / 240   = 2.25   repays 300    sells 140
 *
 * A short holding only quote q and owing base db is liquidated where q = 1.125 db P, so
 * P* = q / (1.125 db); it repays 0.625 D = 0.625 db P* (quote units), that is 0.625 db of base,
 * bought from the asks (it holds no base to seize).
 *
 *   D: q 594,   db 160     P* = 594 / 180   = 3.30   repays 330    buys 100 base
 *   E: q 300.6, db 80      P* = 300.6 / 90  = 3.34   repays 167    buys 50
 */
const entries: MapEntry[] = [
  mapEntryOf('A', long(120, 288), PARAMS)!,
  mapEntryOf('B', long(120, 284.8), PARAMS)!,
  mapEntryOf('C', long(240, 480), PARAMS, true)!,
  mapEntryOf('D', short(594, 160), PARAMS)!,
  mapEntryOf('E', short(300.6, 80), PARAMS)!,
];

/** The book at the snapshot: bids from 2.99 down to 2.60, asks from 3.01 up to 3.40. */
const BIDS: BookLevel[] = [
  { price: 2.99, quantity: 50 },
  { price: 2.8, quantity: 40 },
  { price: 2.69, quantity: 30 },
  { price: 2.66, quantity: 50 },
  { price: 2.6, quantity: 100 },
];
const ASKS: BookLevel[] = [
  { price: 3.01, quantity: 20 },
  { price: 3.32, quantity: 40 },
  { price: 3.34, quantity: 60 },
  { price: 3.4, quantity: 100 },
];

describe('the liquidation map', () => {
  it('places each manager at its liquidation price with what its liquidation repays and trades', () => {
    const [a, b, c, d, e] = entries;
    expect(a).toMatchObject({ side: 'long', own: false });
    expect(a!.price).toBeCloseTo(2.7, 12);
    expect(a!.debt).toBeCloseTo(288, 9);
    expect(a!.repay).toBeCloseTo(180, 9);
    expect(a!.base).toBeCloseTo(70, 9);
    expect(b!.price).toBeCloseTo(2.67, 12);
    expect(b!.repay).toBeCloseTo(178, 9);
    expect(c).toMatchObject({ own: true });
    expect(c!.price).toBeCloseTo(2.25, 12);
    expect(c!.base).toBeCloseTo(140, 9);
    expect(d).toMatchObject({ side: 'short' });
    expect(d!.price).toBeCloseTo(3.3, 12);
    expect(d!.debt).toBeCloseTo(528, 9);
    expect(d!.repay).toBeCloseTo(330, 9);
    expect(d!.base).toBeCloseTo(100, 9);
    expect(e!.price).toBeCloseTo(3.34, 12);
    expect(e!.repay).toBeCloseTo(167, 9);
    expect(e!.base).toBeCloseTo(50, 9);
    // No debt, or nothing to liquidate: no entry.
    expect(mapEntryOf('F', { base: 10, quote: 0, debtBase: 0, debtQuote: 0 }, PARAMS)).toBeNull();
  });

  it('walks a fall through the book, each fill setting off the liquidations it reaches', () => {
    /*
     * A fall to 2.70 takes the bids at 2.99 and 2.80 and sets off A (2.70): 70 to sell.
     *   2.69: 30 sold, 40 left; 2.69 reaches no one (B is at 2.67).
     *   2.66: 40 sold (10 of the level left); 2.66 reaches B: 70 more.
     *   2.66: the 10 left, 60 to sell;  2.60: 60 sold, 40 of the level left. C (2.25) is far.
     * Two liquidated (B on the way), 180 + 178 = 358 repaid, 140 base sold, absorbed at 2.60.
     */
    const fall = cascadeAt(entries, BIDS, 2.7, 'down');
    expect(fall).toMatchObject({ liquidated: 2, onTheWay: 1, beyondBook: false, exhausted: false });
    expect(fall.repay).toBeCloseTo(358, 9);
    expect(fall.base).toBeCloseTo(140, 9);
    expect(fall.priceAfter).toBeCloseTo(2.6, 12);
  });

  it("goes on past the book's levels at their average depth, as far again as they span", () => {
    /*
     * A fall to 2.50 (below the book's last bid, 2.60) takes every shown bid and sets off A and B:
     * 140 to sell. Beyond the shown levels the book is assumed as deep as they are on average:
     * 270 base over 5 levels = 54 a level, one level every (2.99 - 2.60) / 4 = 0.0975, from the
     * trigger down, 5 levels at most (as many as shown): 2.50, 2.4025, 2.305, 2.2075, 2.11.
     *   2.50: 54 (86 left);  2.4025: 54 (32 left);  2.305: 32 sold, 22 of the level left.
     *   2.305 reaches no one (C is at 2.25).
     * Two liquidated, 358 repaid, 140 base, absorbed at 2.305: on assumed depth (beyondBook).
     */
    const fall = cascadeAt(entries, BIDS, 2.5, 'down');
    expect(fall).toMatchObject({ liquidated: 2, onTheWay: 0, beyondBook: true, exhausted: false, levels: 5 });
    expect(fall.repay).toBeCloseTo(358, 9);
    expect(fall.base).toBeCloseTo(140, 9);
    expect(fall.priceAfter).toBeCloseTo(2.305, 9);
    expect(fall.lastLevel).toBeCloseTo(2.6, 12);
    // The move went past the book: the assumed depth starts at the trigger, not past 2.60.
    expect(fall.assumedFrom).toBeCloseTo(2.5, 9);
  });

  it('stops where the assumed depth ends instead of making up a price', () => {
    /*
     * A fall to 2.40: every shown bid taken, A and B set off, 140 to sell. The assumed levels,
     * 54 each, 5 at most: 2.40, 2.3025, 2.205, 2.1075, 2.01.
     *   2.40: 54 (86 left);  2.3025: 54 (32 left);  2.205: 32 sold, 22 of the level left.
     *   2.205 reaches C (2.25): 140 more.  2.205: 22 (118 left);  2.1075: 54 (64 left);
     *   2.01: 54 (10 left), and the 5 assumed levels are spent: 10 unabsorbed.
     * Three liquidated (C on the way), 658 repaid, 280 base; exhausted at 2.01. Unbounded, the
     * walk went on to 1.9125; on DEEP it ended at 5 times the price.
     */
    const fall = cascadeAt(entries, BIDS, 2.4, 'down');
    expect(fall).toMatchObject({ liquidated: 3, onTheWay: 1, beyondBook: true, exhausted: true });
    expect(fall.repay).toBeCloseTo(658, 9);
    expect(fall.base).toBeCloseTo(280, 9);
    expect(fall.priceAfter).toBeCloseTo(2.01, 9);
    expect(fall.assumedFrom).toBeCloseTo(2.4, 9);
  });

  it('walks a rise through the asks, the shorts buying back what they owe', () => {
    /*
     * A rise to 3.30 takes the ask at 3.01 and sets off D (3.30): 100 to buy.
     *   3.32: 40 (60 left);  3.34: 60, the level gone; 3.34 reaches E: 50 more.
     *   3.40: 50 bought, 50 of the level left.
     * Two liquidated (E on the way), 330 + 167 = 497 repaid, 150 base bought, absorbed at 3.40.
     */
    const rise = cascadeAt(entries, ASKS, 3.3, 'up');
    expect(rise).toMatchObject({ liquidated: 2, onTheWay: 1, beyondBook: false, exhausted: false });
    expect(rise.repay).toBeCloseTo(497, 9);
    expect(rise.base).toBeCloseTo(150, 9);
    expect(rise.priceAfter).toBeCloseTo(3.4, 12);
  });

  it('sets off nothing where no liquidation price is reached, and says when the book runs out', () => {
    const calm = cascadeAt(entries, BIDS, 2.75, 'down');
    expect(calm).toMatchObject({ liquidated: 0, repay: 0, priceAfter: 2.75, beyondBook: false });
    // One level and nothing to assume beyond it: 70 to sell into 30.
    const thin = cascadeAt(entries, [{ price: 2.69, quantity: 30 }], 2.7, 'down');
    expect(thin).toMatchObject({ liquidated: 1, exhausted: true, priceAfter: 2.69 });
  });

  it('buckets the entries by price and finds where each side gathers', () => {
    expect(bucketWidth(3, 0.001)).toBeCloseTo(0.015, 12);
    expect(bucketWidth(3, 0.1)).toBeCloseTo(0.1, 12);
    const buckets = bucketsOf(entries, 0.1);
    // 2.2 to 3.4 in tenths: 12 buckets, the empty ones between kept.
    expect(buckets).toHaveLength(12);
    expect(buckets[0]).toMatchObject({ long: { count: 1 }, own: ['C'] });
    expect(buckets[0]!.low).toBeCloseTo(2.2, 12);
    // A bucket holds [low, high): A (2.70) opens 2.7-2.8, B (2.67) is in 2.6-2.7.
    const at = (low: number) => buckets.find((b) => Math.abs(b.low - low) < 1e-9)!;
    expect(at(2.6).long).toMatchObject({ count: 1, repay: expect.closeTo(178, 9) });
    expect(at(2.7).long).toMatchObject({ count: 1, repay: expect.closeTo(180, 9) });
    /*
     * Longs span 2.2 to 2.8 (6 buckets), 658 repaid: an average of 109.7 a bucket. 2.6-2.7 (178)
     * and 2.7-2.8 (180) are both above it and adjacent: one cluster of 358; 2.2-2.3 holds 300 but
     * one position only: not a crowd. Shorts: D and E both in 3.3-3.4, a cluster of 497.
     */
    const clusters = clustersOf(buckets);
    expect(clusters.map((c) => [c.side, c.count, Math.round(c.repay)])).toEqual([
      ['short', 2, 497],
      ['long', 2, 358],
    ]);
  });

  /**
   * A SUI-like crowd (the trader's review): the price at 3.20, 3 longs at 2.95 ($75K), 69 longs
   * 2.55–2.7132 ($3,827,362, the largest cluster), 72 longs $3,902,362 in all; 10 shorts 3.30–3.48.
   */
  const crowd = (last: number, far: { low: number; high: number; n: number; repay: number }): MapEntry[] => [
    ...Array.from({ length: 3 }, (_, i) => ({
      manager_id: `N${i}`,
      side: 'long' as const,
      price: last * 0.922,
      debt: 0,
      repay: 25_000,
      base: 0,
      own: false,
    })),
    ...Array.from({ length: far.n }, (_, i) => ({
      manager_id: `F${i}`,
      side: 'long' as const,
      price: far.low + (i * (far.high - far.low)) / (far.n - 1),
      debt: 0,
      repay: far.repay / far.n,
      base: 0,
      own: false,
    })),
    ...Array.from({ length: 10 }, (_, i) => ({
      manager_id: `S${i}`,
      side: 'short' as const,
      price: last * (1.03 + i * 0.006),
      debt: 0,
      repay: 4_000,
      base: 0,
      own: false,
    })),
  ];

  it('reaches where most of each side would repay, and its largest cluster, within 35 % of the price', () => {
    const entries = crowd(3.2, { low: 2.55, high: 2.7132, n: 69, repay: 3_827_362 });
    const buckets = bucketsOf(entries, bucketWidth(3.2, 0.001));
    const clusters = clustersOf(buckets);
    const [low, high] = mapReach(buckets, clusters, 3.2);
    // The crowd 2.55–2.7132 whole (-20 %), not only the nearest longs at 2.95.
    expect(low).toBeLessThanOrEqual(2.55);
    // Shorts: 9 of the 10 (85 %), to 3.2 × 1.078.
    expect(high).toBeGreaterThanOrEqual(3.2 * 1.078);
    const longs = entries.filter((e) => e.side === 'long');
    const inside = longs.filter((e) => e.price >= low!).reduce((a, e) => a + e.repay, 0);
    expect(inside / longs.reduce((a, e) => a + e.repay, 0)).toBeGreaterThanOrEqual(0.85);
    // DEEP after a drop: the shorts 18–30 % above the price, each side's value reached.
    const deep = crowd(0.17, { low: 0.12, high: 0.14, n: 20, repay: 200_000 }).map((e) =>
      e.side === 'short' ? { ...e, price: e.price * 1.15 } : e,
    );
    const deepBuckets = bucketsOf(deep, bucketWidth(0.17, 0.00001));
    const [, deepHigh] = mapReach(deepBuckets, clustersOf(deepBuckets), 0.17);
    const shorts = deep.filter((e) => e.side === 'short').map((e) => e.price);
    expect(shorts.filter((p) => p <= deepHigh!).length / shorts.length).toBeGreaterThanOrEqual(0.85);
    expect(Math.min(...shorts) / 0.17).toBeGreaterThan(1.18);
    // Never past 35 % of the price: a crowd at -50 % is left off (the band counts it), the candles stay readable.
    const far = crowd(3.2, { low: 1.5, high: 1.7, n: 69, repay: 3_827_362 });
    const farBuckets = bucketsOf(far, bucketWidth(3.2, 0.001));
    const [farLow] = mapReach(farBuckets, clustersOf(farBuckets), 3.2);
    expect(farLow).toBeCloseTo(3.2 * 0.65, 9);
    expect(mapReach(buckets, clusters, null)).toEqual([]);
    expect(mapReach([], [], 3.2)).toEqual([]);
  });

  it("counts the others liquidated between a position's price and its liquidation price", () => {
    // C, long at 3.00 now with its liquidation at 2.25: A and B lie between, 358 to repay.
    expect(liquidatedBetween(entries, 'long', 3, 2.25, 'C')).toEqual({ count: 2, repay: expect.closeTo(358, 9) });
    expect(liquidatedBetween(entries, 'short', 3, 3.3, 'D')).toEqual({ count: 0, repay: 0 });
  });
});
