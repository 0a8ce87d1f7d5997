import { describe, expect, it } from 'vitest';
import { spreadLabels } from '../../src/renderer/src/charts';

/** Every pair of neighbours (in their heights' order) at least `gap` apart, and that order kept. */
function expectSpread(ys: readonly number[], out: readonly number[], gap: number): void {
  const order = ys.map((y, i) => [y, i] as const).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  for (let k = 1; k < order.length; k++) {
    expect(out[order[k]![1]]! - out[order[k - 1]![1]]!).toBeGreaterThanOrEqual(gap);
  }
}

describe('spreading the labels beside a chart', () => {
  it('leaves labels already a gap apart where they are', () => {
    expect(spreadLabels([40, 100, 70], 14)).toEqual([40, 100, 70]);
  });

  it('spreads two touching labels evenly about their lines', () => {
    // 1.250 and 1.240 of a risk chart, 4 px apart: 5 px up and 5 px down.
    expect(spreadLabels([100, 104], 14)).toEqual([95, 109]);
  });

  it('keeps the given order, also for labels at one height', () => {
    const ys = [60, 60, 60];
    const out = spreadLabels(ys, 14);
    expect(out).toEqual([46, 60, 74]);
    expectSpread(ys, out, 14);
  });

  it('a run that meets a neighbour takes it in, and every label ends at least a gap apart', () => {
    const ys = [100, 104, 108, 121, 160];
    const out = spreadLabels(ys, 14);
    expectSpread(ys, out, 14);
    // The first four become one run centred on where they want to be (mean offset start 87.25).
    expect(out.slice(0, 4)).toEqual([87, 101, 115, 129]);
    expect(out[4]).toBe(160);
  });

  it('pushes a run inside its bounds, at the top and at the bottom', () => {
    expect(spreadLabels([2, 5], 14, { top: 7, bottom: 200 })).toEqual([7, 21]);
    expect(spreadLabels([199, 196, 150], 14, { top: 7, bottom: 200 })).toEqual([200, 186, 150]);
  });

  it('starts at the top and runs past the bottom when more labels come than the span holds', () => {
    const ys = [10, 11, 12, 13];
    const out = spreadLabels(ys, 14, { top: 0, bottom: 30 });
    expect(out).toEqual([0, 14, 28, 42]);
  });

  it('holds the gap for random heights, in any order', () => {
    let seed = 7;
    const random = (): number => ((seed = (seed * 16_807) % 2_147_483_647) / 2_147_483_647) * 300;
    for (let n = 1; n < 40; n++) {
      const ys = Array.from({ length: n }, random);
      const out = spreadLabels(ys, 14, { top: 7, bottom: 7 + 14 * 40 });
      expectSpread(ys, out, 14);
      for (const y of out) {
        expect(Number.isInteger(y)).toBe(true);
        expect(y).toBeGreaterThanOrEqual(7);
      }
    }
  });
});
