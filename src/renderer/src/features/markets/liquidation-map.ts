import type { Pool } from '../../../../shared/api';
import type { LiquidationMapView } from '../../../../shared/contract';
import {
  cascadeAt,
  isStable,
  type BookLevel,
  type Cascade,
  type MapBucket,
  type MapCluster,
} from '../../../../shared/risk-model';
import { usdColumnDigits } from '../../../../shared/format';
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

/**
 * Money of the pool's quote: dollars for a stablecoin, else the quote asset's amount. The map's
 * money is one block, written by one rule as a table's column is (`mapMoneyDigits`): "$8,461 to
 * repay" beside "$121,006", never "$8,460.80" beside it.
 */
export function quoteMoney(value: number, pool: Pool, digits?: number): string {
  return isStable(pool.quote_asset_symbol)
    ? usd(value, { ...PUBLIC, digits })
    : amount(value, pool.quote_asset_symbol, PUBLIC);
}

/**
 * The decimals of every dollar figure of a pool's map (its sides' totals, clusters, cascades): by
 * its largest, each side's total (`usdColumnDigits`: cents while it is below $10,000).
 */
export function mapMoneyDigits(view: LiquidationMapView): number {
  const total = (side: 'long' | 'short'): number =>
    view.entries.filter((e) => e.side === side).reduce((a, e) => a + e.repay, 0);
  return usdColumnDigits([total('long'), total('short')]);
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
  const digits = mapMoneyDigits(view);
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
      // Where the book absorbs it before the cluster's far edge, the rest of the cluster holds.
      const beyond = cascade.exhausted
        ? 0
        : inside.filter((e) => (down ? e.price < cascade.priceAfter - eps : e.price > cascade.priceAfter + eps)).length;
      const text = `${cascadeText(cascade, pool, priceDecimals, digits)}${clusterLeft(cluster, beyond, cascade.priceAfter, priceDecimals)}`;
      rows.push({ cascade, cluster, text });
    }
  }
  return rows;
}

/**
 * "A fall to 2.7216 liquidates 11 longs, $268,594 to repay; they sell 95,412.0000 SUI, which the
 * 20 bid levels read absorb down to 2.6950." Past the last level read the end rests on assumed
 * depth, and the sentence says where it was assumed ("The 20 bid levels read end at 3.2105; taken
 * on from 3.0500 as deep as they are on average, the book absorbs them down to 2.9800."); where
 * the assumed levels run out too, it says which span did not absorb them, never a made-up price.
 * Those set off by the others' trades are said once, after the count.
 */
export function cascadeText(c: Cascade, pool: Pool, pd: number, digits?: number): string {
  const down = c.direction === 'down';
  const who = down ? (c.liquidated === 1 ? 'long' : 'longs') : c.liquidated === 1 ? 'short' : 'shorts';
  const move = `A ${down ? 'fall' : 'rise'} to ${price(c.trigger, pd)}`;
  if (c.liquidated === 0) return `${move} liquidates no ${who}.`;
  const trade = down ? 'sell' : 'buy back';
  const base = amount(c.base, pool.base_asset_symbol, PUBLIC);
  const read = `${count(c.levels, PUBLIC)} ${down ? 'bid' : 'ask'} ${c.levels === 1 ? 'level' : 'levels'} read`;
  const way = down ? 'down' : 'up';
  const lastRead = c.lastLevel === null ? '' : ` end at ${price(c.lastLevel, pd)}`;
  const from = c.assumedFrom === null ? '' : ` from ${price(c.assumedFrom, pd)}`;
  const end = c.exhausted
    ? c.beyondBook
      ? `, more than the book can be taken to absorb: the ${read}${lastRead}, and as many levels again as deep as they are on average,${from} to ${price(c.priceAfter, pd)}, do not absorb them`
      : `, more than the ${read} can absorb (beyond ${price(c.priceAfter, pd)})`
    : c.beyondBook
      ? `. The ${read}${lastRead}; taken on${from} as deep as they are on average, the book absorbs them ${way} to ${price(c.priceAfter, pd)}`
      : `, which the ${read} absorb ${way} to ${price(c.priceAfter, pd)}`;
  const setOff =
    c.onTheWay > 0 ? `, ${count(c.onTheWay, PUBLIC)} of them set off by the others' ${down ? 'sales' : 'buying'}` : '';
  return `${move} liquidates ${count(c.liquidated, PUBLIC)} ${who}${setOff}, ${quoteMoney(c.repay, pool, digits)} to repay; they ${trade} ${base}${end}.`;
}

/**
 * What the cascade leaves of its cluster: " 5 of the cluster's 22 are reached; the other 17,
 * past 3.2083, need a further rise." ('' when it reaches them all). The cluster's count and the
 * cascade's differ otherwise without a word (the cascade also takes nearer positions at the trigger).
 */
function clusterLeft(cluster: MapCluster, beyond: number, after: number, pd: number): string {
  if (beyond <= 0) return '';
  const reached = cluster.count - beyond;
  const further = cluster.side === 'long' ? 'fall' : 'rise';
  return ` ${count(reached, PUBLIC)} of the cluster's ${count(cluster.count, PUBLIC)} ${reached === 1 ? 'is' : 'are'} reached; the other ${count(beyond, PUBLIC)}, past ${price(after, pd)}, ${beyond === 1 ? 'needs' : 'need'} a further ${further}.`;
}

/** One bucket's bar on the band (px, from the band's top left), at its price on the candle chart's scale. */
export interface BandBar {
  bucket: MapBucket;
  /** The bar's top and height: the bucket's price span on the scale, less a pixel of air (at least 1 px). */
  y: number;
  height: number;
  /** The bucket's middle price's height. */
  mid: number;
  /** Lengths of the longs' part (from the left edge) and the shorts' part after it, by what each repays. */
  long: number;
  short: number;
  /** The trader's own managers in it: marked just right of the bar. */
  own: boolean;
}

/** Positions whose bucket lies beyond the candle chart's scale on one side. */
export interface OffScale {
  positions: number;
  repay: number;
}

export interface BandLayout {
  bars: BandBar[];
  above: OffScale;
  below: OffScale;
  /** The price now's line, and its label in the lane of its own right of the bars (null: no price). */
  now: { y: number; labelY: number } | null;
  /** Where the bars may reach at most, and where the label lane starts. */
  barsPx: number;
  laneX: number;
}

/** The band's geometry: its width, the candle plot's top and height (candles.ts `CANDLE_PLOT`), the lanes. */
export interface BandBox {
  widthPx: number;
  topPx: number;
  plotPx: number;
  /** The lane for the price now's label, at the right. */
  lanePx?: number;
  /** Room for the own mark after a bar. */
  markPx?: number;
}

/** The band's label lane (px) and the own mark's room. */
export const BAND_LANE_PX = 30;
export const BAND_MARK_PX = 9;

/**
 * The liquidation band laid on the candle chart's price scale (`axis`, its min and max): a
 * horizontal bar per bucket holding positions, at its bucket's prices, as long as the square root
 * of what they would repay (longs then shorts), against the largest bucket in view; buckets beyond the scale are
 * left off and counted above and below. The price now's label stands in a lane no bar reaches.
 */
export function bandLayout(
  view: LiquidationMapView,
  axis: { min: number; max: number },
  last: number | null,
  box: BandBox,
): BandLayout {
  const lane = box.lanePx ?? BAND_LANE_PX;
  const mark = box.markPx ?? BAND_MARK_PX;
  const laneX = box.widthPx - lane;
  const barsPx = Math.max(0, laneX - mark);
  const span = axis.max - axis.min;
  const yOf = (p: number): number => box.topPx + ((axis.max - p) / span) * box.plotPx;
  const above: OffScale = { positions: 0, repay: 0 };
  const below: OffScale = { positions: 0, repay: 0 };
  const inView: MapBucket[] = [];
  for (const b of view.buckets) {
    const n = b.long.count + b.short.count;
    if (n === 0) continue;
    const middle = (b.low + b.high) / 2;
    const off = middle > axis.max ? above : middle < axis.min ? below : null;
    if (off) {
      off.positions += n;
      off.repay += b.long.repay + b.short.repay;
    } else inView.push(b);
  }
  const most = Math.max(0, ...inView.map((b) => b.long.repay + b.short.repay));
  // By the square root of what a bucket repays against the largest: one $2.9M position flattened a
  // $309,451 cluster into a sliver under a linear scale (a bar 4 times the money is twice as long).
  const lengthOf = (total: number): number =>
    total > 0 && most > 0 ? Math.max(1, Math.sqrt(total / most) * barsPx) : 0;
  const bars = inView.map((b): BandBar => {
    const total = b.long.repay + b.short.repay;
    const length = lengthOf(total);
    const top = yOf(Math.min(b.high, axis.max));
    const bottom = yOf(Math.max(b.low, axis.min));
    const height = Math.max(1, bottom - top - 1);
    return {
      bucket: b,
      y: top + (bottom - top - height) / 2,
      height,
      mid: yOf((b.low + b.high) / 2),
      // The bar's length shared by the longs' and the shorts' money.
      long: total > 0 ? (length * b.long.repay) / total : 0,
      short: total > 0 ? (length * b.short.repay) / total : 0,
      own: b.own.length > 0,
    };
  });
  const half = 6;
  const now =
    last === null || !(span > 0)
      ? null
      : {
          y: yOf(last),
          labelY: Math.min(box.topPx + box.plotPx - half, Math.max(box.topPx + half, yOf(last))),
        };
  return { bars, above, below, now, barsPx, laneX };
}

/** The band's footer font (px), its lines' step, and where its texts start from the band's left edge. */
export const FOOTER_FONT_PX = 11;
export const FOOTER_LINE_PX = 15;
export const FOOTER_X_PX = 2;

/**
 * A text's width at `fontPx`, estimated on the wide side (no canvas is at hand where the band is
 * laid out; the page sets no face, so Chromium draws its default, DejaVu Serif on Linux, whose
 * digits are 0.636 em, "K" 0.747, "▼" 0.769 and "■" 0.945): a symbol a whole em, "M" and "W" 1.03,
 * "m" and "w" 0.95, another capital 0.75, a space, a stop or a bracket 0.4, any other 0.65.
 */
export function textPx(text: string, fontPx = FOOTER_FONT_PX): number {
  let em = 0;
  for (const ch of text) {
    if (ch.charCodeAt(0) > 0x7f) em += 1;
    else if (/[MW]/.test(ch)) em += 1.03;
    else if (/[mw]/.test(ch)) em += 0.95;
    else if (/[A-Z]/.test(ch)) em += 0.75;
    else if (/[\s.,:;'()|!]/.test(ch)) em += 0.4;
    else em += 0.65;
  }
  return em * fontPx;
}

/** One text of the band's footer, placed (px from the band's top left). */
export interface FooterText {
  /** The block it is part of ("above", "below", "legend"). */
  block: string;
  text: string;
  cls: string;
  x: number;
  y: number;
}

/**
 * A block of the footer: its items, in order, kept whole (a word, or a legend's "■ longs"), a
 * space apart; `sentence`: a line of them is one text in the block's class, else each item stands
 * alone in its own.
 */
export interface FooterBlock {
  block: string;
  items: Array<{ text: string; cls: string }>;
  sentence: boolean;
}

/**
 * The footer under the band, wrapped to its width so no text passes the card's edge (at 1280 the
 * band is 150 px, and "▼ 18 under 0.15158 ($184K)" one line was cut at "($184"): the blocks one
 * after another from `topPx` (the first line's baseline), each item on the current line while it
 * fits within `widthPx` less the air either side, else on the next. An item wider than the band
 * alone stands on a line of its own. `bottomPx`: the last line's baseline.
 */
export function footerLayout(
  blocks: readonly FooterBlock[],
  box: { widthPx: number; topPx: number },
): { texts: FooterText[]; bottomPx: number } {
  const right = box.widthPx - FOOTER_X_PX;
  const space = textPx(' ');
  const texts: FooterText[] = [];
  let y = box.topPx - FOOTER_LINE_PX;
  for (const b of blocks) {
    if (b.items.length === 0) continue;
    y += FOOTER_LINE_PX;
    let x = FOOTER_X_PX;
    let line: FooterText | null = null;
    for (const item of b.items) {
      const w = textPx(item.text);
      if (x > FOOTER_X_PX && x + space + w > right) {
        y += FOOTER_LINE_PX;
        x = FOOTER_X_PX;
        line = null;
      }
      const at = x === FOOTER_X_PX ? x : x + space;
      if (b.sentence && line) line.text += ` ${item.text}`;
      else {
        line = { block: b.block, text: item.text, cls: item.cls, x: at, y };
        texts.push(line);
      }
      x = at + w;
    }
  }
  return { texts, bottomPx: y };
}
