import { describe, expect, it, vi } from 'vitest';
import { AssetBookCache } from '../../src/main/core/risk/asset-book';
import type { ServiceClient } from '../../src/main/core/client/service-client';
import { levelOf, movePct, priceAtRatio, sideOf, valueAt, type Holdings } from '../../src/shared/risk-model';
import { DEFAULT_LIQUIDATION_RATIO } from '../../src/shared/portfolio';
import { PriceBook, UNSCHEDULED_MAX_AGE_MS } from '../../src/main/core/risk/prices';
import { ThresholdTracker, type TrackerState } from '../../src/main/core/risk/thresholds';
import { AlertEngine } from '../../src/main/core/alerts/alert-engine';
import { Store } from '../../src/main/core/store/store';
import type { PositionSummary, RiskReading } from '../../src/shared/contract';
import { DEFAULT_SETTINGS, MemorySecretStore, SettingsService } from '../../src/main/core/settings';
import { thresholdsFrom } from '../../src/main/core/risk/thresholds';
import { describePosition } from '../../src/main/core/alerts/position-text';

describe('the price that liquidates (worked examples)', () => {
  const L = DEFAULT_LIQUIDATION_RATIO;
  it('a long: 1,000 SUI at $3.00 against 2,400 USDC of debt', () => {
    // Ratio 3000 / 2400 = 1.25. Liquidation at 1.125 needs assets of 2700: SUI at $2.70, a 10% fall.
    const h: Holdings = { base: 1000, quote: 0, debtBase: 0, debtQuote: 2400 };
    expect(valueAt(h, { base: 3, quote: 1 }).ratio).toBeCloseTo(1.25, 12);
    expect(priceAtRatio(h, 1, L)).toBeCloseTo(2.7, 12);
    expect(movePct(3, priceAtRatio(h, 1, L))).toBeCloseTo(-10, 10);
    expect(sideOf(h)).toBe('long');
  });

  it('a long with USDC collateral beside it needs a larger fall', () => {
    // 1000 SUI at $3 + 600 USDC = 3600 vs 3000 debt: ratio 1.2; at 1.125 assets are 3375: SUI at 2.775 (-7.5%).
    const h: Holdings = { base: 1000, quote: 600, debtBase: 0, debtQuote: 3000 };
    expect(valueAt(h, { base: 3, quote: 1 }).ratio).toBeCloseTo(1.2, 12);
    expect(movePct(3, priceAtRatio(h, 1, L))).toBeCloseTo(-7.5, 10);
  });

  it('a short: 3,750 USDC against 1,000 SUI of debt at $3.00', () => {
    // Ratio 3750 / 3000 = 1.25; at 1.125, 3750 = 1.125 * 1000 * P: P = 3.3333, a rise of 11.11%.
    const h: Holdings = { base: 0, quote: 3750, debtBase: 1000, debtQuote: 0 };
    expect(valueAt(h, { base: 3, quote: 1 }).ratio).toBeCloseTo(1.25, 12);
    expect(priceAtRatio(h, 1, L)).toBeCloseTo(3.333333, 5);
    expect(movePct(3, priceAtRatio(h, 1, L))).toBeCloseTo(11.111111, 5);
    expect(sideOf(h)).toBe('short');
  });

  it('no debt or no exposure to the base price: no liquidation price', () => {
    expect(priceAtRatio({ base: 10, quote: 0, debtBase: 0, debtQuote: 0 }, 1, L)).toBeNull();
    expect(priceAtRatio({ base: 0, quote: 100, debtBase: 0, debtQuote: 50 }, 1, L)).toBeNull();
  });
});

describe('the pricing rule', () => {
  const pool = {
    pool_id: 'p',
    pool_name: 'SUI_USDC',
    base_asset_id: '0x2::sui::SUI',
    base_asset_symbol: 'SUI',
    base_asset_decimals: 9,
    quote_asset_id: '0x5::usdc::USDC',
    quote_asset_symbol: 'USDC',
    quote_asset_decimals: 6,
  } as never;
  // SUI_USDC raw price 3,000,000 is $3.00 (9 - 9 + 6 decimals).
  const client = (fail: { now: boolean }, asked: string[] = [], lastTrade: number | null = 3_000_000) =>
    ({
      trades: async () => {
        asked.push('trades');
        if (fail.now) throw new Error('down');
        return lastTrade === null ? [] : [{ price: lastTrade }];
      },
      depth: async () => {
        asked.push('depth');
        if (fail.now) throw new Error('down');
        return { bids: [{ price: 2_990_000 }], asks: [{ price: 3_030_000 }] };
      },
    }) as never;

  it('a stablecoin is $1; otherwise the last exchange trade, read again only when old', async () => {
    const asked: string[] = [];
    const book = new PriceBook(
      () => client({ now: false }, asked),
      () => [pool],
    );
    expect(await book.quote('0x5::usdc::USDC', 1_000)).toMatchObject({ usd: 1, source: 'stablecoin' });
    expect(await book.quote('0x2::sui::SUI', 1_000)).toMatchObject({ usd: 3, source: 'exchange', at: 1_000 });
    // Nobody schedules it: read again only once older than UNSCHEDULED_MAX_AGE_MS.
    expect(await book.quote('0x2::sui::SUI', 2_000)).toMatchObject({ at: 1_000 });
    expect(asked).toEqual(['trades']);
    expect(await book.quote('0x2::sui::SUI', 1_000 + UNSCHEDULED_MAX_AGE_MS)).toMatchObject({
      usd: 3,
      source: 'exchange',
      at: 1_000 + UNSCHEDULED_MAX_AGE_MS,
    });
    expect(asked).toEqual(['trades', 'trades']);
    // The schedule reads when it wants; concurrent reads share one request.
    await Promise.all([book.read('0x2::sui::SUI', 5_000), book.read('0x2::sui::SUI', 5_000)]);
    expect(asked).toEqual(['trades', 'trades', 'trades']);
  });

  it('a pool with no trade of the last day is priced at its book mid', async () => {
    const asked: string[] = [];
    const book = new PriceBook(
      () => client({ now: false }, asked, null),
      () => [pool],
    );
    expect(await book.quote('0x2::sui::SUI', 1_000)).toMatchObject({ usd: 3.01, source: 'exchange' });
    expect(asked).toEqual(['trades', 'depth']);
  });

  it('offline, the last price stays with its age', async () => {
    const fail = { now: false };
    const book = new PriceBook(
      () => client(fail),
      () => [pool],
    );
    await book.quote('0x2::sui::SUI', 1_000);
    fail.now = true;
    expect(await book.quote('0x2::sui::SUI', 1_000 + UNSCHEDULED_MAX_AGE_MS + 1)).toMatchObject({
      usd: 3,
      source: 'exchange',
      at: 1_000,
    });
  });
});

describe('thresholds with hysteresis and cooldown', () => {
  const t = { warning: 1.5, critical: 1.25, near_pct: null };

  it('alerts once per crossing while a ratio hovers at a threshold', () => {
    const tr = new ThresholdTracker(0.02, 60_000);
    const ratios = [1.6, 1.49, 1.51, 1.49, 1.505, 1.495, 1.52, 1.49];
    const fired = ratios.map((r, i) => tr.observe('m', r, t, i * 1000));
    expect(fired.filter((x) => x !== null)).toEqual(['warning']);
  });

  it('escalates to critical, and alerts again after recovering past the hysteresis and the cooldown', () => {
    const tr = new ThresholdTracker(0.02, 10_000);
    expect(tr.observe('m', 1.45, t, 0)).toBe('warning');
    expect(tr.observe('m', 1.2, t, 1000)).toBe('critical');
    expect(tr.observe('m', 1.26, t, 2000)).toBeNull(); // above 1.25 but inside the hysteresis band
    expect(tr.level('m')).toBe('critical');
    expect(tr.observe('m', 1.6, t, 3000)).toBeNull();
    expect(tr.level('m')).toBe('ok');
    expect(tr.observe('m', 1.45, t, 5000)).toBeNull(); // within the cooldown of the last warning
    expect(tr.observe('m', 1.6, t, 6000)).toBeNull();
    expect(tr.observe('m', 1.45, t, 20_000)).toBe('warning');
  });

  it('after a liquidation the position starts again: a second approach within the cooldown is alerted', () => {
    const tr = new ThresholdTracker(0.02, 15 * 60_000);
    expect(tr.observe('m', 1.2, t, 0)).toBe('critical');
    expect(tr.observe('m', 1.2, t, 60_000)).toBeNull();
    tr.forget('m');
    expect(tr.level('m')).toBe('ok');
    expect(tr.observe('m', 1.2, t, 120_000)).toBe('critical');
  });

  it('keeps managers apart', () => {
    const tr = new ThresholdTracker();
    expect(tr.observe('a', 1.4, t)).toBe('warning');
    expect(tr.observe('b', 1.4, t)).toBe('warning');
  });

  it('hands over its levels and the alert times inside the cooldown, and takes them back', () => {
    const tr = new ThresholdTracker(0.02, 10_000);
    tr.observe('a', 1.4, t, 0);
    tr.observe('b', 1.2, t, 5_000);
    tr.observe('c', 1.6, t, 5_000);
    const state = tr.state(12_000);
    expect(state).toEqual({ levels: { a: 'warning', b: 'critical' }, lastAlertAt: { 'b:critical': 5_000 } });
    const again = new ThresholdTracker(0.02, 10_000);
    again.restore(JSON.parse(JSON.stringify(state)) as TrackerState);
    expect(again.observe('a', 1.4, t, 13_000)).toBeNull();
    expect(again.observe('b', 1.2, t, 13_000)).toBeNull();
    expect(again.observe('a', 1.2, t, 13_000)).toBe('critical');
  });

  it('a restarted app does not alert again a position still below its threshold, and alerts one that got worse', () => {
    const store = Store.openInMemory();
    try {
      const reading = (manager_id: string, risk_ratio: number, ts_ms: number): RiskReading => ({
        manager_id,
        owner: '0xowner',
        ts_ms,
        risk_ratio,
        debt_usd: 100,
        assets_usd: 140,
        distance_pct: -5,
      });
      const levels = {
        load: () => store.settings.get<TrackerState>('risk.levels'),
        save: (s: TrackerState) => store.settings.set('risk.levels', s),
      };
      const start = (): { engine: AlertEngine; pushed: string[] } => {
        const pushed: string[] = [];
        const engine = new AlertEngine(
          store.risk,
          (a) => pushed.push(...a.map((x) => `${x.manager_id}:${x.level}`)),
          15 * 60_000,
          () => {},
          levels,
        );
        return { engine, pushed };
      };
      const first = start();
      first.engine.onReadings([reading('a', 1.4, 1_000), reading('b', 1.3, 1_000)], () => t, 1_000);
      expect(first.pushed).toEqual(['a:warning', 'b:warning']);
      // Restarted: the same positions, still below the warning threshold; then one of them worse.
      const second = start();
      second.engine.onReadings([reading('a', 1.41, 60_000), reading('b', 1.3, 60_000)], () => t, 60_000);
      expect(second.pushed).toEqual([]);
      second.engine.onReadings([reading('a', 1.41, 90_000), reading('b', 1.2, 90_000)], () => t, 90_000);
      expect(second.pushed).toEqual(['b:critical']);
      // Without the kept levels (as before) the restart alerted both again.
      const forgetful = new AlertEngine(store.risk, () => {}, 15 * 60_000);
      expect(forgetful.onReadings([reading('a', 1.41, 120_000)], () => t, 120_000).map((x) => x.level)).toEqual([
        'warning',
      ]);
    } finally {
      store.close();
    }
  });
});

describe('the asset book, loaded in the background', () => {
  it('after a failed load is not asked again for 10 s by what does not wait (every batch, every alert), and at once after a service change', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      let asked = 0;
      const down = async (): Promise<never> => {
        throw new Error('service down');
      };
      // A load asks its four reads together: `pools` counts the loads.
      const client = {
        pools: async () => {
          asked++;
          return down();
        },
        activeSupplies: down,
        marginPools: down,
        registeredDexPools: down,
      } as unknown as ServiceClient;
      const book = new AssetBookCache(
        () => client,
        () => true,
      );
      const settle = (): Promise<void> => new Promise((r) => setImmediate(r));
      expect(book.now()).toBeUndefined();
      await settle();
      for (let i = 0; i < 100; i++) book.now();
      await settle();
      expect(asked).toBe(1);
      // Who waits for it still asks.
      await expect(book.load()).rejects.toThrow('service down');
      expect(asked).toBe(2);
      vi.advanceTimersByTime(10_000);
      book.now();
      await settle();
      expect(asked).toBe(3);
      book.reset();
      book.now();
      await settle();
      expect(asked).toBe(4);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('pricing an asset without a stablecoin pool', () => {
  it('takes its trade in a pool quoted in a priced asset, times that asset’s price (NS from NS_SUI and SUI_USDC)', async () => {
    const sui = {
      pool_id: 's',
      pool_name: 'SUI_USDC',
      base_asset_id: '0x2::sui::SUI',
      base_asset_symbol: 'SUI',
      base_asset_decimals: 9,
      quote_asset_id: '0x5::usdc::USDC',
      quote_asset_symbol: 'USDC',
      quote_asset_decimals: 6,
    } as never;
    const ns = {
      pool_id: 'n',
      pool_name: 'NS_SUI',
      base_asset_id: '0x7::ns::NS',
      base_asset_symbol: 'NS',
      base_asset_decimals: 6,
      quote_asset_id: '0x2::sui::SUI',
      quote_asset_symbol: 'SUI',
      quote_asset_decimals: 9,
    } as never;
    const asked: string[] = [];
    // SUI at $3.00; NS at 0.05 SUI: raw 0.05 * 10^(9 - 6 + 9) = 5e10.
    const client = {
      trades: async (pool: string) => (asked.push(pool), [{ price: pool === 'SUI_USDC' ? 3_000_000 : 50_000_000_000 }]),
    } as never;
    const book = new PriceBook(
      () => client,
      () => [sui, ns],
    );
    expect(book.readable('0x7::ns::NS')).toBe(true);
    expect(book.pricingPool('0x7::ns::NS')).toBe(ns);
    expect((await book.quote('0x7::ns::NS', 1_000))!.usd).toBeCloseTo(0.15, 9);
    expect(asked).toEqual(['NS_SUI', 'SUI_USDC']);
  });
});

describe('thresholds that mean something', () => {
  it('settings saved with the old defaults (1.5 / 1.25) take the new ones; a choice of the user stays', () => {
    const store = Store.openInMemory();
    try {
      const s = new SettingsService(store.settings, new MemorySecretStore());
      store.settings.set('settings', { warningRatio: 1.5, criticalRatio: 1.25 });
      expect(s.get()).toMatchObject({
        warningRatio: DEFAULT_SETTINGS.warningRatio,
        criticalRatio: DEFAULT_SETTINGS.criticalRatio,
        nearLiquidationPct: 3,
      });
      store.settings.set('settings', { warningRatio: 1.6, criticalRatio: 1.25 });
      expect(s.get()).toMatchObject({ warningRatio: 1.6, criticalRatio: 1.25 });
      // Chosen now, 1.5 / 1.25 stay: only settings saved before the change are moved.
      s.update({ warningRatio: 1.5, criticalRatio: 1.25 });
      expect(s.get()).toMatchObject({ warningRatio: 1.5, criticalRatio: 1.25 });
      expect(s.get()).not.toHaveProperty('version');
    } finally {
      store.close();
    }
  });

  it('a healthy 3-5x long (ratio 1.25-1.5) is ok by default; within 3 % of its liquidation price it is critical at any ratio', () => {
    const t = thresholdsFrom(DEFAULT_SETTINGS, {})('m', { liquidation: 1.125 });
    for (const ratio of [1.25, 1.33, 1.5]) expect(levelOf(ratio, (1.125 / ratio - 1) * 100, t, 1.125)).toBe('ok');
    expect(levelOf(1.19, -5.5, t, 1.125)).toBe('warning');
    expect(levelOf(1.3, -2.9, t, 1.125)).toBe('critical');
    expect(levelOf(1.1, -1, t, 1.125)).toBe('liquidatable');
    // A pool that liquidates at 1.2 moves the ratio thresholds alike; a manager's own stay as set.
    expect(thresholdsFrom(DEFAULT_SETTINGS, {})('m', { liquidation: 1.2 })).toEqual({
      warning: 1.275,
      critical: 1.225,
      near_pct: 3,
    });
    expect(thresholdsFrom(DEFAULT_SETTINGS, { m: { warning: 2, critical: 1.5 } })('m', { liquidation: 1.2 })).toEqual({
      warning: 2,
      critical: 1.5,
      near_pct: 3,
    });
  });

  it("an alert gives the valuation's own figures and what to do", () => {
    const h = { base: 1000, quote: 0, debtBase: 0, debtQuote: 2600 };
    const p = {
      pool_name: 'SUI_USDC',
      moving_symbol: 'SUI',
      collateral_usd: 3000,
      debt_usd: 2600,
      risk_ratio: 3000 / 2600,
      liquidation_ratio: 1.125,
      liquidation_price: priceAtRatio(h, 1, 1.125),
      distance_pct: movePct(3, priceAtRatio(h, 1, 1.125)),
      debts: [{ margin_pool_id: 'm', symbol: 'USDC', amount: 2600, usd: 2600 }],
      repair: {
        target: 1.2,
        deposits: [{ symbol: 'USDC', amount: 120, usd: 120 }],
        repay: { symbol: 'USDC', amount: 100, usd: 100 },
        liquidation_price_after: null,
      },
    } as unknown as PositionSummary;
    expect(describePosition(p).text).toBe(
      'Assets $3,000, debt 2,600 USDC ($2,600): ratio 1.154. SUI at $2.925 (-2.5 %) liquidates it. Deposit 120 USDC or repay 100 USDC to get back to 1.20.',
    );
  });
});
