// @vitest-environment happy-dom
import { mount } from '@vue/test-utils';
import { nextTick } from 'vue';
import { describe, expect, it, vi } from 'vitest';
import type { Pool } from '../../../../src/shared/api';
import { rawPrice } from '../../../../src/shared/units';
import CandleChart from '../../../../src/renderer/src/features/markets/CandleChart.vue';
import type { PositionLine } from '../../../../src/renderer/src/features/markets/position-lines';
import { drawnTexts, overlap } from '../../support/drawn';
import { chartProbe, NOW } from '../../support/manager';
import { flatCandles, SUI_USDC as SUI_USDC_POOL } from '../../support/pools';

const POOL = SUI_USDC_POOL;

/** Candles between 3.60 and 3.75. */
const CANDLES = flatCandles([3.6, 3.75, 3.7], NOW, POOL);

const line = (id: string, kind: PositionLine['kind'], price: number): PositionLine => ({
  manager_id: `0x${id.repeat(4)}${'0'.repeat(56)}${id.repeat(2)}`.slice(0, 66),
  kind,
  price,
  side: 'long',
  distance: null,
  movedAt: null,
});

type Mark = { yAxis: number; label: { show?: boolean; formatter?: string; position?: string } };
type Child = { type: string; x?: number; y?: number; style: { text?: string }; shape?: { points: number[][] } };
type Option = {
  grid?: Array<{ left: number; top: number; bottom: number }>;
  yAxis?: Array<{ min?: number; max?: number }>;
  graphic?: Array<{ left?: number; width: number; children: Child[] }>;
  series?: Array<{ markLine?: { data: Mark[] } }>;
};

function draw(lines: PositionLine[]) {
  const options: Option[] = [];
  const w = mount(CandleChart, {
    props: {
      pool: POOL,
      candles: CANDLES,
      daily: false,
      zoom: { start: 0, end: 100 },
      last: 3.7,
      lines,
      focus: null,
      priceDecimals: 4,
    },
    global: { stubs: { VChart: chartProbe(options), Echarts: chartProbe(options) } },
  });
  const o = options.at(-1)!;
  w.unmount();
  const children = o.graphic![0]!.children;
  const labels = children.filter((c) => c.type === 'text').map((c) => ({ text: c.style.text!, x: c.x!, y: c.y! }));
  const leaders = children.filter((c) => c.type === 'polyline').map((c) => c.shape!.points);
  return { o, labels, leaders };
}

/** A price's height in the chart: the candle plot is 302 px tall, 10 px from the top. */
const heightOf = (o: Option, p: number): number => {
  const y = o.yAxis![0]!;
  return 10 + ((y.max! - p) / (y.max! - y.min!)) * 302;
};

describe('the price chart: labels of the positions beside the candles, never on one another', () => {
  it('fixes the price axis to the candles, the lines and the last price, with half a label above', () => {
    const { o } = draw([line('a', 'liquidation', 3.4)]);
    const y = o.yAxis![0]!;
    expect(y.min).toBeLessThan(3.4);
    expect(y.max).toBeGreaterThan(3.75);
    expect(((y.max! - 3.75) / (y.max! - y.min!)) * 302).toBeCloseTo(7, 6);
    expect(o.grid![0]).toMatchObject({ top: 10, bottom: 430 - 10 - 302 });
  });

  it("puts the labels in the margin left of the plot (the markLines' own labels off), right-aligned to its edge", () => {
    const { o, labels } = draw([line('a', 'liquidation', 3.45), line('b', 'liquidation', 3.62)]);
    for (const m of o.series![0]!.markLine!.data) if (m.yAxis !== 3.7) expect(m.label.show).toBe(false);
    const left = o.grid![0]!.left;
    // The group is the grid's left margin, against the chart's left edge: every label ends before the plot.
    expect(o.graphic![0]).toMatchObject({ left: 0, width: left });
    for (const l of labels) expect(l.x).toBeLessThan(left);
    // Wide enough for the longest label's words at 11 px.
    expect(left).toBeGreaterThanOrEqual('Liq 0xaaaa00…00aa 3.4500'.length * 6);
    // Far apart: each level with its line.
    expect(labels).toEqual([
      { text: 'Liq 0xbbbb00…00bb 3.6200', x: expect.any(Number), y: Math.round(heightOf(o, 3.62)) },
      { text: 'Liq 0xaaaa00…00aa 3.4500', x: expect.any(Number), y: Math.round(heightOf(o, 3.45)) },
    ]);
  });

  it("a position's liquidation and break-even a tick apart: stacked 14 px apart, each with a leader to its line", () => {
    const { o, labels, leaders } = draw([line('a', 'liquidation', 3.65), line('a', 'break-even', 3.6501)]);
    expect(labels.map((l) => l.text)).toEqual(['Break-even 0xaaaa00…00aa 3.6501', 'Liq 0xaaaa00…00aa 3.6500']);
    expect(labels[1]!.y - labels[0]!.y).toBeGreaterThanOrEqual(14);
    const left = o.grid![0]!.left;
    expect(leaders.map((p) => p[0])).toEqual([
      [left, heightOf(o, 3.6501)],
      [left, heightOf(o, 3.65)],
    ]);
    expect(leaders.map((p) => p.at(-1)![1])).toEqual(labels.map((l) => l.y));
  });

  it('three close lines and one more, stacked; four within a label of each other: one label that counts them', () => {
    const three = draw([
      line('a', 'liquidation', 3.65),
      line('b', 'liquidation', 3.651),
      line('c', 'liquidation', 3.652),
      line('d', 'liquidation', 3.5),
    ]).labels;
    expect(three.map((l) => l.text)).toEqual([
      'Liq 0xcccc00…00cc 3.6520',
      'Liq 0xbbbb00…00bb 3.6510',
      'Liq 0xaaaa00…00aa 3.6500',
      'Liq 0xdddd00…00dd 3.5000',
    ]);
    for (let k = 1; k < three.length; k++) expect(three[k]!.y - three[k - 1]!.y).toBeGreaterThanOrEqual(14);
    const { labels } = draw([
      line('a', 'liquidation', 3.65),
      line('b', 'liquidation', 3.651),
      line('a', 'break-even', 3.652),
      line('c', 'liquidation', 3.653),
    ]);
    expect(labels.map((l) => l.text)).toEqual(['4 lines: Liq ×3, Break-even ×1, 3.6500–3.6530']);
  });
});

describe("the last price's tag beside the price axis", () => {
  /** XBTC_USDC's 0.1 tick: the longest prices of the Demo network ("109,950.0"). */
  const XBTC = {
    ...POOL,
    pool_name: 'XBTC_USDC',
    base_asset_symbol: 'XBTC',
    base_asset_decimals: 8,
    tick_size: 1_000_000,
    lot_size: 1_000,
  } as Pool;
  const candlesAt = (pool: Pool, closes: number[]) =>
    closes.map((c, i) => ({
      timestamp: new Date(NOW - (closes.length - i) * 900_000).toISOString().slice(0, 19),
      open: rawPrice(c * 0.995, pool),
      high: rawPrice(c * 1.003, pool),
      low: rawPrice(c * 0.99, pool),
      close: rawPrice(c, pool),
      volume_base: '0',
      volume_quote: '0',
      trade_count: 1,
    }));
  /** The pool page's candle chart is 1,008 px wide in a 1280 px window and 1,080 px in a 1920 px one. */
  const WIDTHS = [1_008, 1_080];

  it('stands between the plot and the axis: neither it nor the label of a price near it is covered, at 1280 and 1920', () => {
    const cases = [
      // The last price half a label below a labelled price, and right on one.
      { pool: XBTC, decimals: 1, closes: [104_000, 108_000, 109_950], last: 109_950, near: '110,000.0' },
      { pool: XBTC, decimals: 1, closes: [104_000, 108_000, 106_000], last: 106_000, near: '106,000.0' },
      { pool: POOL, decimals: 4, closes: [3.6, 3.75, 3.7], last: 3.699, near: '3.7000' },
    ];
    for (const { pool, decimals, closes, last, near } of cases)
      for (const width of WIDTHS) {
        const options: Array<{ grid: Array<{ right: number }> }> = [];
        mount(CandleChart, {
          props: {
            pool,
            candles: candlesAt(pool, closes),
            daily: false,
            zoom: { start: 0, end: 100 },
            last,
            lines: [],
            focus: null,
            priceDecimals: decimals,
          },
          global: { stubs: { VChart: chartProbe(options), Echarts: chartProbe(options) } },
        }).unmount();
        const o = options.at(-1)!;
        const texts = drawnTexts(o, width, 430);
        const plotRight = width - o.grid[0]!.right;
        const tagText = last.toLocaleString('en-US', {
          minimumFractionDigits: decimals,
          maximumFractionDigits: decimals,
        });
        const where = `${pool.pool_name} at ${tagText}, ${width} px`;
        // The tag: the last price's words nearest the plot (an axis label may read the same).
        const tag = texts.filter((t) => t.text === tagText && t.x >= plotRight).sort((a, b) => a.x - b.x)[0];
        expect(tag, where).toBeDefined();
        // The price axis's labels: right of the plot, the tag aside.
        const axis = texts.filter((t) => t !== tag && t.x >= plotRight && /^[\d,]+\.\d+$/.test(t.text));
        expect(axis.length, where).toBeGreaterThanOrEqual(2);
        // A labelled price level with the tag, within a label's height: the one it covered.
        const beside = axis.find((a) => a.text === near);
        expect(beside, `${where}: ${near} drawn`).toBeDefined();
        expect(Math.abs(beside!.y - tag!.y), where).toBeLessThan(tag!.height);
        for (const a of axis) {
          expect(overlap(a, tag!), `${where}: ${a.text} under the tag`).toBe(false);
          expect(a.x + a.width, `${where}: ${a.text} inside the chart`).toBeLessThanOrEqual(width);
        }
        // The tag against the plot, at its line's end, and whole.
        expect(tag!.x - plotRight, where).toBeGreaterThanOrEqual(0);
        expect(tag!.x - plotRight, where).toBeLessThanOrEqual(4);
        expect(tag!.x + tag!.width, where).toBeLessThanOrEqual(width);
      }
  });
});

describe('the position labels where the margin is narrow (the chart measured)', () => {
  /** DEEP-like candles 0.150–0.200, the last 0.185. */
  const DEEP_CANDLES = flatCandles([0.15, 0.2, 0.185], NOW, POOL);
  /** The chart as laid out `width` px wide: a ResizeObserver that reports that width. */
  async function drawAt(lines: PositionLine[], width: number): Promise<Option & { grid: Array<{ left: number }> }> {
    class Observer {
      constructor(private readonly cb: (e: Array<{ contentRect: { width: number } }>) => void) {}
      observe(): void {
        this.cb([{ contentRect: { width } }]);
      }
      disconnect(): void {}
    }
    vi.stubGlobal('ResizeObserver', Observer);
    try {
      const options: Array<Option & { grid: Array<{ left: number }> }> = [];
      const w = mount(CandleChart, {
        props: {
          pool: POOL,
          candles: DEEP_CANDLES,
          daily: false,
          zoom: { start: 0, end: 100 },
          last: 0.185,
          lines,
          focus: null,
          priceDecimals: 5,
        },
        global: { stubs: { VChart: chartProbe(options), Echarts: chartProbe(options) } },
      });
      // Drawn again once measured.
      await nextTick();
      w.unmount();
      return options.at(-1)!;
    } finally {
      vi.unstubAllGlobals();
    }
  }
  const singles = [line('8', 'liquidation', 0.19797), line('2', 'break-even', 0.18783)];
  const crowd = [
    ...singles,
    line('a', 'liquidation', 0.15163),
    line('b', 'liquidation', 0.1525),
    line('c', 'liquidation', 0.1535),
    line('a', 'break-even', 0.15489),
  ];
  /** The chart at 1280 and 1920 beside the band (about 850 px), narrower, and as wide as it was without it. */
  const WIDTHS = [600, 850, 1_008, 1_080];

  it('says what each line is and its price, with the one short id or none, never a cut one, inside the chart', async () => {
    for (const lines of [singles, crowd])
      for (const width of WIDTHS) {
        const o = await drawAt(lines, width);
        const left = o.grid[0]!.left;
        const labels = o.graphic![0]!.children.filter((c) => c.type === 'text').map((c) => c.style.text!);
        const where = `${lines.length} lines at ${width} px: ${labels.join(' | ')}`;
        expect(labels.length, where).toBeGreaterThan(0);
        for (const t of labels) {
          // What it is first, then the one short form of an id or none, then its price(s).
          expect(t, where).toMatch(
            /^(?:(?:Liq|B\/E|Break-even)(?: 0x[0-9a-f]{6}…[0-9a-f]{4})? \d\.\d{5}|\d+ lines: (?:Liq ×\d+)?(?:, )?(?:(?:B\/E|Break-even) ×\d+)?, \d\.\d{5}–\d\.\d{5})$/,
          );
          expect(t, where).not.toMatch(/\.\.\.|…[0-9a-f]{1,3}\b/);
        }
        // Drawn whole in the margin: inside the chart's left edge, before the plot.
        const drawn = drawnTexts(o, width, 430).filter((d) => labels.includes(d.text));
        expect(drawn.length, where).toBe(labels.length);
        for (const d of drawn) {
          expect(d.x, `${where}: ${d.text}`).toBeGreaterThanOrEqual(0);
          expect(d.x + d.width, `${where}: ${d.text}`).toBeLessThanOrEqual(left);
        }
      }
    // The fullest words that fit: in full where the chart is wide, the id dropped where even "B/E" and it have no room.
    const text = async (lines: PositionLine[], width: number) =>
      (await drawAt(lines, width)).graphic![0]!.children.filter((c) => c.type === 'text').map((c) => c.style.text);
    expect(await text(singles, 1_080)).toEqual(['Liq 0x888800…0088 0.19797', 'Break-even 0x222200…0022 0.18783']);
    expect(await text(singles, 600)).toEqual(['Liq 0.19797', 'B/E 0.18783']);
    // A merged label's words set the margin: the ids beside it fit in it, and are kept.
    expect(await text(crowd, 850)).toEqual(
      expect.arrayContaining(['B/E 0x222200…0022 0.18783', '4 lines: Liq ×3, B/E ×1, 0.15163–0.15489']),
    );
  });
});
