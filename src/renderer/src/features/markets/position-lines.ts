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

/** A watched position's lines as one row of the list under the chart. */
export interface PositionLineRow {
  id: string;
  /** "Long", "Short", or '' when the position has no side. */
  side: string;
  liquidation: number | null;
  breakEven: number | null;
  /** To the liquidation price, in percent (the valuation's, as the Portfolio shows it). */
  distance: number | null;
  /** The break-even line's last move by a liquidation (ms). */
  movedAt: number | null;
}

/** Lines within this share of the last price (15 %) widen the price axis to show them; the list says which are off the chart. */
export const LINE_RANGE = 0.15;
/** Rows listed before "All …": the nearest liquidations. */
export const LIST_FIRST = 4;

/** Whether a line's price is within `LINE_RANGE` of the last price (all are before there is one). */
export const withinReach = (price: number, last: number | null): boolean =>
  last === null || Math.abs(price / last - 1) <= LINE_RANGE;

/** One row per position, nearest liquidation first by the valuation's distance (the one the Portfolio shows). */
export function positionLineRows(lines: readonly PositionLine[]): PositionLineRow[] {
  const byManager = new Map<string, PositionLineRow>();
  for (const l of lines) {
    const row = byManager.get(l.manager_id) ?? {
      id: l.manager_id,
      side: l.side === 'long' ? 'Long' : l.side === 'short' ? 'Short' : '',
      liquidation: null,
      breakEven: null,
      distance: null,
      movedAt: null,
    };
    if (l.kind === 'liquidation') {
      row.liquidation = l.price;
      row.distance = l.distance;
    } else {
      row.breakEven = l.price;
      row.movedAt = l.movedAt;
    }
    byManager.set(l.manager_id, row);
  }
  const away = (d: number | null): number => (d === null ? Infinity : Math.abs(d));
  return [...byManager.values()].sort((a, b) => away(a.distance) - away(b.distance));
}

/**
 * The lines drawn on the chart, those within reach of the last price: every liquidation line,
 * break-even lines of the listed positions and of the one pointed at only (they crowd around the
 * price).
 */
export function drawnLines(
  lines: readonly PositionLine[],
  last: number | null,
  listed: ReadonlySet<string>,
  focus: string | null,
): PositionLine[] {
  return lines.filter(
    (l) =>
      withinReach(l.price, last) && (l.kind === 'liquidation' || listed.has(l.manager_id) || l.manager_id === focus),
  );
}
