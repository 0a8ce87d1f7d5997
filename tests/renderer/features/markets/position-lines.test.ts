import { describe, expect, it } from 'vitest';
import {
  drawnLines,
  positionLineRows,
  withinReach,
  type PositionLine,
} from '../../../../src/renderer/src/features/markets/position-lines';

describe("the watched positions' lines on a pool chart", () => {
  const line = (manager_id: string, kind: PositionLine['kind'], price: number, distance: number | null = null) =>
    ({ manager_id, kind, price, side: 'long', distance, movedAt: kind === 'break-even' ? 7 : null }) as PositionLine;
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
