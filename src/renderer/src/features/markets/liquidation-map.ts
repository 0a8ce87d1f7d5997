import type { Pool } from '../../../../shared/api';
import type { LiquidationMapView } from '../../../../shared/contract';
import { cascadeAt, isStable, type BookLevel, type Cascade, type MapCluster } from '../../../../shared/risk-model';
import { amount, count, price, usd } from '../../format';
import type { DepthView } from './depth';

/** A cascade estimate as the pool page lists it: the walk, and the sentence that says it. */
export interface CascadeRow {
  cascade: Cascade;
  cluster: MapCluster;
  text: string;
}

/** Every trader's liquidations are market data, as the book is: never masked. */
const PUBLIC = { private: false };

/** Money of the pool's quote: dollars for a stablecoin, else the quote asset's amount. */
export function quoteMoney(value: number, pool: Pool): string {
  return isStable(pool.quote_asset_symbol) ? usd(value, PUBLIC) : amount(value, pool.quote_asset_symbol, PUBLIC);
}

/**
 * The cascade from each of the nearest clusters either side of the price now (at most `perSide`):
 * a move to the cluster's nearest edge (its first liquidation price), walked through the book the
 * page shows (docs/valuation.md "The cascade estimate").
 */
export function cascadeRows(
  view: LiquidationMapView,
  book: DepthView | undefined,
  last: number | null,
  pool: Pool,
  priceDecimals: number,
  perSide = 2,
): CascadeRow[] {
  if (!book || last === null) return [];
  const levels = (side: DepthView['bids']): BookLevel[] => side.map((l) => ({ price: l.price, quantity: l.quantity }));
  const rows: CascadeRow[] = [];
  for (const side of ['long', 'short'] as const) {
    const down = side === 'long';
    const near = view.clusters
      .filter((c) => c.side === side && (down ? c.low < last : c.high > last))
      .sort((a, b) => (down ? b.high - a.high : a.low - b.low))
      .slice(0, perSide);
    for (const cluster of near) {
      // A bucket's edges are multiples of its width in floating point: a price on an edge may sit a hair below it.
      const eps = (cluster.high - cluster.low) * 1e-9;
      const inside = view.entries.filter(
        (e) => e.side === side && e.price >= cluster.low - eps && e.price < cluster.high - eps,
      );
      const edge = down ? Math.max(...inside.map((e) => e.price)) : Math.min(...inside.map((e) => e.price));
      const trigger = down ? Math.min(edge, last) : Math.max(edge, last);
      const cascade = cascadeAt(view.entries, levels(down ? book.bids : book.asks), trigger, down ? 'down' : 'up');
      rows.push({ cascade, cluster, text: cascadeText(cascade, pool, priceDecimals) });
    }
  }
  return rows;
}

/** "A fall to 2.7216 liquidates 11 longs, $268,594 to repay; they sell 95,412.0000 SUI, which the book absorbs down to 2.6950." */
export function cascadeText(c: Cascade, pool: Pool, pd: number): string {
  const down = c.direction === 'down';
  const who = down ? (c.liquidated === 1 ? 'long' : 'longs') : c.liquidated === 1 ? 'short' : 'shorts';
  const move = `A ${down ? 'fall' : 'rise'} to ${price(c.trigger, pd)}`;
  if (c.liquidated === 0) return `${move} liquidates no ${who}.`;
  const trade = down ? 'sell' : 'buy back';
  const base = amount(c.base, pool.base_asset_symbol, PUBLIC);
  const end = c.exhausted
    ? `more than the book holds: it runs out at ${price(c.priceAfter, pd)}`
    : `which the book absorbs ${down ? 'down' : 'up'} to ${price(c.priceAfter, pd)}`;
  const onTheWay = c.onTheWay > 0 ? ` (${count(c.onTheWay, PUBLIC)} of them set off on the way)` : '';
  return `${move} liquidates ${count(c.liquidated, PUBLIC)} ${who}${onTheWay}, ${quoteMoney(c.repay, pool)} to repay; they ${trade} ${base}, ${end}.`;
}
