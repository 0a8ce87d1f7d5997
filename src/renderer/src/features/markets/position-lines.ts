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

/** The lowest and highest price of the candles on screen (quote units). */
export interface PriceSpan {
  low: number;
  high: number;
}

/**
 * Whether a line's price is on the chart: within `LINE_RANGE` of the last price (all are before
 * there is one), or inside the span of the candles on screen, which the price axis shows anyway.
 */
export const withinReach = (price: number, last: number | null, span: PriceSpan | null = null): boolean =>
  last === null ||
  Math.abs(price / last - 1) <= LINE_RANGE ||
  (span !== null && price >= span.low && price <= span.high);

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
 * The lines drawn on the chart, those on it (`withinReach`): every liquidation line,
 * break-even lines of the listed positions and of the one pointed at only (they crowd around the
 * price).
 */
export function drawnLines(
  lines: readonly PositionLine[],
  last: number | null,
  listed: ReadonlySet<string>,
  focus: string | null,
  span: PriceSpan | null = null,
): PositionLine[] {
  return lines.filter(
    (l) =>
      withinReach(l.price, last, span) &&
      (l.kind === 'liquidation' || listed.has(l.manager_id) || l.manager_id === focus),
  );
}

/** A label on the price chart: on one line, or one for several lines too close to label apart. */
export interface LineLabel {
  /** Indexes of the lines it stands for (in the order given), lowest price first. */
  lines: number[];
  /** The line it sits on (above it): the highest of them. */
  at: number;
  /** 0, 1, 2: left, middle, right of the plot. */
  slot: number;
}

/**
 * Where the position lines' labels go, so that no two overlap (each is `labelPx` tall and sits
 * just above its line; `pxPerUnit` is the price axis's scale). Lines whose labels would touch form
 * a cluster (nearest neighbours closer than a label's height); a cluster of at most `slots` lines
 * labels each line, side by side (left, middle, right); a larger one is one label with a count,
 * above its highest line. Clusters are at least a label's height apart, so their labels never meet.
 */
export function layoutLabels(
  prices: readonly number[],
  o: { pxPerUnit: number; labelPx: number; slots: number },
): LineLabel[] {
  const order = prices.map((p, i) => [p, i] as const).sort((a, b) => a[0] - b[0]);
  const clusters: number[][] = [];
  let top = -Infinity;
  for (const [p, i] of order) {
    const cluster = clusters.at(-1);
    if (cluster && (p - top) * o.pxPerUnit < o.labelPx) cluster.push(i);
    else clusters.push([i]);
    top = p;
  }
  const slots = Math.max(1, Math.floor(o.slots));
  return clusters.flatMap((c): LineLabel[] =>
    c.length <= slots
      ? c.map((i, k) => ({ lines: [i], at: i, slot: k }))
      : [{ lines: c, at: c[c.length - 1]!, slot: 0 }],
  );
}

/**
 * Where `slots` labels side by side go on a markLine: one at the plot's left; two at its ends (a
 * centred one would meet a left one unless the plot is three labels wide); three at the left,
 * middle and right.
 */
export function labelPositions(slots: number): Array<'insideStartTop' | 'insideMiddleTop' | 'insideEndTop'> {
  if (slots >= 3) return ['insideStartTop', 'insideMiddleTop', 'insideEndTop'];
  return slots === 2 ? ['insideStartTop', 'insideEndTop'] : ['insideStartTop'];
}

/**
 * The price axis of the candle chart, fixed so that labels can be laid out on it: the candles in
 * view, the lines drawn and the last price, with room below and, above the highest, for a label
 * (`topPx` of `plotPx`).
 */
export function priceAxisRange(
  prices: readonly number[],
  o: { plotPx: number; topPx: number; bottomShare?: number },
): { min: number; max: number } {
  const finite = prices.filter((p) => Number.isFinite(p));
  if (finite.length === 0) return { min: 0, max: 1 };
  const lo = Math.min(...finite);
  const hi = Math.max(...finite);
  // A flat market still gets an axis: a thousandth of the price either side.
  const span = hi > lo ? hi - lo : Math.abs(hi) * 0.002 || 1;
  const bottom = o.bottomShare ?? 0.04;
  const total = span / (1 - bottom - o.topPx / o.plotPx);
  const min = (hi > lo ? lo : lo - span / 2) - total * bottom;
  return { min, max: min + total };
}

/** A merged label's words: "3 lines: Liq ×2, Break-even ×1, 3.6102–3.6350". */
export function mergedLabelText(lines: readonly PositionLine[], price: (x: number) => string): string {
  const liq = lines.filter((l) => l.kind === 'liquidation').length;
  const even = lines.length - liq;
  const kinds = [liq ? `Liq ×${liq}` : '', even ? `Break-even ×${even}` : ''].filter(Boolean).join(', ');
  const ps = lines.map((l) => l.price);
  return `${lines.length} lines: ${kinds}, ${price(Math.min(...ps))}–${price(Math.max(...ps))}`;
}
