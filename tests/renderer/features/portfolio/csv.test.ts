// @vitest-environment happy-dom
import { createPinia, setActivePinia } from 'pinia';
import { beforeEach, describe, expect, it } from 'vitest';
import { positionsToCsv } from '../../../../src/renderer/src/features/portfolio/csv';
import { POSITION_COLUMNS } from '../../../../src/shared/csv';
import { isoTime } from '../../../../src/shared/format';
import { LONG_DEEP, NOW, WALLET } from '../../support/portfolio';

beforeEach(() => setActivePinia(createPinia()));

/** RFC 4180, enough for the export. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cellText = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted && c === '"' && text[i + 1] === '"') {
      cellText += '"';
      i++;
    } else if (c === '"') {
      quoted = !quoted;
    } else if (quoted || (c !== ',' && c !== '\n')) {
      cellText += c;
    } else {
      row.push(cellText);
      cellText = '';
      if (c === '\n') {
        rows.push(row);
        row = [];
      }
    }
  }
  return rows;
}

describe('the Portfolio CSV', () => {
  it('carries side, size, break-even (and the liquidation that moved it), PnL (and whether estimated), APR, accrued interest, level, liquidation price and distance', () => {
    const [header, ...rows] = parseCsv(positionsToCsv([WALLET]));
    expect(header).toEqual([...POSITION_COLUMNS]);
    for (const c of [
      'valued_at',
      'side',
      'size',
      'break_even_price',
      'break_even_moved_at',
      'pnl_usd',
      'pnl_estimated',
      'borrow_apr',
      'accrued_interest',
      'level',
      'liquidation_price',
      'distance_pct',
    ])
      expect(header).toContain(c);
    const byManager = new Map(
      rows.map((r) => [r[header!.indexOf('manager_id')], Object.fromEntries(header!.map((c, i) => [c, r[i]]))]),
    );
    expect(rows).toHaveLength(3);
    const short = byManager.get('0xshort')!;
    expect(short).toMatchObject({
      side: 'short',
      size: '-1200',
      pnl_usd: '200',
      pnl_estimated: 'true',
      borrow_apr: '0.121',
      accrued_interest: '3.2',
      accrued_interest_symbol: 'SUI',
      level: 'warning',
      price_source: 'oracle',
    });
    // When the snapshot the row is of was valued (the time the Portfolio shows), in ISO 8601 with the zone's offset.
    const valuedAt = WALLET.positions.find((p) => p.manager_id === '0xshort')!.valued_at;
    expect(short['valued_at']).toBe(isoTime(valuedAt));
    expect(short['valued_at']).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}[+-]\d\d:\d\d$/);
    expect(Date.parse(short['valued_at']!)).toBe(valuedAt);
    expect(short['pnl_note']).toBe(
      "Some SUI moves are valued at the nearest price Tidewatch knows, not their own time's.",
    );
    expect(Number(short['liquidation_price'])).toBeCloseTo(5000 / 1350, 9);
    expect(Number(short['distance_pct'])).toBeCloseTo((5000 / 1350 / 3.5 - 1) * 100, 9);
    expect(Number(short['break_even_price'])).toBeCloseTo(3.5 + 200 / 1200, 9);
    expect(Date.parse(short['break_even_moved_at']!)).toBe(NOW - 3_600_000);
    expect(header!.some((c) => c.includes('entry'))).toBe(false);
    const deep = byManager.get('0xdeep')!;
    expect(deep).toMatchObject({
      side: 'long',
      size: '100000',
      pnl_usd: '',
      break_even_price: '',
      break_even_moved_at: '',
      pnl_estimated: 'false',
      level: 'critical',
      risk_ratio: String(LONG_DEEP.risk_ratio),
    });
  });
});
