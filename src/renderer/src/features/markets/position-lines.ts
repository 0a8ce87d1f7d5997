import type { PositionSummary } from '../../../../shared/contract';

/**
 * The watched positions of one pool as lines on its price chart, as trading terminals draw
 * them: each one's liquidation price and break-even price (not an entry: the service reports
 * no fills, docs/valuation.md), in the pool's quote units (a position's prices are USD: divided
 * by the quote's USD price in the same valuation).
 */
export interface PositionLine {
  manager_id: string;
  kind: 'liquidation' | 'break-even';
  /** In quote units of the pool. */
  price: number;
  side: PositionSummary['side'];
  /** The position's distance to its liquidation price, as the Portfolio shows it (from the valuation's price). */
  distance: number | null;
  /** A break-even line's last move by a liquidation (ms); null otherwise. */
  movedAt: number | null;
}

/** A manager's short tag on a chart: "0x7c36…de". */
export const lineTag = (id: string): string => (id.length > 10 ? `${id.slice(0, 6)}…${id.slice(-2)}` : id);

export function positionLines(positions: Iterable<PositionSummary>, poolName: string): PositionLine[] {
  const lines: PositionLine[] = [];
  for (const p of positions) {
    const quoteUsd = p.quote_price?.usd;
    if (p.pool_name !== poolName || !quoteUsd || !(quoteUsd > 0)) continue;
    if (p.liquidation_price !== null)
      lines.push({
        manager_id: p.manager_id,
        kind: 'liquidation',
        price: p.liquidation_price / quoteUsd,
        side: p.side,
        distance: p.distance_pct,
        movedAt: null,
      });
    if (p.pnl.break_even_price !== null && p.debts.length > 0)
      lines.push({
        manager_id: p.manager_id,
        kind: 'break-even',
        price: p.pnl.break_even_price / quoteUsd,
        side: p.side,
        distance: null,
        movedAt: p.pnl.break_even_moved_at,
      });
  }
  return lines;
}
