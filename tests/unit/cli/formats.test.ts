import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { exportCommand } from '../../../src/cli/export-command';
import { riskCommand } from '../../../src/cli/risk-command';
import { readingOf } from '../../../src/main/core/risk/positions';
import { PORTFOLIO_CACHE_KEY } from '../../../src/main/core/risk/risk-refresh';
import { Store } from '../../../src/main/core/store/store';
import { csvRow, positionRow, RISK_COLUMNS } from '../../../src/shared/csv';
import { isoTime } from '../../../src/shared/format';
import { FormatScan } from '../../support/format-rules';
import { tempDir } from '../../support/monitor';
import { LONG_SUI, SHORT_SUI, SUMMARY } from '../../renderer/support/portfolio';

/**
 * What the command line prints, by the product's rules (docs/formats.md), read in New York as the
 * trader of issue 40 read it: `export risk` as the Portfolio's CSV speaks, `risk`'s text.
 */
const ZONE = process.env['TZ'];
process.env['TZ'] = 'America/New_York';
afterAll(() => {
  process.env['TZ'] = ZONE;
});

/** What `tidewatch export risk` prints for a store holding these readings. */
function exported(format: 'jsonl' | 'csv', fill: (store: Store) => void): string[] {
  const dir = tempDir();
  try {
    const store = Store.open(dir.dir);
    fill(store);
    store.close();
    let out = '';
    const write = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
      out += String(chunk);
      return true;
    });
    try {
      expect(exportCommand(['risk', '--data-dir', dir.dir, '--format', format])).toBe(0);
    } finally {
      write.mockRestore();
    }
    return out.trimEnd().split('\n');
  } finally {
    dir.remove();
  }
}

afterEach(() => vi.restoreAllMocks());

describe('tidewatch export risk', () => {
  // Two readings of one valuation, as the risk loop stores them (its level the one every view shows).
  const readings = [LONG_SUI, SHORT_SUI].map((p) => readingOf(p, p.valued_at));

  it("speaks like the Portfolio's CSV: its column names, its figures, ISO 8601 times with the offset", () => {
    const [header, ...rows] = exported('csv', (s) => s.risk.addReadings(readings));
    expect(header).toBe(RISK_COLUMNS.join(','));
    expect(header).toBe(
      'valued_at,owner,manager_id,pool,side,size,base_symbol,quote_symbol,price_usd,break_even_price,assets_usd,debt_usd,risk_ratio,level,liquidation_price,distance_pct',
    );
    // Each row is the Portfolio's row of the position, cut to these columns: the same cells.
    expect(rows).toEqual(
      [LONG_SUI, SHORT_SUI]
        .sort((a, b) => a.manager_id.localeCompare(b.manager_id))
        .map((p) => {
          const row = positionRow(p.owner, null, p);
          return csvRow(RISK_COLUMNS.map((c) => row[c]));
        }),
    );
    // In the zone it runs in, with its offset (New York's, winter or summer).
    expect(rows[0]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}-0[45]:00,/);
    expect(rows[0]!.split(',')[0]).toBe(isoTime(LONG_SUI.valued_at));
  });

  it('gives the same in JSON lines, and leaves empty what a reading of an older Tidewatch did not keep', () => {
    const old = {
      manager_id: '0xold',
      owner: '0xowner',
      ts_ms: Date.UTC(2026, 10, 1, 9, 30),
      risk_ratio: 1.4,
      debt_usd: 1000,
      assets_usd: 1400,
      distance_pct: -18.5,
    };
    const lines = exported('jsonl', (s) => s.risk.addReadings([old, readings[0]!])).map(
      (l) => JSON.parse(l) as Record<string, unknown>,
    );
    expect(lines.map((l) => Object.keys(l))).toEqual([[...RISK_COLUMNS], [...RISK_COLUMNS]]);
    expect(lines[0]).toEqual({
      valued_at: '2026-11-01T04:30:00.000-05:00',
      owner: '0xowner',
      manager_id: '0xold',
      pool: null,
      side: null,
      size: null,
      base_symbol: null,
      quote_symbol: null,
      price_usd: null,
      break_even_price: null,
      assets_usd: 1400,
      debt_usd: 1000,
      risk_ratio: 1.4,
      level: null,
      liquidation_price: null,
      distance_pct: -18.5,
    });
    expect(lines[1]).toMatchObject({
      manager_id: LONG_SUI.manager_id,
      pool: 'SUI_USDC',
      side: 'long',
      size: LONG_SUI.size,
      break_even_price: LONG_SUI.pnl.break_even_price,
      liquidation_price: LONG_SUI.liquidation_price,
      level: LONG_SUI.level,
      distance_pct: LONG_SUI.distance_pct,
    });
  });
});

describe('tidewatch risk', () => {
  it('writes its money, moves and time by the rules the app writes them with', async () => {
    const dir = tempDir();
    const out: string[] = [];
    const log = vi.spyOn(console, 'log').mockImplementation((...a: unknown[]) => void out.push(a.join(' ')));
    try {
      const store = Store.open(dir.dir);
      store.cache.save(PORTFOLIO_CACHE_KEY, SUMMARY, SUMMARY.computed_at);
      store.close();
      expect(await riskCommand(['--shock', 'SUI=-15%', '--shock', 'ALL=-2.5%', '--data-dir', dir.dir])).toBe(0);
    } finally {
      log.mockRestore();
      dir.remove();
    }
    const text = out.join('\n');
    expect(text).toContain('SUI \u221215\u202F% and all non-stable assets \u22122.5\u202F%');
    expect(text).toMatch(/from the valuation of [A-Z][a-z]{2} \d{1,2}, \d{1,2}:\d\d:\d\d [AP]M E[SD]T/);
    expect(text).toMatch(/\$[\d,]+\.\d\d of debt repaid by liquidators, equity \u2212\$[\d,]+\.\d\d\./);
    const scan = new FormatScan();
    scan.text('tidewatch risk', text, { zoned: true });
    expect(scan.report()).toBe('');
    expect(scan.checked.percent).toBeGreaterThanOrEqual(4);
    expect(scan.checked.usd).toBeGreaterThanOrEqual(6);
    expect(scan.checked.zone).toBe(1);
  });
});
