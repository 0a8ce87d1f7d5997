import { afterEach, describe, expect, it, vi } from 'vitest';
import { digestCommand } from '../../../src/cli/digest-command';
import { CREDITS_KEY } from '../../../src/main/core/credits/credit-meter';
import { PORTFOLIO_CACHE_KEY } from '../../../src/main/core/risk/risk-refresh';
import { MemorySecretStore, SettingsService } from '../../../src/main/core/settings';
import { Store } from '../../../src/main/core/store/store';
import { NO_CHANNELS } from '../../../src/main/core/store/risk-alert-repo';
import type { PortfolioSummary } from '../../../src/shared/contract';
import { CORE_LOCALE, dayText } from '../../../src/shared/format';
import { tempDir } from '../../support/monitor';
import { suiLong } from '../../support/positions';

/**
 * `tidewatch digest --now` prints the digest from the store alone: a wallet of the group "mine"
 * with its position now and 24 h before, a watched wallet's alert by its label, the credits
 * against the Builder plan, every figure by shared/format.ts.
 */
const MINE = `0x${'a1'.repeat(32)}`;
const THEIRS = `0x${'b2'.repeat(32)}`;
const MANAGER = `0x${'c3'.repeat(32)}`;
const HOUR = 3_600_000;
const dirs: Array<{ remove(): void }> = [];
afterEach(() => {
  vi.restoreAllMocks();
  for (const d of dirs.splice(0)) d.remove();
});

const pad = (n: number): string => String(n).padStart(2, '0');

/** A store in a fresh data dir (removed after the test), no channel routed, watching MINE as "desk". */
function deskStore() {
  const dir = tempDir();
  dirs.push(dir);
  const store = Store.open(dir.dir);
  store.risk.routeWith(NO_CHANNELS);
  store.settings.addWatch(MINE, 'desk', 0);
  return { dir, store };
}

describe('tidewatch digest --now', () => {
  it('prints the digest of the store: own positions now and 24 h before, the day’s alerts and credits', () => {
    const { dir, store } = deskStore();
    const now = Date.now();
    store.settings.addWatch(THEIRS, 'whale', 0, 'watched');
    new SettingsService(store.settings, new MemorySecretStore()).update({
      network: 'custom',
      baseUrl: 'https://service.example',
      plan: 'builder',
    });
    const d = new Date(now);
    store.settings.set(CREDITS_KEY, {
      day: `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`,
      month: `${d.getFullYear()}-${pad(d.getMonth() + 1)}`,
      today: 1_240,
      thisMonth: 125_000,
      estimated: 0,
      streamedKb: 0,
    });
    const position = suiLong({
      manager_id: MANAGER,
      owner: MINE,
      pool_name: 'SUI_USDC',
      side: 'long',
      size: 1000,
      level: 'ok',
      distance_pct: -25,
      interest: {
        apr: 0.1825,
        apr_source: 'curve',
        accrued: null,
        accrued_usd: null,
        symbol: 'USDC',
        liquidation_in_ms: null,
      },
    });
    const wallet = (owner: string, label: string) => ({
      owner,
      label,
      positions: owner === MINE ? [position] : [{ ...position, owner, manager_id: `0x${'d4'.repeat(32)}` }],
      supplies: [],
      totals: { collateral_usd: 0, debt_usd: 0, equity_usd: 0, supplied_usd: 0, unpriced: 0 },
    });
    const portfolio: PortfolioSummary = {
      wallets: [wallet(MINE, 'desk'), wallet(THEIRS, 'whale')],
      prices: [],
      computed_at: now - 60_000,
    };
    store.cache.save(PORTFOLIO_CACHE_KEY, portfolio, now - 60_000);
    store.risk.addReadings([
      {
        manager_id: MANAGER,
        owner: MINE,
        ts_ms: now - 25 * HOUR,
        risk_ratio: 1.8,
        debt_usd: 1111,
        assets_usd: 2000,
        distance_pct: -30,
      },
    ]);
    const alert = (owner: string, level: 'warning' | 'info', title: string, at: number) =>
      store.risk.addAlert({
        dedupe_key: `test:${owner}:${at}`,
        rule: 'risk-threshold',
        level,
        manager_id: MANAGER,
        owner,
        event_id: null,
        title,
        message: 'm',
        created_at: at,
      });
    alert(MINE, 'warning', 'Warning — Long SUI', now - 2 * HOUR);
    alert(THEIRS, 'info', 'Critical — Long 9,000.0000 SUI on SUI_USDC: 1.190', now - 3 * HOUR);
    alert(MINE, 'warning', 'Too old to count', now - 30 * HOUR);
    store.close();

    const out: string[] = [];
    vi.spyOn(console, 'log').mockImplementation((line: string) => void out.push(line));
    expect(digestCommand(['--now', '--data-dir', dir.dir])).toBe(0);
    const [title, blank, ...lines] = out.join('\n').split('\n');
    expect(title).toBe(`Tidewatch digest, ${dayText(now, CORE_LOCALE)}`);
    expect(blank).toBe('');
    // The book at a glance first: its totals now and 24 h before, and a day's interest.
    expect(lines[0]).toMatch(
      /^Assets \$[\d,.]+, debt \$[\d,.]+, equity \$[\d,.]+ \(\$[\d,.]+ 24 h before\); interest about \$0\.63 a day at today's rates\.$/,
    );
    // Nearer its liquidation than 24 h before: named.
    expect(lines[1]).toMatch(/^Your 1 position, valued \d{1,2}:\d{2}:\d{2} [AP]M UTC \(24 h before in brackets\):$/);
    expect(lines.slice(2)).toEqual([
      '• desk: Long 1,000.0000 SUI on SUI_USDC: ratio 1.600 (1.800), distance \u221225.0\u202F% (\u221230.0\u202F%); interest 0.63 USDC in 24 h at 18.25\u202F%.',
      'Liquidations of your positions in 24 h: none.',
      'Alerts in 24 h: 1 (1 warning) on your positions besides liquidations; 1 on watched wallets; 0 about Tidewatch itself.',
      'Watched wallets:',
      `• whale: Critical — Long 9,000.0000 SUI on SUI_USDC: 1.190 at ${new Date(now - 3 * HOUR).toLocaleTimeString('en-US', { hour: 'numeric', minute: '2-digit', timeZoneName: 'short' })}`,
      'Credits: 125,000 of 5,000,000 this month (2.5\u202F%), 1,240 today so far.',
    ]);
  });

  it("writes its times on the clock of the digest's zone, as the app sends it", () => {
    const dir = tempDir();
    dirs.push(dir);
    const now = Date.now();
    const store = Store.open(dir.dir);
    store.settings.addWatch(MINE, 'desk', 0);
    new SettingsService(store.settings, new MemorySecretStore()).update({
      digestAt: '08:00',
      digestZone: 'Asia/Tokyo',
    });
    const portfolio: PortfolioSummary = { wallets: [], prices: [], computed_at: now - 60_000 };
    store.cache.save(PORTFOLIO_CACHE_KEY, portfolio, now - 60_000);
    store.close();
    const out: string[] = [];
    vi.spyOn(console, 'log').mockImplementation((line: string) => void out.push(line));
    expect(digestCommand(['--now', '--data-dir', dir.dir])).toBe(0);
    const [title, , first] = out.join('\n').split('\n');
    expect(title).toBe(`Tidewatch digest, ${dayText(now, CORE_LOCALE, 'Asia/Tokyo')}`);
    // The machine is in UTC (vitest.config.ts): the valuation's time is Tokyo's, named.
    expect(first).toMatch(/valued \d{1,2}:\d{2}:\d{2} [AP]M GMT\+9\)\.$/);
  });

  it('names each liquidated position and what it took, one line a manager', () => {
    const { dir, store } = deskStore();
    const now = Date.now();
    const OTHER = `0x${'e5'.repeat(32)}`;
    const position = (manager_id: string, side: 'long' | 'short') =>
      suiLong({
        manager_id,
        owner: MINE,
        pool_name: 'SUI_USDC',
        side,
        base_decimals: 9,
        quote_decimals: 6,
        interest: { apr: 0.1825 },
        debts: side === 'long' ? [{ margin_pool_id: 'mp-usdc', symbol: 'USDC', amount: 500, usd: 500 }] : [],
      } as Partial<PortfolioSummary['wallets'][number]['positions'][number]>);
    const portfolio: PortfolioSummary = {
      wallets: [
        {
          owner: MINE,
          label: 'desk',
          positions: [position(MANAGER, 'long'), position(OTHER, 'short')],
          supplies: [],
          totals: { collateral_usd: 0, debt_usd: 0, equity_usd: 0, supplied_usd: 0, unpriced: 0 },
        },
      ],
      prices: [],
      computed_at: now - 60_000,
    };
    store.cache.save(PORTFOLIO_CACHE_KEY, portfolio, now - 60_000);
    const liquidation = (id: string, manager: string, pool: string, repaid: string, at: number) => {
      store.margin.commit([
        {
          id,
          type: 'dex_margin_manager_updates_liquidation',
          timestamp_ms: at,
          checkpoint_id: Number(id.split('-')[0]),
          tx_hash: `0x${id}`,
          margin_manager_id: manager,
          data: JSON.stringify({
            margin_manager_id: manager,
            margin_pool_id: pool,
            liquidation_amount: repaid,
            pool_reward: '0',
            pool_default: '0',
            risk_ratio: 1_100_000,
            remaining_base_asset: '400000000000',
            remaining_quote_asset: '0',
          }),
          valid: true,
          problem: null,
        },
      ]);
      store.risk.addAlert({
        dedupe_key: `liquidation:${manager}:critical:${id}`,
        rule: 'liquidation',
        level: 'critical',
        manager_id: manager,
        owner: MINE,
        event_id: id,
        title: 'Liquidated: SUI_USDC',
        message: 'm',
        created_at: at,
      });
    };
    liquidation('100-0', MANAGER, 'mp-usdc', '250000000', now - 3 * HOUR);
    liquidation('101-0', MANAGER, 'mp-usdc', '125500000', now - 2 * HOUR);
    liquidation('102-0', OTHER, 'mp-sui', '10000000000', now - HOUR);
    store.close();

    const out: string[] = [];
    vi.spyOn(console, 'log').mockImplementation((line: string) => void out.push(line));
    expect(digestCommand(['--now', '--data-dir', dir.dir])).toBe(0);
    const lines = out.join('\n').split('\n');
    const at = (ms: number) =>
      new Date(ms).toLocaleTimeString('en-US', { hour: 'numeric', minute: '2-digit', timeZoneName: 'short' });
    const from = lines.indexOf('Liquidations of your positions in 24 h: 3.');
    expect(lines.slice(from + 1, from + 3)).toEqual([
      `• ${at(now - 2 * HOUR)}, desk: Long SUI_USDC 0xc3c3c3…c3c3, liquidated 2 times (last): repaid 375.50 USDC, left 400.0000 SUI ($800.00)`,
      `• ${at(now - HOUR)}, desk: Short SUI_USDC 0xe5e5e5…e5e5: repaid 10.0000 SUI ($20.00), left 400.0000 SUI ($800.00)`,
    ]);
  });

  it('asks for --now, and says what to do where no store is kept', () => {
    expect(() => digestCommand([])).toThrow(/give --now/);
    const dir = tempDir();
    dirs.push(dir);
    const err: string[] = [];
    vi.spyOn(console, 'error').mockImplementation((line: string) => void err.push(line));
    expect(digestCommand(['--now', '--data-dir', dir.dir])).toBe(1);
    expect(err.join('\n')).toMatch(
      /^tidewatch: no Tidewatch store in .+ yet\. Watch a wallet in the app \(or serve\) first/,
    );
  });
});
