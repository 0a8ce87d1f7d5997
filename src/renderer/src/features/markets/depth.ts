import type { Depth, Pool } from '../../../../shared/api';
import { baseQuantity, humanPrice } from '../../../../shared/units';

export interface LadderLevel {
  price: number;
  quantity: number;
  orders: number;
  /** Cumulative base quantity from the best price outwards. */
  total: number;
}

export interface DepthView {
  bids: LadderLevel[];
  asks: LadderLevel[];
  mid: number | null;
  spread: number | null;
  spreadPct: number | null;
}

/** The ladder's rows a side (DepthLadder.vue); the depth chart and the cascade walk take every level read. */
export const LADDER_ROWS = 10;

/** A depth snapshot in human units, with cumulative sizes for the depth chart. */
export function aggregateDepth(depth: Depth, pool: Pool): DepthView {
  const side = (levels: Depth['bids']): LadderLevel[] => {
    let total = 0;
    return levels.map((l) => {
      const quantity = baseQuantity(l.total_quantity, pool);
      total += quantity;
      return { price: humanPrice(l.price, pool), quantity, orders: l.order_count, total };
    });
  };
  const bids = side([...depth.bids].sort((a, b) => b.price - a.price));
  const asks = side([...depth.asks].sort((a, b) => a.price - b.price));
  const bestBid = bids[0]?.price;
  const bestAsk = asks[0]?.price;
  const mid = bestBid !== undefined && bestAsk !== undefined ? (bestBid + bestAsk) / 2 : null;
  const spread = bestBid !== undefined && bestAsk !== undefined ? bestAsk - bestBid : null;
  return { bids, asks, mid, spread, spreadPct: mid && spread !== null ? (spread / mid) * 100 : null };
}

/**
 * The mid of a book: halfway between the best bid and the best ask, or the one side's best while
 * the other is empty; null for an empty book. The page's header, its ladder and its depth chart
 * all show it, from the same book (PoolView.vue's `book`).
 */
export function midOf(view: DepthView): number | null {
  return view.mid ?? view.bids[0]?.price ?? view.asks[0]?.price ?? null;
}

/** The depth chart's two step series: [price, cumulative size], bids ascending in price. */
export function depthSeries(view: DepthView): { bids: Array<[number, number]>; asks: Array<[number, number]> } {
  return {
    bids: [...view.bids].reverse().map((l) => [l.price, l.total]),
    asks: view.asks.map((l) => [l.price, l.total]),
  };
}

/**
 * Half the width of a depth chart centred on the mid: far enough either side to show 95 % of
 * the larger book's size, so one stray order far away does not squash the book into a line.
 */
export function depthHalfRange(view: DepthView): number {
  const mid = midOf(view) ?? 0;
  const reach = (levels: readonly LadderLevel[]): number => {
    const total = levels[levels.length - 1]?.total ?? 0;
    const level = levels.find((l) => l.total >= total * 0.95) ?? levels[levels.length - 1];
    return level ? Math.abs(level.price - mid) : 0;
  };
  return Math.max(reach(view.bids), reach(view.asks), mid * 0.001) * 1.1;
}
