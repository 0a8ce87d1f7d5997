/**
 * The liquidation map of a pool and the cascade estimate (docs/valuation.md "The liquidation map"):
 * where every manager of the pool would be liquidated, what that liquidation repays and trades,
 * where they gather, and what a walk of the price through them does against the book. Pure
 * functions, in the pool's quote units (a price is quote per base, as the pool's page writes it),
 * so the core builds the map and the page walks it with the book it shows.
 */
import { liquidationAt, type LiquidationParams } from './repair';
import { priceAtRatio, sideOf, type Holdings, type Side } from './valuation';

/** One manager's liquidation, in its pool's quote units. */
export interface MapEntry {
  manager_id: string;
  side: Side;
  /** The pool price at which its ratio meets the pool's liquidation ratio (quote per base). */
  price: number;
  /** Its debt, in quote units at that price. */
  debt: number;
  /** What its liquidation there repays (quote units): the protocol's rule, back to the target ratio. */
  repay: number;
  /**
   * Base the liquidation trades at market: a long's seized base, sold into the bids; a short's
   * debt repaid in base, bought from the asks (less any base seized with it).
   */
  base: number;
  /** One of the trader's own (watched) managers. */
  own: boolean;
}

/**
 * The entry of a manager holding `h` (human units, debts accrued), or null when it owes nothing,
 * has no side or no positive price liquidates it. The price is where the ratio meets the pool's
 * liquidation ratio with the quote held at 1 (valuation.ts `priceAtRatio`), so it is in quote
 * units; the liquidation there is the protocol's (repair.ts `liquidationAt`), which seizes the
 * repaid debt plus the rewards from both assets in proportion.
 */
export function mapEntryOf(managerId: string, h: Holdings, params: LiquidationParams, own = false): MapEntry | null {
  const side = sideOf(h);
  const price = priceAtRatio(h, 1, params.liquidation);
  if (side === null || price === null) return null;
  const out = liquidationAt(h, { base: price, quote: 1 }, params);
  if (!out) return null;
  const assets = h.base * price + h.quote;
  const seizedBase = assets > 0 ? h.base * Math.min(1, out.seized_usd / assets) : 0;
  const base = side === 'long' ? seizedBase : Math.max(0, out.repaid_usd / price - seizedBase);
  return {
    manager_id: managerId,
    side,
    price,
    debt: h.debtBase * price + h.debtQuote,
    repay: out.repaid_usd,
    base,
    own,
  };
}

/** A price bucket of the map: each side's liquidations whose price falls in [low, high). */
export interface MapBucket {
  low: number;
  high: number;
  long: SideSum;
  short: SideSum;
  /** The trader's own managers in it. */
  own: string[];
}

export interface SideSum {
  count: number;
  repay: number;
  base: number;
}

const emptySum = (): SideSum => ({ count: 0, repay: 0, base: 0 });

/** A bucket's width for a pool at `price`: about `share` of the price (0.5 %), a whole number of ticks. */
export function bucketWidth(price: number, tick: number, share = 0.005): number {
  if (!(tick > 0)) return price * share;
  return Math.max(1, Math.round((price * share) / tick)) * tick;
}

/** The index of the bucket of `price` (floor(price / width), guarded against a price a hair below a bucket's edge). */
const bucketIndex = (price: number, width: number): number => Math.floor(price / width + 1e-9);

/** The entries in buckets of `width`, lowest price first; empty buckets between two full ones are kept. */
export function bucketsOf(entries: readonly MapEntry[], width: number): MapBucket[] {
  if (entries.length === 0 || !(width > 0)) return [];
  const byIndex = new Map<number, MapBucket>();
  for (const e of entries) {
    const k = bucketIndex(e.price, width);
    let b = byIndex.get(k);
    if (!b) {
      b = { low: k * width, high: (k + 1) * width, long: emptySum(), short: emptySum(), own: [] };
      byIndex.set(k, b);
    }
    const s = b[e.side];
    s.count++;
    s.repay += e.repay;
    s.base += e.base;
    if (e.own) b.own.push(e.manager_id);
  }
  const keys = [...byIndex.keys()];
  const lo = Math.min(...keys);
  const hi = Math.max(...keys);
  const out: MapBucket[] = [];
  for (let k = lo; k <= hi; k++)
    out.push(byIndex.get(k) ?? { low: k * width, high: (k + 1) * width, long: emptySum(), short: emptySum(), own: [] });
  return out;
}

/** Where one side's liquidations gather: a run of adjacent buckets each at least as full as the side's average. */
export interface MapCluster {
  side: Side;
  low: number;
  high: number;
  count: number;
  repay: number;
  base: number;
}

/**
 * The clusters of each side, the largest (by what they repay) first. A side's average is its
 * repay over the buckets from its nearest to its farthest liquidation; a cluster is a run of
 * adjacent buckets each holding at least that, and at least two positions in all (one large
 * position is a position, not a crowd).
 */
export function clustersOf(buckets: readonly MapBucket[]): MapCluster[] {
  const out: MapCluster[] = [];
  for (const side of ['long', 'short'] as const) {
    const full = buckets.map((b, i) => ({ b, i })).filter(({ b }) => b[side].count > 0);
    if (full.length === 0) continue;
    const span = full[full.length - 1]!.i - full[0]!.i + 1;
    const average = full.reduce((a, { b }) => a + b[side].repay, 0) / span;
    let run: MapCluster | null = null;
    const close = (): void => {
      if (run && run.count >= 2) out.push(run);
      run = null;
    };
    for (const b of buckets) {
      const s = b[side];
      if (s.count === 0 || s.repay < average) {
        close();
        continue;
      }
      if (run === null) run = { side, low: b.low, high: b.high, count: 0, repay: 0, base: 0 };
      const r: MapCluster = run;
      r.high = b.high;
      r.count += s.count;
      r.repay += s.repay;
      r.base += s.base;
    }
    close();
  }
  return out.sort((a, b) => b.repay - a.repay);
}

/** One price level of a book side (human units: quote per base, base quantity), best first. */
export interface BookLevel {
  price: number;
  quantity: number;
}

/** What a move to `trigger` sets off, walked through the book (`cascadeAt`). */
export interface Cascade {
  direction: 'down' | 'up';
  /** The price the move reaches (every liquidation at it or beyond is set off). */
  trigger: number;
  /** Positions liquidated: at the trigger and on the way. */
  liquidated: number;
  /** Of them, set off by the liquidations' own trades (beyond the trigger). */
  onTheWay: number;
  /** Debt they repay (quote units). */
  repay: number;
  /** Base their liquidations trade (sold on a fall, bought on a rise). */
  base: number;
  /** The price of the last fill: where the book absorbs it. */
  priceAfter: number;
  /** The walk went past the levels the book shows, into the depth assumed beyond them. */
  beyondBook: boolean;
  /**
   * The book read and the depth assumed past it (at most as far again as the book read spans)
   * ran out before it was absorbed: priceAfter is then where they ran out, and the end is not
   * known from the book.
   */
  exhausted: boolean;
  /**
   * The first level of the depth assumed past the book read (null: the walk stayed within it): one
   * step past the last level read, or the trigger itself where the move went past the book.
   */
  assumedFrom: number | null;
  /** The levels of the side read (the walk's book), and the price of the last (null: none). */
  levels: number;
  lastLevel: number | null;
}

const EPS = 1e-12;

/**
 * The cascade after a move to `trigger` (docs/valuation.md "The cascade estimate"): every
 * position of the side the move hurts (longs on a fall, shorts on a rise) whose liquidation price
 * the move reaches is liquidated, and its base goes to market at once (sold into the bids, or
 * bought from the asks); the book is as `levels` shows it (one side, best first), less what lies
 * between the price and the trigger, which the move itself took; no order is added or pulled.
 * Each fill that reaches another liquidation price sets that one off too. Beyond the shown
 * levels the book is taken to go on as it is on average (the shown quantity spread evenly over
 * the shown span, at the same step), but only as far again as the shown levels span
 * (`assumeLevels` steps, as many as are shown): past that nothing is known, so the walk stops
 * there `exhausted` instead of making up a price. The walk ends where the trades are absorbed.
 */
export function cascadeAt(
  entries: readonly MapEntry[],
  levels: readonly BookLevel[],
  trigger: number,
  direction: 'down' | 'up',
  assumeLevels = levels.length,
): Cascade {
  const down = direction === 'down';
  const side: Side = down ? 'long' : 'short';
  // Nearest first: on a fall the highest liquidation price is reached first.
  const hurt = entries.filter((e) => e.side === side).sort((a, b) => (down ? b.price - a.price : a.price - b.price));
  const reached = (liq: number, price: number): boolean => (down ? liq >= price - EPS : liq <= price + EPS);
  const out: Cascade = {
    direction,
    trigger,
    liquidated: 0,
    onTheWay: 0,
    repay: 0,
    base: 0,
    priceAfter: trigger,
    beyondBook: false,
    exhausted: false,
    assumedFrom: null,
    levels: levels.length,
    lastLevel: levels.length > 0 ? levels[levels.length - 1]!.price : null,
  };
  let next = 0;
  let pending = 0;
  const setOff = (price: number, onTheWay: boolean): void => {
    while (next < hurt.length && reached(hurt[next]!.price, price)) {
      const e = hurt[next++]!;
      out.liquidated++;
      if (onTheWay) out.onTheWay++;
      out.repay += e.repay;
      out.base += e.base;
      pending += e.base;
    }
  };
  setOff(trigger, false);
  // The levels the move left: at the trigger or beyond it.
  const left = levels.filter((l) => (down ? l.price <= trigger + EPS : l.price >= trigger - EPS));
  const shown = levels.length;
  const step = shown >= 2 ? Math.abs(levels[shown - 1]!.price - levels[0]!.price) / (shown - 1) : 0;
  const assumedQty = shown > 0 ? levels.reduce((a, l) => a + l.quantity, 0) / shown : 0;
  const lastShown = shown > 0 ? levels[shown - 1]!.price : trigger;
  let k = 0;
  let assumed = 0;
  let level: BookLevel | null = null;
  const nextLevel = (): BookLevel | null => {
    if (k < left.length) return { ...left[k++]! };
    if (!(step > 0) || !(assumedQty > 0) || assumed >= assumeLevels) return null;
    // The assumed depth starts one step beyond the farther of the last shown level and the trigger.
    const from = down ? Math.min(lastShown, trigger + step) : Math.max(lastShown, trigger - step);
    assumed++;
    const price = down ? from - assumed * step : from + assumed * step;
    if (!(price > 0)) return null;
    out.beyondBook = true;
    out.assumedFrom ??= price;
    return { price, quantity: assumedQty };
  };
  while (pending > EPS) {
    level ??= nextLevel();
    if (!level) {
      out.exhausted = true;
      break;
    }
    const take = Math.min(pending, level.quantity);
    level.quantity -= take;
    pending -= take;
    out.priceAfter = level.price;
    if (level.quantity <= EPS) level = null;
    setOff(out.priceAfter, true);
  }
  return out;
}

/**
 * The other positions of `side` that are liquidated between `from` (the price now) and `to` (a
 * position's own liquidation price), both excluded beyond them: what a move toward that price
 * sets off before it gets there (the manager page's line).
 */
export function liquidatedBetween(
  entries: readonly MapEntry[],
  side: Side,
  from: number,
  to: number,
  except: string,
): { count: number; repay: number } {
  const lo = Math.min(from, to);
  const hi = Math.max(from, to);
  let count = 0;
  let repay = 0;
  for (const e of entries) {
    if (e.side !== side || e.manager_id === except || e.price < lo || e.price > hi) continue;
    count++;
    repay += e.repay;
  }
  return { count, repay };
}

/** How far the candle chart reaches for the map (`mapReach`): a share of each side's value, within a bound of the price. */
export interface ReachRule {
  /** The share of a side's repay the reach covers, nearest buckets first (0.85). */
  share: number;
  /** How far from the price it goes at most, a share of it (0.35): the candles stay readable. */
  bound: number;
}

export const MAP_REACH: ReachRule = { share: 0.85, bound: 0.35 };

/**
 * The prices the candle chart's axis reaches so that the band beside it shows where the money is,
 * as a heatmap does: on each side, the buckets nearest `last` (by their middle's distance) until
 * they hold `share` of what the side repays, and the side's largest cluster whole; each price
 * held within `bound` of `last` (what lies past it is counted off the band, not drawn). Lowest
 * first; empty with no price or no positions.
 */
export function mapReach(
  buckets: readonly MapBucket[],
  clusters: readonly MapCluster[],
  last: number | null,
  rule: ReachRule = MAP_REACH,
): number[] {
  if (last === null || !(last > 0)) return [];
  const lo = last * (1 - rule.bound);
  const hi = last * (1 + rule.bound);
  const held = (p: number): number => Math.min(hi, Math.max(lo, p));
  const out: number[] = [];
  for (const side of ['long', 'short'] as const) {
    const full = buckets.filter((b) => b[side].repay > 0);
    const total = full.reduce((a, b) => a + b[side].repay, 0);
    if (!(total > 0)) continue;
    const away = (b: MapBucket): number => Math.abs((b.low + b.high) / 2 - last);
    let sum = 0;
    for (const b of [...full].sort((a, c) => away(a) - away(c))) {
      out.push(held(b.low), held(b.high));
      sum += b[side].repay;
      if (sum >= rule.share * total - 1e-9 * total) break;
    }
    const largest = clusters.find((c) => c.side === side);
    if (largest) out.push(held(largest.low), held(largest.high));
  }
  return out.length === 0 ? [] : [Math.min(...out), Math.max(...out)];
}
