import { describe, expect, it } from 'vitest';
import {
  drawnLines,
  layoutLabels,
  lineLabelText,
  mergedLabelText,
  positionLineRows,
  priceAxisRange,
  withinReach,
  type LineLabel,
  type PositionLine,
} from '../../../../src/renderer/src/features/markets/position-lines';

const line = (manager_id: string, kind: PositionLine['kind'], price: number, distance: number | null = null) =>
  ({ manager_id, kind, price, side: 'long', distance, movedAt: kind === 'break-even' ? 7 : null }) as PositionLine;

describe("the watched positions' lines on a pool chart", () => {
  const lines = [
    line('far', 'liquidation', 1.5, -40),
    line('far', 'break-even', 2.1),
    line('near', 'liquidation', 1.9, -5),
    line('near', 'break-even', 2.05),
    line('none', 'break-even', 2.2),
  ];

  it('lists one row per position, nearest liquidation first, those without one last', () => {
    expect(positionLineRows(lines)).toEqual([
      { id: 'near', side: 'Long', liquidation: 1.9, breakEven: 2.05, distance: -5, movedAt: 7 },
      { id: 'far', side: 'Long', liquidation: 1.5, breakEven: 2.1, distance: -40, movedAt: 7 },
      { id: 'none', side: 'Long', liquidation: null, breakEven: 2.2, distance: null, movedAt: 7 },
    ]);
  });

  it('reaches 15 % either side of the last price, and everywhere before there is one', () => {
    expect(withinReach(1.71, 2)).toBe(true);
    expect(withinReach(2.29, 2)).toBe(true);
    expect(withinReach(1.69, 2)).toBe(false);
    expect(withinReach(2.31, 2)).toBe(false);
    expect(withinReach(1e9, null)).toBe(true);
  });

  it('draws the liquidations in reach, and the break-evens of listed positions or the one pointed at', () => {
    const ids = (ls: PositionLine[]) => ls.map((l) => `${l.manager_id} ${l.kind}`);
    expect(ids(drawnLines(lines, 2, new Set(['near']), null))).toEqual(['near liquidation', 'near break-even']);
    expect(ids(drawnLines(lines, 2, new Set(['near']), 'none'))).toEqual([
      'near liquidation',
      'near break-even',
      'none break-even',
    ]);
    expect(ids(drawnLines(lines, null, new Set(), null))).toEqual(['far liquidation', 'near liquidation']);
  });
});

describe('labels of the lines beside the price chart', () => {
  /** A plot 302 px tall from 10 px down, over prices 3.0 to 4.0 (302 px a unit, higher prices higher up). */
  const o = { toPx: (p: number) => 10 + (4 - p) * 302, gap: 14, stack: 3, top: 7, bottom: 312 };
  /** Every two labels at least a gap apart, and in the order of their prices (a higher one higher up). */
  const expectApart = (prices: readonly number[], labels: readonly LineLabel[]): void => {
    const byHeight = [...labels].sort((a, b) => a.y - b.y);
    for (let k = 1; k < byHeight.length; k++) {
      expect(byHeight[k]!.y - byHeight[k - 1]!.y).toBeGreaterThanOrEqual(14);
      expect(prices[byHeight[k]!.at]!).toBeLessThanOrEqual(prices[byHeight[k - 1]!.lines[0]!]!);
    }
  };

  it('labels far lines level with each, close ones stacked beside them', () => {
    // 3.60 and 3.61 are 3 px apart (130.8 and 127.78 px down), 3.80 is 57 px above 3.61.
    const prices = [3.61, 3.8, 3.6];
    const labels = layoutLabels(prices, o);
    expect(labels.map((l) => [l.lines, l.y])).toEqual([
      [[1], Math.round(o.toPx(3.8))],
      // The two close ones 14 px apart, about their lines: 122.29 ± 7 px, in whole pixels.
      [[0], 122],
      [[2], 136],
    ]);
    // Each leader starts at its own line.
    expect(labels.map((l) => l.line)).toEqual([o.toPx(3.8), o.toPx(3.61), o.toPx(3.6)]);
    expectApart(prices, labels);
  });

  it('merges a cluster of more lines than it stacks into one label with its lines, its leader at their middle', () => {
    const prices = [3.6, 3.605, 3.61, 3.615, 3.9];
    const labels = layoutLabels(prices, o);
    expect(labels.map((l) => [l.lines, l.at])).toEqual([
      [[4], 4],
      [[0, 1, 2, 3], 3],
    ]);
    expect(labels[1]!.line).toBeCloseTo((o.toPx(3.6) + o.toPx(3.615)) / 2, 9);
    // A stack of one: two close lines are merged too.
    expect(layoutLabels([3.6, 3.61], { ...o, stack: 1 }).map((l) => l.lines)).toEqual([[0, 1]]);
  });

  it('takes clusters wider when more labels come than the margin holds', () => {
    // 40 lines 7.5 px apart on a 305 px margin (22 labels): fewer labels, every line in one.
    const prices = Array.from({ length: 40 }, (_, i) => 3 + i * 0.025);
    const labels = layoutLabels(prices, o);
    expect(labels.length).toBeLessThanOrEqual(22);
    expect(labels.flatMap((l) => l.lines).sort((a, b) => a - b)).toEqual(prices.map((_, i) => i));
    expectApart(prices, labels);
    for (const l of labels) {
      expect(l.y).toBeGreaterThanOrEqual(7);
      expect(l.y).toBeLessThanOrEqual(312);
    }
  });

  it('never lets two labels meet, however the lines fall', () => {
    for (let seed = 1; seed < 600; seed++) {
      let x = seed;
      const rnd = (): number => (x = (x * 16807) % 2147483647) / 2147483647;
      // A small seed's first draws are tiny: past them, the draws spread over [0, 1).
      for (let k = 0; k < 3; k++) rnd();
      // 2 to 30 lines within 150 px, stacks of one to three.
      const prices = Array.from({ length: 2 + (seed % 29) }, () => 3.2 + rnd() * 0.5);
      const labels = layoutLabels(prices, { ...o, stack: 1 + (seed % 3) });
      expectApart(prices, labels);
      // Every line is labelled, alone or in a merged label, once.
      expect(labels.flatMap((l) => l.lines).sort((a, b) => a - b)).toEqual(prices.map((_, i) => i));
    }
  });

  it('fixes the price axis to the data, with room for a label above the highest', () => {
    const r = priceAxisRange([3.6, 3.7, 3.65], { plotPx: 302, topPx: 21 });
    expect(r.max - 3.7).toBeCloseTo(((r.max - r.min) * 21) / 302, 9);
    expect(3.6 - r.min).toBeCloseTo((r.max - r.min) * 0.04, 9);
    // A flat market: the price in the middle of a thousandth either side.
    const flat = priceAxisRange([2, 2], { plotPx: 302, topPx: 21 });
    expect(flat.min).toBeLessThan(2);
    expect(flat.max).toBeGreaterThan(2);
    expect(priceAxisRange([], { plotPx: 302, topPx: 21 })).toEqual({ min: 0, max: 1 });
  });

  it('says what a merged label stands for: how many lines, of which kind, between which prices', () => {
    const ls = [line('a', 'liquidation', 3.61), line('b', 'liquidation', 3.6), line('a', 'break-even', 3.62)];
    expect(mergedLabelText(ls, (x) => x.toFixed(4))).toBe('3 lines: Liq ×2, Break-even ×1, 3.6000–3.6200');
    // Where the margin is narrow: still what they are, the kinds abbreviated.
    expect(mergedLabelText(ls, (x) => x.toFixed(4), 'short')).toBe('3 lines: Liq ×2, B/E ×1, 3.6000–3.6200');
    expect(mergedLabelText(ls, (x) => x.toFixed(4), 'bare')).toBe('3 lines: Liq ×2, B/E ×1, 3.6000–3.6200');
  });

  it("names a line's kind, its position and its price; shorter where the margin is narrow, never a cut id", () => {
    const l = line(`0x8b28${'0'.repeat(58)}58`, 'break-even', 0.2451);
    expect(lineLabelText(l, (x) => x.toFixed(5))).toBe('Break-even 0x8b2800…0058 0.24510');
    // The product's one short id (shortIdText) or none: "B/E …58 0.24510" was neither.
    expect(lineLabelText(l, (x) => x.toFixed(5), 'short')).toBe('B/E 0x8b2800…0058 0.24510');
    expect(lineLabelText(l, (x) => x.toFixed(5), 'bare')).toBe('B/E 0.24510');
    expect(lineLabelText({ ...l, kind: 'liquidation' }, (x) => x.toFixed(5), 'bare')).toBe('Liq 0.24510');
  });
});

describe('a line inside the candles on screen', () => {
  it('is on the chart however far from the last price, and drawn', () => {
    const span = { low: 0.2, high: 0.265 };
    // 16.7 % above the last price, but inside what the candles already show.
    expect(withinReach(0.24386, 0.209)).toBe(false);
    expect(withinReach(0.24386, 0.209, span)).toBe(true);
    expect(withinReach(0.27, 0.209, span)).toBe(false);
    const breakEven = line('m', 'break-even', 0.24386);
    expect(drawnLines([breakEven], 0.209, new Set(['m']), null)).toEqual([]);
    expect(drawnLines([breakEven], 0.209, new Set(['m']), null, span)).toEqual([breakEven]);
  });
});
