import type { PositionSummary } from '../../../../shared/contract';
import { spreadLabels } from '../../charts';
import { shortIdText } from '../../../../shared/format';

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

/** A manager's tag on a chart, in the one short form of every address (`shortIdText`): "0x7c3600…00de". */
export const lineTag = (id: string): string => shortIdText(id);

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

/** A label beside the price chart: of one line, or one for several lines too close to label apart. */
export interface LineLabel {
  /** Indexes of the lines it stands for (in the order given), lowest price first. */
  lines: number[];
  /** The highest of them. */
  at: number;
  /** Its lines' height in the chart (px from its top): the middle of a merged label's. Its leader starts there. */
  line: number;
  /** Its own height, spread from the others' (charts.ts `spreadLabels`): at least `gap` from each. */
  y: number;
}

/** The lines (their heights, px) in runs closer than `near` to the next, top to bottom. */
function clusters(px: readonly number[], near: number): number[][] {
  const order = px.map((y, i) => [y, i] as const).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const out: number[][] = [];
  let last = -Infinity;
  for (const [y, i] of order) {
    const c = out.at(-1);
    if (c && y - last < near) c.push(i);
    else out.push([i]);
    last = y;
  }
  return out;
}

/**
 * Where the position lines' labels go in the margin beside the price chart, so that no two
 * overlap and none sits on the candles (issue 40: at 1920 px they sat over the candles, and close
 * ones over each other). `toPx` gives a price's height in the chart; labels are `gap` apart at
 * least, within `[top, bottom]`. Lines closer than a label's height form a cluster: one of at most
 * `stack` lines labels each line, stacked beside it; a larger one is one label with a count. The
 * labels are then spread (`spreadLabels`) about their lines; when more labels come than the
 * margin's height holds, clusters are taken wider until they fit.
 */
export function layoutLabels(
  prices: readonly number[],
  o: { toPx: (price: number) => number; gap: number; stack: number; top: number; bottom: number },
): LineLabel[] {
  const px = prices.map(o.toPx);
  const room = Math.floor((o.bottom - o.top) / o.gap) + 1;
  let near = o.gap;
  let stack = Math.max(1, Math.floor(o.stack));
  const group = (): number[][] => clusters(px, near).flatMap((c) => (c.length <= stack ? c.map((i) => [i]) : [c]));
  let groups = group();
  while (groups.length > Math.max(1, room)) {
    if (stack > 1) stack--;
    else near *= 2;
    groups = group();
  }
  const labels = groups.map((g) => {
    const lines = [...g].sort((a, b) => prices[a]! - prices[b]! || a - b);
    const ys = lines.map((i) => px[i]!);
    return { lines, at: lines[lines.length - 1]!, line: (Math.min(...ys) + Math.max(...ys)) / 2 };
  });
  const spread = spreadLabels(
    labels.map((l) => l.line),
    o.gap,
    { top: o.top, bottom: o.bottom },
  );
  return labels.map((l, i) => ({ ...l, y: spread[i]! }));
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

/**
 * How much a line's label says: `full`, its kind in words and its position's short id; `short`,
 * where the margin is narrower, the kind abbreviated ("B/E") and the id kept; `bare`, where even
 * that has no room, the kind and the price alone (the list under the chart names the position).
 * An id is the one short form of the product (`shortIdText`) or none: never a cut "…85".
 */
export type LabelForm = 'full' | 'short' | 'bare';
export const LABEL_FORMS: readonly LabelForm[] = ['full', 'short', 'bare'];

/**
 * A line's label: "Liq 0x7c3600…00de 3.6102", "Break-even 0x7c3600…00de 3.6350"; `short`:
 * "B/E 0x7c3600…00de 3.6350"; `bare`: "Liq 3.6102", "B/E 3.6350".
 */
export function lineLabelText(l: PositionLine, price: (x: number) => string, form: LabelForm = 'full'): string {
  const kind = l.kind === 'liquidation' ? 'Liq' : form === 'full' ? 'Break-even' : 'B/E';
  return form === 'bare' ? `${kind} ${price(l.price)}` : `${kind} ${lineTag(l.manager_id)} ${price(l.price)}`;
}

/**
 * A merged label's words: how many lines, of which kind, between which prices: "3 lines: Liq ×2,
 * Break-even ×1, 3.6102–3.6350"; shorter (`short`, `bare`: it names no position), the kinds
 * abbreviated: "3 lines: Liq ×2, B/E ×1, 3.6102–3.6350".
 */
export function mergedLabelText(
  lines: readonly PositionLine[],
  price: (x: number) => string,
  form: LabelForm = 'full',
): string {
  const liq = lines.filter((l) => l.kind === 'liquidation').length;
  const even = lines.length - liq;
  const evenWord = form === 'full' ? 'Break-even' : 'B/E';
  const kinds = [liq ? `Liq ×${liq}` : '', even ? `${evenWord} ×${even}` : ''].filter(Boolean).join(', ');
  const ps = lines.map((l) => l.price);
  const range = `${price(Math.min(...ps))}–${price(Math.max(...ps))}`;
  return `${lines.length} lines: ${kinds}, ${range}`;
}
