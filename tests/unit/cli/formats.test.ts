import { afterAll, describe, expect, it, vi } from 'vitest';
import { riskCommand } from '../../../src/cli/risk-command';
import { PORTFOLIO_CACHE_KEY } from '../../../src/main/core/risk/risk-refresh';
import { Store } from '../../../src/main/core/store/store';
import { FormatScan } from '../../support/format-rules';
import { tempDir } from '../../support/monitor';
import { SUMMARY } from '../../renderer/support/portfolio';

/**
 * What the command line prints, by the product's rules (docs/formats.md), read in New York as the
 * trader of issue 40 read it: `risk`'s text.
 */
const ZONE = process.env['TZ'];
process.env['TZ'] = 'America/New_York';
afterAll(() => {
  process.env['TZ'] = ZONE;
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
    expect(text).toContain('SUI \u221215\u202F%, all non-stable \u22122.5\u202F%');
    expect(text).toMatch(/from the valuation of \d+\/\d+\/\d+, \d{1,2}:\d\d:\d\d [AP]M E[SD]T/);
    expect(text).toMatch(/\$[\d,]+\.\d\d of debt repaid by liquidators, equity \u2212\$[\d,]+\.\d\d\./);
    const scan = new FormatScan();
    scan.text('tidewatch risk', text, { zoned: true });
    expect(scan.report()).toBe('');
    expect(scan.checked.percent).toBeGreaterThanOrEqual(4);
    expect(scan.checked.usd).toBeGreaterThanOrEqual(6);
    expect(scan.checked.zone).toBe(1);
  });
});
