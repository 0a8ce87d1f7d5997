// @vitest-environment happy-dom
import { mount, type VueWrapper } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { nextTick } from 'vue';
import type { LiquidationMapView } from '../../../../src/shared/contract';
import { bucketsOf, clustersOf, mapEntryOf, type Holdings } from '../../../../src/shared/risk-model';
import LiquidationBand from '../../../../src/renderer/src/features/markets/LiquidationBand.vue';
import LiquidationSummary from '../../../../src/renderer/src/features/markets/LiquidationSummary.vue';
import type { DepthView } from '../../../../src/renderer/src/features/markets/depth';
import { CANDLE_PLOT } from '../../../../src/renderer/src/features/markets/candles';
import { BAND_MARK_PX, bandLayout } from '../../../../src/renderer/src/features/markets/liquidation-map';
import { SUI_USDC as SUI_USDC_POOL } from '../../support/pools';

beforeEach(() => setActivePinia(createPinia()));

/** A block of the band's footer as it reads: its lines, a space apart. */
const footer = (w: VueWrapper, block: string): string =>
  w
    .findAll(`[data-testid=band-${block}] text, text[data-testid=band-${block}]`)
    .map((t) => t.text())
    .join(' ');

const POOL = SUI_USDC_POOL;
const PARAMS = { liquidation: 1.125, target_liquidation: 1.25, user_reward: 0.01, pool_reward: 0.04 };
const long = (base: number, debtQuote: number): Holdings => ({ base, quote: 0, debtBase: 0, debtQuote });
const short = (quote: number, debtBase: number): Holdings => ({ base: 0, quote, debtBase, debtQuote: 0 });

/** The hand-walked case of tests/unit/shared/liquidation-map.test.ts: C is the trader's own. */
const entries = [
  mapEntryOf('C', long(240, 480), PARAMS, true)!,
  mapEntryOf('B', long(120, 284.8), PARAMS)!,
  mapEntryOf('A', long(120, 288), PARAMS)!,
  mapEntryOf('D', short(594, 160), PARAMS)!,
  mapEntryOf('E', short(300.6, 80), PARAMS)!,
];
const buckets = bucketsOf(entries, 0.1);
const VIEW: LiquidationMapView = {
  pool: 'SUI_USDC',
  entries,
  buckets,
  width: 0.1,
  clusters: clustersOf(buckets),
  readAt: Date.UTC(2026, 10, 23, 12),
  everyMs: 3_600_000,
  loans: 5,
  pages: 1,
  unplaced: 0,
  liquidated: 0,
};
const level = (price: number, quantity: number) => ({ price, quantity, orders: 1, total: 0 });
const BOOK: DepthView = {
  bids: [level(2.99, 50), level(2.8, 40), level(2.69, 30), level(2.66, 50), level(2.6, 100)],
  asks: [level(3.01, 20), level(3.32, 40), level(3.34, 60), level(3.4, 100)],
  mid: 3,
  spread: 0.02,
  spreadPct: 0.67,
};

/** The map's words beside `book`, the price now at 3. */
const summaryOn = (book: DepthView) =>
  mount(LiquidationSummary, { props: { view: VIEW, book, last: 3, pool: POOL, priceDecimals: 4, loading: false } });

describe('the liquidation map on the pool page', () => {
  it('says each cascade with its figures, the trader’s own, and its assumptions', () => {
    const w = mount(LiquidationSummary, {
      props: { view: VIEW, book: BOOK, last: 3, pool: POOL, priceDecimals: 4, loading: false },
    });
    expect(w.get('[data-testid=liqmap-sides]').text()).toMatch(
      /Below the price: 3 longs, \$658\.00 to repay at their liquidations\. Above it: 2 shorts, \$497\.00\.\s+1 of them yours/,
    );
    // The nearest cluster each side (longs 2.6000–2.8000, shorts 3.3000–3.4000), walked by hand in the unit test.
    const rows = w.findAll('[data-testid=cascade-row]').map((r) => r.text());
    expect(rows).toEqual([
      expect.stringContaining(
        "A fall to 2.7000 liquidates 2 longs, 1 of them set off by the others' sales, $358.00 to repay; they sell 140.0000 SUI, which the 5 bid levels read absorb down to 2.6000.",
      ),
      expect.stringContaining(
        "A rise to 3.3000 liquidates 2 shorts, 1 of them set off by the others' buying, $497.00 to repay; they buy back 150.0000 SUI, which the 4 ask levels read absorb up to 3.4000.",
      ),
    ]);
    // The cluster leads its line with its side and money, the map's money by one rule (cents: every figure under $10,000).
    expect(rows[0]).toMatch(/^Cluster 2\.6000–2\.8000,\s+2 longs,\s+\$358\.00 to repay:\s+A fall/);
    // Both of the cluster reached: nothing more said of it.
    expect(rows[0]).not.toContain("of the cluster's");
    const assumptions = w.get('[data-testid=cascade-assumptions]').text();
    expect(assumptions).toContain('as of its snapshot time');
    expect(assumptions).toContain('no order is added or pulled');
    expect(assumptions).toContain('at market, at once');
    expect(assumptions).toContain('read every 60 min');
    // The levels walked said beside the ladder's 10; inside them nothing assumed, so the page does not say it.
    expect(assumptions).toContain(
      'The walk reads the 5 levels the service sends a side (the ladder beside shows the first 5',
    );
    expect(assumptions).not.toContain('Past the last of them');
  });

  it('says what the cascade leaves of its cluster where the book absorbs it first', () => {
    // A deep bid at 2.69 takes the 70 SUI of A (liquidated at 2.70) before B's 2.67 is reached.
    const deep = summaryOn({ ...BOOK, bids: [level(2.99, 50), level(2.8, 40), level(2.69, 1_000)] });
    expect(deep.findAll('[data-testid=cascade-row]')[0]!.text()).toContain(
      "A fall to 2.7000 liquidates 1 long, $180.00 to repay; they sell 70.0000 SUI, which the 3 bid levels read absorb down to 2.6900. 1 of the cluster's 2 is reached; the other 1, past 2.6900, needs a further fall.",
    );
  });

  it('says so when the walk went past the book’s levels, and before the book is there', () => {
    const far = summaryOn({ ...BOOK, bids: BOOK.bids.slice(0, 2) });
    // Two bids (2.99, 2.80): 2 assumed levels at most past them, 45 each, 0.19 apart (2.61, 2.42);
    // A's 70 and B's 70 (set off at 2.61) are 140 into 90: the book read cannot absorb them.
    expect(far.findAll('[data-testid=cascade-row]')[0]!.text()).toContain(
      'they sell 140.0000 SUI, more than the book can be taken to absorb: the 2 bid levels read end at 2.8000, and as many levels again as deep as they are on average, from 2.6100 to 2.4200, do not absorb them.',
    );
    expect(far.get('[data-testid=cascade-assumptions]').text()).toContain(
      'Past the last of them (or past the cluster, where the move itself went beyond them) the book is taken',
    );
    // Three bids (2.99, 2.80, 2.75): assumed 2.63, 2.51, 2.39, 63.33 each; 140 absorbed at 2.39, on assumed depth.
    const assumed = summaryOn({ ...BOOK, bids: [level(2.99, 50), level(2.8, 40), level(2.75, 100)] });
    expect(assumed.findAll('[data-testid=cascade-row]')[0]!.text()).toContain(
      'they sell 140.0000 SUI. The 3 bid levels read end at 2.7500; taken on from 2.6300 as deep as they are on average, the book absorbs them down to 2.3900.',
    );
    const waiting = mount(LiquidationSummary, {
      props: { view: VIEW, book: undefined, last: 3, pool: POOL, priceDecimals: 4, loading: false },
    });
    expect(waiting.text()).toContain('Waiting for the book to estimate the cascades.');
  });

  it('says how old the map is, and how many liquidated since are left out', () => {
    vi.useFakeTimers({ now: VIEW.readAt! + 42 * 60_000 });
    try {
      const w = mount(LiquidationSummary, {
        props: { view: { ...VIEW, liquidated: 2 }, book: BOOK, last: 3, pool: POOL, priceDecimals: 4, loading: false },
      });
      expect(w.get('[data-testid=liqmap-age]').text()).toMatch(
        /^As of the loans read 42 min ago; 2 managers liquidated\s+since are left out until the next read\.$/,
      );
    } finally {
      vi.useRealTimers();
    }
  });

  it('says what happened and what to do when the map cannot be had', () => {
    const w = mount(LiquidationSummary, {
      props: {
        view: undefined,
        book: BOOK,
        last: 3,
        pool: POOL,
        priceDecimals: 4,
        loading: false,
        error: { message: 'The service did not answer.', advice: 'Check the connection; Tidewatch tries again.' },
      },
    });
    expect(w.get('[role=alert]').text()).toContain('The service did not answer.');
    expect(w.text()).not.toMatch(/https?:|at \w+ \(/);
  });

  it('draws a bar per bucket at its price on the candles’ scale, longs and shorts apart, the trader’s own marked', async () => {
    // The candles' axis 2.5–3.5: C (the trader's own, 2.2–2.3) is below it, left off and counted.
    const w = mount(LiquidationBand, {
      props: { view: VIEW, axis: { min: 2.5, max: 3.5 }, last: 3, priceDecimals: 4, quoteSymbol: 'USDC' },
    });
    const bars = w.findAll('[data-testid=band-bar]');
    expect(bars.map((b) => Number(b.attributes('data-low')))).toEqual([
      expect.closeTo(2.6, 9),
      expect.closeTo(2.7, 9),
      expect.closeTo(3.3, 9),
    ]);
    const yOf = (p: number) => CANDLE_PLOT.topPx + ((3.5 - p) / 1) * CANDLE_PLOT.plotPx;
    for (const b of bars) {
      const low = Number(b.attributes('data-low'));
      const r = b.find('rect');
      const y = Number(r.attributes('y'));
      const hgt = Number(r.attributes('height'));
      expect(y).toBeGreaterThanOrEqual(yOf(low + 0.1) - 1e-6);
      expect(y + hgt).toBeLessThanOrEqual(yOf(low) + 1e-6);
    }
    // Longs in their colour, shorts in theirs; the largest bucket the longest bar.
    expect(bars[0]!.find('rect').classes()).toContain('long');
    expect(bars[2]!.find('rect').classes()).toContain('short');
    expect(footer(w, 'below')).toBe('▼ 1 under 2.5000 ($300)');
    expect(w.find('[data-testid=band-above]').exists()).toBe(false);
    // The now label in its lane, level with the price now.
    expect(Number(w.get('[data-testid=band-now]').attributes('y'))).toBeCloseTo(yOf(3) + 4, 6);
    await bars[2]!.get('[data-testid=band-hit]').trigger('mouseenter');
    expect(w.get('[data-testid=band-tip]').text()).toBe('3.3000–3.4000 USDC · 2 shorts, $497 to repay');
  });

  /** A SUI-like map: 60 longs 2.565–3.2, 40 shorts 3.25–4.305, one of them the trader's, candles 2.8–3.8. */
  const SUI_ENTRIES = [
    ...Array.from({ length: 60 }, (_, i) => ({
      manager_id: `L${i}`,
      side: 'long' as const,
      price: 2.565 + (i * (3.2 - 2.565)) / 59,
      debt: 100,
      repay: 1000 + ((i * 37) % 11) * 500,
      base: 100,
      own: i === 40,
    })),
    ...Array.from({ length: 40 }, (_, i) => ({
      manager_id: `S${i}`,
      side: 'short' as const,
      price: 3.25 + (i * (4.305 - 3.25)) / 39,
      debt: 100,
      repay: i === 5 ? 90_000 : 800,
      base: 100,
      own: false,
    })),
  ];
  const SUI_BUCKETS = bucketsOf(SUI_ENTRIES, 0.016);
  const SUI_VIEW: LiquidationMapView = {
    ...VIEW,
    entries: SUI_ENTRIES,
    buckets: SUI_BUCKETS,
    width: 0.016,
    clusters: [],
  };

  it.each([
    ['1280', 150],
    ['1920', 220],
  ])('lays the band on the candles’ scale at a %s px window (band %i px)', (_, widthPx) => {
    const axis = { min: 2.8, max: 3.8 };
    const box = { widthPx, topPx: CANDLE_PLOT.topPx, plotPx: CANDLE_PLOT.plotPx };
    const l = bandLayout(SUI_VIEW, axis, 3.23, box);
    const yOf = (p: number) => box.topPx + ((axis.max - p) / (axis.max - axis.min)) * box.plotPx;
    const full = SUI_BUCKETS.filter((b) => b.long.count + b.short.count > 0);
    const inside = full.filter((b) => (b.low + b.high) / 2 >= axis.min && (b.low + b.high) / 2 <= axis.max);
    expect(l.bars).toHaveLength(inside.length);
    // Off the scale: counted, not drawn.
    const off = (pred: (m: number) => boolean) =>
      full.filter((b) => pred((b.low + b.high) / 2)).reduce((a, b) => a + b.long.count + b.short.count, 0);
    expect(l.above.positions).toBe(off((m) => m > axis.max));
    expect(l.below.positions).toBe(off((m) => m < axis.min));
    expect(
      l.above.positions +
        l.below.positions +
        l.bars.reduce((a, b) => a + b.bucket.long.count + b.bucket.short.count, 0),
    ).toBe(100);
    for (const b of l.bars) {
      // Each bar within its bucket's prices on the candle scale, and no taller than the plot.
      expect(b.y).toBeGreaterThanOrEqual(Math.max(box.topPx, yOf(b.bucket.high)) - 1e-6);
      expect(b.y + b.height).toBeLessThanOrEqual(Math.min(box.topPx + box.plotPx, yOf(b.bucket.low)) + 1e-6);
      expect(b.mid).toBeCloseTo(yOf((b.bucket.low + b.bucket.high) / 2), 6);
      // Lengths by what they repay, inside the bars' room: no bar fills the band.
      expect(b.long + b.short).toBeLessThanOrEqual(l.barsPx + 1e-6);
      expect(b.height).toBeLessThan(box.plotPx / 20);
    }
    // Distinct buckets, distinct heights, none overlapping the next.
    const ys = l.bars.map((b) => b.y);
    expect(new Set(ys).size).toBe(ys.length);
    for (let i = 1; i < l.bars.length; i++)
      expect(l.bars[i]!.y + l.bars[i]!.height).toBeLessThanOrEqual(l.bars[i - 1]!.y + 1e-6);
    // The largest bucket (the 90,000 short) reaches the bars' room; the now label's lane is past every bar and mark.
    expect(Math.max(...l.bars.map((b) => b.long + b.short))).toBeCloseTo(l.barsPx, 6);
    // By the square root of the money: a bucket repaying a quarter of the largest is half as long.
    const most = Math.max(...l.bars.map((b) => b.bucket.long.repay + b.bucket.short.repay));
    for (const b of l.bars) {
      const money = b.bucket.long.repay + b.bucket.short.repay;
      expect(b.long + b.short).toBeCloseTo(Math.max(1, Math.sqrt(money / most) * l.barsPx), 6);
      // The longs' and the shorts' shares of the bar are their shares of the money.
      expect(b.long / (b.long + b.short)).toBeCloseTo(b.bucket.long.repay / money, 6);
    }
    expect(l.laneX).toBeGreaterThanOrEqual(l.barsPx + BAND_MARK_PX);
    expect(l.now!.y).toBeCloseTo(yOf(3.23), 6);
    expect(l.now!.labelY).toBeCloseTo(yOf(3.23), 6);
    expect(l.bars.filter((b) => b.own)).toHaveLength(1);
  });

  it('says a different bucket where the pointer is at 30, 50 and 70 % of the band, and marks ◂ as the text says', async () => {
    const w = mount(LiquidationBand, {
      props: { view: SUI_VIEW, axis: { min: 2.8, max: 3.8 }, last: 3.23, priceDecimals: 4, quoteSymbol: 'USDC' },
    });
    const hits = w.findAll('[data-testid=band-hit]');
    const at = async (share: number): Promise<string> => {
      const y = CANDLE_PLOT.topPx + share * CANDLE_PLOT.plotPx;
      const hit = hits.find((h) => {
        const top = Number(h.attributes('y'));
        return top <= y && y < top + Number(h.attributes('height')) + 1;
      })!;
      await hit.trigger('mouseenter');
      return w.get('[data-testid=band-tip]').text();
    };
    const tips = [await at(0.3), await at(0.5), await at(0.7)];
    expect(new Set(tips).size).toBe(3);
    expect(w.get('[data-testid=band-own]').text()).toBe('◂');
    expect(footer(w, 'above')).toMatch(/^▲ \d+ over 3\.8000 \(/);
    expect(footer(w, 'below')).toMatch(/^▼ \d+ under 2\.8000 \(/);
  });

  /**
   * Advance widths (em) of the faces the band may be drawn in: the page sets none, so Chromium's
   * default, DejaVu Serif on Linux, and DejaVu Sans; the wider of the two, from their fonts' hmtx.
   */
  const EM: Record<string, number> = {
    ' ': 0.318,
    '.': 0.318,
    ',': 0.318,
    '(': 0.39,
    ')': 0.39,
    $: 0.636,
    K: 0.747,
    M: 1.024,
    B: 0.735,
    '▲': 0.769,
    '▼': 0.769,
    '■': 0.945,
    '◂': 0.502,
    a: 0.613,
    b: 0.64,
    c: 0.56,
    d: 0.64,
    e: 0.615,
    g: 0.64,
    h: 0.644,
    i: 0.32,
    l: 0.32,
    n: 0.644,
    o: 0.612,
    r: 0.478,
    s: 0.521,
    t: 0.402,
    u: 0.644,
    v: 0.592,
    y: 0.592,
  };
  const widthOf = (text: string): number =>
    [...text].reduce((a, ch) => a + (/\d/.test(ch) ? 0.636 : (EM[ch] ?? 1)), 0) * 11;

  it.each([
    ['1280', 150],
    ['1920', 220],
  ])('wraps its footer within the band at a %s px window (band %i px): nothing past the card edge', async (_, px) => {
    class Observer {
      constructor(private readonly cb: (e: Array<{ contentRect: { width: number } }>) => void) {}
      observe(): void {
        this.cb([{ contentRect: { width: px } }]);
      }
      disconnect(): void {}
    }
    vi.stubGlobal('ResizeObserver', Observer);
    try {
      // DEEP_USDC after a drop: 18 longs under the axis ($184K), 54 shorts over it ($921K).
      const entries = [
        ...Array.from({ length: 18 }, (_, i) => ({
          id: `L${i}`,
          side: 'long' as const,
          price: 0.14 + i * 0.0005,
          repay: 184_000 / 18,
        })),
        ...Array.from({ length: 54 }, (_, i) => ({
          id: `S${i}`,
          side: 'short' as const,
          price: 0.195 + i * 0.0005,
          repay: 921_000 / 54,
        })),
        { id: 'N', side: 'long' as const, price: 0.17, repay: 5_000 },
      ].map((e) => ({ manager_id: e.id, side: e.side, price: e.price, debt: 0, repay: e.repay, base: 0, own: false }));
      const deep = bucketsOf(entries, 0.001);
      const w = mount(LiquidationBand, {
        props: {
          view: { ...VIEW, entries, buckets: deep, width: 0.001, clusters: clustersOf(deep) },
          axis: { min: 0.15158, max: 0.19077 },
          last: 0.16,
          priceDecimals: 5,
          quoteSymbol: 'USDC',
        },
      });
      await nextTick();
      expect(w.get('svg').attributes('width')).toBe(String(px));
      // Nothing lost: every word there, in order.
      expect(footer(w, 'below')).toBe('▼ 18 under 0.15158 ($184K)');
      expect(footer(w, 'above')).toBe('▲ 54 over 0.19077 ($921K)');
      // Every text of the band but its bars' marks.
      const texts = w.findAll('svg > text, svg > g:not([data-testid=band-bar]) text');
      expect(texts.map((t) => t.text().replace(/\s/g, '')).join('')).toContain('■longs■shorts◂yours');
      const boxes = texts.map((t) => ({
        text: t.text(),
        x: Number(t.attributes('x')),
        y: Number(t.attributes('y')),
        width: widthOf(t.text()),
      }));
      const height = Number(w.get('svg').attributes('height'));
      for (const b of boxes) {
        expect(b.x, b.text).toBeGreaterThanOrEqual(0);
        expect(b.x + b.width, `${b.text} at ${px} px`).toBeLessThanOrEqual(px);
        expect(b.y + 3, b.text).toBeLessThanOrEqual(height);
      }
      // None on another: a line's texts apart, the lines a line apart.
      for (const a of boxes)
        for (const b of boxes)
          if (a !== b && a.y === b.y)
            expect(a.x + a.width <= b.x || b.x + b.width <= a.x, `${a.text} / ${b.text}`).toBe(true);
          else if (a !== b) expect(Math.abs(a.y - b.y)).toBeGreaterThanOrEqual(13);
      w.unmount();
    } finally {
      vi.unstubAllGlobals();
    }
  });
});
