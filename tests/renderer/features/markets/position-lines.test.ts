import { describe, expect, it } from 'vitest';
import {
  drawnLines,
  labelPositions,
  layoutLabels,
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

describe('labels of the lines on the price chart', () => {
  /** Where each label is, in pixels above the plot's bottom: [left, right) in slots, [bottom, top). */
  const boxes = (prices: number[], labels: LineLabel[], pxPerUnit: number) =>
    labels.map((l) => ({ slot: l.slot, bottom: prices[l.at]! * pxPerUnit, top: prices[l.at]! * pxPerUnit + 17 }));
  const overlaps = (bs: ReturnType<typeof boxes>): boolean =>
    bs.some((a, i) => bs.some((b, j) => i < j && a.slot === b.slot && a.bottom < b.top && b.bottom < a.top));

  it('puts close lines side by side, and far ones each on the left', () => {
    // 100 px per unit: 3.60 and 3.61 are 1 px apart, 3.80 is 19 px above 3.61.
    const prices = [3.61, 3.8, 3.6];
    const labels = layoutLabels(prices, { pxPerUnit: 100, labelPx: 17, slots: 3 });
    expect(labels).toEqual([
      { lines: [2], at: 2, slot: 0 },
      { lines: [0], at: 0, slot: 1 },
      { lines: [1], at: 1, slot: 0 },
    ]);
    expect(overlaps(boxes(prices, labels, 100))).toBe(false);
  });

  it('merges a cluster larger than the width holds into one label, above its highest line', () => {
    const prices = [3.6, 3.605, 3.61, 3.615, 3.9];
    expect(layoutLabels(prices, { pxPerUnit: 100, labelPx: 17, slots: 3 })).toEqual([
      { lines: [0, 1, 2, 3], at: 3, slot: 0 },
      { lines: [4], at: 4, slot: 0 },
    ]);
    // A narrow chart holds one label a row: two close lines are merged too.
    expect(layoutLabels([3.6, 3.61], { pxPerUnit: 100, labelPx: 17, slots: 1.6 })).toEqual([
      { lines: [0, 1], at: 1, slot: 0 },
    ]);
  });

  it('never lets two labels overlap, however the lines fall and however wide the plot', () => {
    // Labels 190 px wide and 17 px tall on plots one to four labels wide, as many side by side as
    // fit: each label a box, at its slot's place (left, middle or right) and above its line.
    const w = 190;
    const at = (pos: string, plot: number): [number, number] =>
      pos === 'insideStartTop'
        ? [0, w]
        : pos === 'insideEndTop'
          ? [plot - w, plot]
          : [plot / 2 - w / 2, plot / 2 + w / 2];
    for (let seed = 1; seed < 600; seed++) {
      let x = seed;
      const rnd = (): number => (x = (x * 16807) % 2147483647) / 2147483647;
      // A small seed's first draws are tiny: past them, the draws spread over [0, 1).
      for (let k = 0; k < 3; k++) rnd();
      const plot = w * (1 + rnd() * 3);
      const slots = Math.min(3, Math.floor(plot / w));
      const places = labelPositions(slots);
      // 2 to 10 lines within 150 px.
      const prices = Array.from({ length: 2 + (seed % 9) }, () => 3 + rnd() * 0.5);
      const labels = layoutLabels(prices, { pxPerUnit: 300, labelPx: 17, slots });
      const boxes = labels.map((l) => {
        const [left, right] = at(places[l.slot]!, plot);
        const bottom = prices[l.at]! * 300;
        return { left, right, bottom, top: bottom + 17 };
      });
      for (const [i, a] of boxes.entries())
        for (const b of boxes.slice(i + 1))
          expect(a.left < b.right && b.left < a.right && a.bottom < b.top && b.bottom < a.top).toBe(false);
      // Every line is labelled, alone or in a merged label, once.
      expect(labels.flatMap((l) => l.lines).sort((a, b) => a - b)).toEqual(prices.map((_, i) => i));
    }
  });

  it('puts two labels side by side at the ends, three at the ends and the middle', () => {
    expect(labelPositions(1)).toEqual(['insideStartTop']);
    expect(labelPositions(2)).toEqual(['insideStartTop', 'insideEndTop']);
    expect(labelPositions(3)).toEqual(['insideStartTop', 'insideMiddleTop', 'insideEndTop']);
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
