// @vitest-environment happy-dom
import { mount } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { defineComponent, h, nextTick, watch } from 'vue';
import type { Router } from 'vue-router';
import {
  CHART_EVERY_MS,
  LIVE_EVERY_MS,
  TAPE_SIZE,
  useLivePool,
} from '../../src/renderer/src/features/markets/live-pool';
import type { Pool } from '../../src/shared/api';
import type { AlertRecord, CreditForecast, Settings, StatusSnapshot, StreamStatus } from '../../src/shared/contract';
import { ApiError, setApi } from '../../src/renderer/src/api';
import FreshnessBadge from '../../src/renderer/src/components/FreshnessBadge.vue';
import QueryState from '../../src/renderer/src/components/QueryState.vue';
import DistanceBar from '../../src/renderer/src/components/DistanceBar.vue';
import RiskGauge from '../../src/renderer/src/components/RiskGauge.vue';
import StatusBar from '../../src/renderer/src/components/StatusBar.vue';
import PoolView from '../../src/renderer/src/features/markets/PoolView.vue';
import SettingsView from '../../src/renderer/src/features/settings/SettingsView.vue';
import { useAlertsStore } from '../../src/renderer/src/stores/alerts';
import { useStatusStore } from '../../src/renderer/src/stores/status';
import { fakeApi } from '../support/fake-api';
import { routerAt } from './support/router';

const alert = (id: number, patch: Partial<AlertRecord> = {}): AlertRecord => ({
  id,
  rule: 'liquidation',
  level: 'critical',
  manager_id: '0xm',
  owner: '0xo',
  event_id: 'e',
  title: 'Liquidated',
  message: 'm',
  created_at: id,
  acknowledged_at: null,
  snoozed_until: null,
  ...patch,
});

beforeEach(() => setActivePinia(createPinia()));

/** Run `body` with setInterval faked (the 30 s forecast reads), real timers again after it. */
async function withFakeIntervals(body: () => Promise<void>): Promise<void> {
  vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
  try {
    await body();
  } finally {
    vi.useRealTimers();
  }
}

describe('FreshnessBadge', () => {
  it('says how fresh live data is, and marks cached data as stale with its age and reason', () => {
    const live = mount(FreshnessBadge, { props: { meta: { source: 'network', fetchedAt: Date.now(), stale: false } } });
    expect(live.text()).toBe('just now');
    expect(live.classes()).toContain('live');
    const stale = mount(FreshnessBadge, {
      props: { meta: { source: 'cache', fetchedAt: Date.now() - 5 * 60_000, stale: true, reason: 'ECONNREFUSED' } },
    });
    expect(stale.text()).toBe('cached 5 min ago');
    expect(stale.classes()).toContain('stale');
    expect(stale.attributes('title')).toContain('ECONNREFUSED');
  });
});

describe('QueryState', () => {
  it('shows what happened and what to do, and retries', async () => {
    const w = mount(QueryState, {
      props: { loading: false, error: { message: 'The service cannot be reached.', advice: 'It will retry.' } },
    });
    expect(w.text()).toContain('The service cannot be reached.');
    expect(w.text()).toContain('It will retry.');
    await w.get('button').trigger('click');
    expect(w.emitted('retry')).toHaveLength(1);
    const empty = mount(QueryState, { props: { loading: false, empty: true, emptyText: 'No NFTs here.' } });
    expect(empty.text()).toBe('No NFTs here.');
  });
});

describe('RiskGauge', () => {
  it('colours by threshold, with the pool liquidation ratio at its left end', () => {
    expect(mount(RiskGauge, { props: { value: 1.2, warning: 1.5, critical: 1.25 } }).classes()).toContain('critical');
    expect(mount(RiskGauge, { props: { value: 1.4, warning: 1.5, critical: 1.25 } }).classes()).toContain('warning');
    const ok = mount(RiskGauge, { props: { value: 2.1, warning: 1.5, critical: 1.25, liquidation: 1.1 } });
    expect(ok.classes()).toContain('ok');
    expect(ok.text()).toContain('2.100');
    expect(ok.attributes('title')).toContain('liquidation below 1.1');
  });
});

describe('DistanceBar', () => {
  it('names the asset and its liquidation price, and fills as the price nears it', () => {
    const near = mount(DistanceBar, { props: { symbol: 'SUI', liquidationPrice: 3.07, distance: -0.4 } });
    expect(near.text()).toContain('SUI liq. $3.07');
    expect(near.text()).toContain('-0.4%');
    expect(near.classes()).toContain('critical');
    expect(near.attributes('title')).toContain('Liquidated if SUI falls 0.4 % to $3.07');
    const far = mount(DistanceBar, { props: { symbol: 'SUI', liquidationPrice: 2.1, distance: -30.5 } });
    expect(far.classes()).toContain('ok');
    const width = (w: typeof near): number =>
      Number(/width: ([\d.]+)%/.exec(w.get('.fill').attributes('style') ?? '')![1]);
    expect(width(near)).toBeGreaterThan(95);
    expect(width(far)).toBeLessThan(5);
    expect(mount(DistanceBar, { props: { symbol: 'SUI', liquidationPrice: null, distance: null } }).text()).toContain(
      'none',
    );
  });
});

describe('the alerts store', () => {
  it('loads, merges pushed alerts without duplicates, and acknowledges', async () => {
    const f = fakeApi({
      alerts: () => ({ data: [alert(1)], source: 'cache', fetchedAt: 0, stale: false }),
      acknowledgeAlert: ({ id }) => alert(id, { acknowledged_at: 99 }),
    });
    setApi(f.api);
    const store = useAlertsStore();
    store.start();
    await new Promise((r) => setTimeout(r, 0));
    expect(store.alerts.map((a) => a.id)).toEqual([1]);
    f.push('alerts', [alert(2), alert(1)]);
    expect(store.alerts.map((a) => a.id)).toEqual([2, 1]);
    expect(store.open).toHaveLength(2);
    await store.acknowledge(2);
    expect(store.open.map((a) => a.id)).toEqual([1]);
    expect(f.calls).toContainEqual(['acknowledgeAlert', { id: 2 }]);
  });

  it('says so above the list when an alert cannot be acknowledged or snoozed, instead of failing the click', async () => {
    const f = fakeApi({
      alerts: () => ({ data: [alert(1)], source: 'cache', fetchedAt: 0, stale: false }),
      acknowledgeAlert: () => {
        throw new ApiError('bad-argument', 'acknowledgeAlert: there is no alert 1');
      },
      snoozeAlert: () => {
        throw new ApiError('network', 'Tidewatch cannot be reached.');
      },
    });
    setApi(f.api);
    const store = useAlertsStore();
    store.start();
    await new Promise((r) => setTimeout(r, 0));
    await store.acknowledge(1);
    expect(store.error).toBe(
      'The alert could not be acknowledged: There is no alert 1. Reload the list (Retry) and try again.',
    );
    await store.snooze(1, 5);
    expect(store.error).toBe(
      'The alert could not be snoozed: Tidewatch cannot be reached. Reload the list (Retry) and try again.',
    );
    expect(store.open.map((a) => a.id)).toEqual([1]);
    await store.load();
    expect(store.error).toBeUndefined();
  });

  it('keeps every alert the store could not save (id 0) through a reload, until dismissed', async () => {
    const f = fakeApi({ alerts: () => ({ data: [alert(1)], source: 'cache', fetchedAt: 0, stale: false }) });
    setApi(f.api);
    const store = useAlertsStore();
    store.start();
    await new Promise((r) => setTimeout(r, 0));
    const full = alert(0, { rule: 'store-write', title: 'Tidewatch cannot save data', created_at: 5 });
    const liquidated = alert(0, { created_at: 6 });
    f.push('alerts', [full]);
    f.push('alerts', [liquidated]);
    expect(store.alerts.map((a) => [a.id, a.title])).toEqual([
      [0, 'Liquidated'],
      [0, 'Tidewatch cannot save data'],
      [1, 'Liquidated'],
    ]);
    await store.load();
    expect(store.alerts.map((a) => [a.id, a.created_at])).toEqual([
      [0, 6],
      [0, 5],
      [1, 1],
    ]);
    store.dismiss(store.alerts[0]!);
    expect(store.alerts.map((a) => [a.id, a.created_at])).toEqual([
      [0, 5],
      [1, 1],
    ]);
    expect(f.calls.every(([m]) => m === 'alerts')).toBe(true);
  });
});

describe('a busy pool', () => {
  it('renders the book and tape at most every 100 ms and the charts at most once a second, losing no trade', async () => {
    const f = fakeApi({});
    setApi(f.api);
    const renders: number[] = [];
    const charts: Array<{ at: number; trades: number }> = [];
    let tape: ReturnType<typeof useLivePool>['tape'] | undefined;
    const Probe = defineComponent({
      setup() {
        const live = useLivePool(
          () => 'SUI_USDC',
          (trades) => charts.push({ at: performance.now(), trades: trades.length }),
        );
        tape = live.tape;
        // Timed when the book is set, not when Vue's scheduler gets to the watcher (which a busy
        // turn can delay for one render and not the next).
        watch(live.depth, () => renders.push(performance.now()), { flush: 'sync' });
        return () => h('span', String(live.tape.value.length));
      },
    });
    const w = mount(Probe);
    const depth = { pool_id: '0x1', bids: [{ price: 1, total_quantity: 1, order_count: 1 }], asks: [] };
    const started = performance.now();
    let n = 0;
    // 1.5 s of a busy pool: a push every 2 ms, each with a book and two trades.
    while (performance.now() - started < 1_500) {
      const trades = [0, 1].map(() => ({
        event_digest: `d${n++}`,
        checkpoint_timestamp_ms: Date.now(),
        price: 1,
        base_quantity: 1,
        quote_quantity: 1,
        taker_is_bid: true,
      }));
      f.push('pool:SUI_USDC', {
        pool: 'SUI_USDC',
        trades,
        depth: { ...depth, bids: [{ ...depth.bids[0]!, total_quantity: n }] },
      });
      // Now and then trades pushed again, in the same render window and a later one (a reconnect's backfill overlapping the stream).
      if (n % 50 === 0)
        f.push('pool:SUI_USDC', {
          pool: 'SUI_USDC',
          trades: [...trades, { ...trades[0]!, event_digest: `d${n - 30}` }],
          depth: null,
        });
      await new Promise((r) => setTimeout(r, 2));
    }
    await new Promise((r) => setTimeout(r, 1_200));
    const gaps = renders.slice(1).map((t, i) => t - renders[i]!);
    expect(renders.length).toBeGreaterThan(5);
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(LIVE_EVERY_MS - 5);
    const chartGaps = charts.slice(1).map((c, i) => c.at - charts[i]!.at);
    expect(charts.length).toBeGreaterThanOrEqual(2);
    expect(Math.min(...chartGaps)).toBeGreaterThanOrEqual(CHART_EVERY_MS - 5);
    // Every trade reached the charts exactly once, pushed again or not; the tape keeps its newest 200, each once.
    expect(charts.reduce((s, c) => s + c.trades, 0)).toBe(n);
    expect(w.text()).toBe(String(TAPE_SIZE));
    expect(new Set(tape!.value.map((t) => t.event_digest)).size).toBe(TAPE_SIZE);
    w.unmount();
  });
});

const SETTINGS: Settings = {
  network: 'custom',
  baseUrl: 'https://api.example',
  streamUrl: '',
  naming: 'spec',
  plan: 'free',
  requestsPerSecond: 10,
  concurrency: 4,
  streamBudget: 1,
  recordsRefreshSec: 10_800,
  warningRatio: 1.2,
  criticalRatio: 1.15,
  nearLiquidationPct: 3,
  interestAlertDays: 30,
  alertCooldownSec: 900,
  largeLiquidationUsd: null,
  monthlyCreditBudget: null,
  ipfsGateway: 'https://ipfs.io',
  privacyMode: false,
  alertSound: true,
  startAtLogin: false,
  hasApiKey: true,
  keyProtection: 'os-keyring',
  hasStreamKey: false,
  streamKeyPools: [],
};

const FORECAST: CreditForecast = {
  perDay: 6_874,
  lines: [
    { what: 'Margin stream (always open: the liquidation alarm)', perDay: 50, detail: 'assumed until measured' },
    { what: 'SUI price', perDay: 5_760, detail: 'every 5 min, 20 credits a read' },
    {
      what: 'Margin records (loans, deposits, supplies)',
      perDay: 1_064,
      detail: 'every 3.0 h, 40 credits a read (2 wallets)',
    },
  ],
  plan: 'free',
  planLabel: 'Free',
  planMonthlyCredits: 250_000,
  shareOfPlanDay: 6_874 / (250_000 / 30),
  budget: 250_000,
  shareOfBudgetDay: 6_874 / (250_000 / 30),
  poolStreams: [
    { pool: 'SUI_USDC', perHour: 1_234 },
    { pool: 'DEEP_USDC', perHour: null },
  ],
};

const settle = async (): Promise<void> => {
  for (let i = 0; i < 3; i++) {
    await new Promise((r) => setTimeout(r, 0));
    await nextTick();
  }
};

describe('the Settings view: plan and credits', () => {
  const mountSettings = (answers: Record<string, (args: any) => unknown> = {}) => {
    let saved: Settings = { ...SETTINGS };
    const f = fakeApi({
      settings: () => saved,
      watchList: () => [],
      creditForecast: () => FORECAST,
      updateSettings: (patch) => (saved = { ...saved, ...patch }),
      ...answers,
    });
    setApi(f.api);
    return { f, w: mount(SettingsView, { attachTo: document.body }) };
  };

  it('shows the forecast beside the meter: the sentence, where the credits go, and each open pool stream', async () => {
    const { f, w } = mountSettings();
    await settle();
    expect(w.get('[data-testid="forecast-sentence"]').text()).toBe(
      'About 6,900 credits a day at these settings: 82 % of the Free plan (8,333 a day of its 250,000 a month).',
    );
    const rows = w.findAll('[data-testid="forecast-lines"] tbody tr').map((r) => r.findAll('td').map((d) => d.text()));
    expect(rows).toEqual([
      ['Margin stream (always open: the liquidation alarm)', '50', 'assumed until measured'],
      ['SUI price', '5,760', 'every 5 min, 20 credits a read'],
      ['Margin records (loans, deposits, supplies)', '1,064', 'every 3.0 h, 40 credits a read (2 wallets)'],
    ]);
    expect(w.findAll('[data-testid="forecast-pools"] li').map((l) => l.text())).toEqual([
      'SUI_USDC pool stream: about 1,200 credits an hour while its page is open',
      'DEEP_USDC pool stream: measuring…',
    ]);
    expect(f.calls.filter(([m]) => m === 'creditForecast')).toHaveLength(1);
    w.unmount();
  });

  it('reads the forecast again every 30 s while it is shown, and no more once it is not', async () => {
    await withFakeIntervals(async () => {
      const { f, w } = mountSettings();
      await settle();
      const reads = (): number => f.calls.filter(([m]) => m === 'creditForecast').length;
      expect(reads()).toBe(1);
      vi.advanceTimersByTime(29_000);
      expect(reads()).toBe(1);
      vi.advanceTimersByTime(1_000);
      expect(reads()).toBe(2);
      w.unmount();
      vi.advanceTimersByTime(60_000);
      expect(reads()).toBe(2);
    });
  });

  it('compares with a budget of its own, and says why a forecast could not be read', async () => {
    let fail = false;
    const { w } = mountSettings({
      creditForecast: () => {
        if (fail) throw new ApiError('network', 'Tidewatch cannot be reached.');
        return { ...FORECAST, budget: 100_000, shareOfBudgetDay: 6_874 / (100_000 / 30) };
      },
    });
    await settle();
    expect(w.get('[data-testid="forecast-sentence"]').text()).toBe(
      'About 6,900 credits a day at these settings: 82 % of the Free plan (8,333 a day of its 250,000 a month), and 206 % of your budget (3,333 a day of 100,000 a month).',
    );
    expect(w.get('[data-testid="forecast-sentence"]').classes()).toContain('over');
    fail = true;
    await w.get('form').trigger('submit');
    await settle();
    expect(w.get('[data-testid="forecast-error"]').text()).toBe(
      'The forecast could not be read: Tidewatch cannot be reached.',
    );
    w.unmount();
  });

  it('a chosen plan sets its request rate and stream limit, and goes in the patch Save sends; the forecast is read again', async () => {
    const { f, w } = mountSettings();
    await settle();
    expect(w.get('[data-testid="plan-facts"]').text()).toBe(
      'Free: 250,000 credits a month, 10 requests a second, 1 stream open at once.',
    );
    expect((w.get('[data-testid="credit-budget"]').element as HTMLInputElement).placeholder).toBe(
      "the Free plan's 250,000",
    );
    expect((w.get('[data-testid="records-minutes"]').element as HTMLInputElement).value).toBe('180');
    await w.get('[data-testid="plan"]').setValue('builder');
    expect(w.get('[data-testid="plan-facts"]').text()).toBe(
      'Builder: 5,000,000 credits a month, 25 requests a second, 3 streams open at once.',
    );
    expect((w.get('[data-testid="requests-per-second"]').element as HTMLInputElement).value).toBe('25');
    expect((w.get('[data-testid="stream-budget"]').element as HTMLInputElement).value).toBe('3');
    expect(w.find('[data-testid="forecast-pending"]').exists()).toBe(true);
    await w.get('[data-testid="records-minutes"]').setValue('30');
    await w.get('form').trigger('submit');
    await settle();
    const patch = f.calls.find(([m]) => m === 'updateSettings')![1] as Record<string, unknown>;
    expect(patch).toMatchObject({
      plan: 'builder',
      requestsPerSecond: 25,
      streamBudget: 3,
      recordsRefreshSec: 1_800,
      monthlyCreditBudget: null,
    });
    expect(patch).not.toHaveProperty('riskRefreshSec');
    expect(f.calls.filter(([m]) => m === 'creditForecast')).toHaveLength(2);
    expect(w.find('[data-testid="forecast-pending"]').exists()).toBe(false);
    w.unmount();
  });

  it("a request rate other than the plan's makes the plan Custom", async () => {
    const { f, w } = mountSettings();
    await settle();
    await w.get('[data-testid="requests-per-second"]').setValue('4');
    expect((w.get('[data-testid="plan"]').element as HTMLSelectElement).value).toBe('custom');
    expect(w.get('[data-testid="plan-facts"]').text()).toContain('Custom');
    expect((w.get('[data-testid="credit-budget"]').element as HTMLInputElement).placeholder).toBe('none');
    await w.get('form').trigger('submit');
    await settle();
    expect(f.calls.find(([m]) => m === 'updateSettings')![1]).toMatchObject({
      plan: 'custom',
      requestsPerSecond: 4,
      streamBudget: 1,
    });
    w.unmount();
  });
});

describe('the status bar: what the budget did to the reads', () => {
  const snapshot = (reads: StatusSnapshot['reads']): StatusSnapshot => ({
    network: 'custom',
    online: true,
    offlineSince: null,
    streams: [],
    storeNotice: null,
    storeError: null,
    historyGaps: [],
    internalError: null,
    credits: null,
    reads,
  });
  const prices = [
    { symbol: 'SUI', everyMs: 45_000, slowed: false, why: 'near liquidation (+3.2 %)', readAt: null },
    { symbol: 'DEEP', everyMs: 300_000, slowed: true, why: 'far from liquidation', readAt: null },
    { symbol: 'WAL', everyMs: 5_400_000, slowed: true, why: 'far from liquidation', readAt: null },
  ];

  it('shows the budget note in a few words, with every price read in its tooltip', async () => {
    setApi(fakeApi({ settings: () => SETTINGS }).api);
    const status = useStatusStore();
    status.snapshot = snapshot({
      prices,
      recordsEveryMs: 3 * 3_600_000,
      pace: 2.5,
      budgetNote: "Reads slowed to stay within this month's credits (least urgent first, up to 2.5x).",
    });
    const w = mount(StatusBar);
    const note = w.get('[data-testid="reads-note"]');
    expect(note.text()).toBe('Reads slowed for the budget');
    expect(note.attributes('title')!.split('\n')).toEqual([
      "Reads slowed to stay within this month's credits (least urgent first, up to 2.5x).",
      'SUI price read every 45 s: near liquidation (+3.2 %)',
      'DEEP price read every 5 min: far from liquidation (slowed for the budget)',
      'WAL price read every 1.5 h: far from liquidation (slowed for the budget)',
      'Margin records read every 3 h',
    ]);
    status.snapshot = snapshot({
      prices: [{ ...prices[0]!, everyMs: null }],
      recordsEveryMs: null,
      pace: null,
      budgetNote:
        "This month's credits are spent: prices are no longer read; the margin stream still alerts liquidations.",
    });
    await nextTick();
    expect(w.get('[data-testid="reads-note"]').text()).toBe('Reads stopped for the budget');
    expect(w.get('[data-testid="reads-note"]').attributes('title')).toContain(
      'SUI price not read: near liquidation (+3.2 %)',
    );
    w.unmount();
  });

  it('adds nothing to the bar when the budget slowed nothing; the reads stay in its tooltip', () => {
    setApi(fakeApi({ settings: () => SETTINGS }).api);
    const status = useStatusStore();
    status.snapshot = snapshot({
      prices: prices.slice(0, 1),
      recordsEveryMs: 3 * 3_600_000,
      pace: 1,
      budgetNote: null,
    });
    const w = mount(StatusBar);
    expect(w.find('[data-testid="reads-note"]').exists()).toBe(false);
    expect(w.get('[data-testid="status-bar"]').attributes('title')).toContain(
      'SUI price read every 45 s: near liquidation (+3.2 %)',
    );
    w.unmount();
  });
});

describe('the pool page: what its stream costs, or why it does not stream', () => {
  let router: Router;
  beforeEach(async () => {
    router = await routerAt('/markets/SUI_USDC');
  });
  const POOL = {
    pool_id: '0x1',
    pool_name: 'SUI_USDC',
    base_asset_id: '0x2::sui::SUI',
    quote_asset_id: '0x3::usdc::USDC',
    base_asset_decimals: 9,
    quote_asset_decimals: 6,
    base_asset_symbol: 'SUI',
    quote_asset_symbol: 'USDC',
    tick_size: 100,
    lot_size: 100_000_000,
  } as Pool;
  const stream = (id: string, state: StreamStatus['state']): StreamStatus => ({
    id,
    state,
    lastEventAt: null,
    lastByteAt: null,
    nextTryAt: null,
    reconnects: 0,
    events: 0,
    lastError: null,
  });
  const CREDITS = { today: 1_000, thisMonth: 20_000, month: '2025-06', estimated: 0, streamedKb: 5_000, budget: null };
  const snapshot = (streams: StreamStatus[], credits: StatusSnapshot['credits'] = CREDITS): StatusSnapshot => ({
    network: credits ? 'custom' : 'demo',
    online: true,
    offlineSince: null,
    streams,
    storeNotice: null,
    storeError: null,
    historyGaps: [],
    internalError: null,
    credits,
    reads: null,
  });
  const answer = <T>(data: T) => ({ data, source: 'network', fetchedAt: Date.now(), stale: false });

  const mountPool = (s: StatusSnapshot, poolStreams: CreditForecast['poolStreams']) => {
    const f = fakeApi({
      pools: () => answer([POOL]),
      depth: () =>
        answer({
          pool_id: '0x1',
          bids: [{ price: 3_500_000, total_quantity: 2e9, order_count: 1 }],
          asks: [{ price: 3_510_000, total_quantity: 1e9, order_count: 1 }],
        }),
      trades: () => answer([]),
      candles: () => answer([]),
      creditForecast: () => ({ ...FORECAST, poolStreams }),
    });
    setApi(f.api);
    useStatusStore().snapshot = s;
    const w = mount(PoolView, {
      props: { poolName: 'SUI_USDC' },
      global: { plugins: [router], stubs: { VChart: true, Echarts: true } },
    });
    const reads = (): number => f.calls.filter(([m]) => m === 'creditForecast').length;
    const line = () => w.find('[data-testid="pool-stream-line"]');
    return { w, reads, line };
  };
  const LIVE = [stream('margin', 'open'), stream('pool:SUI_USDC', 'open')];

  it('says what the open stream costs an hour, read when shown and every 30 s, and no more once left', async () => {
    await withFakeIntervals(async () => {
      const { w, reads, line } = mountPool(snapshot(LIVE), [
        { pool: 'DEEP_USDC', perHour: 9_000 },
        { pool: 'SUI_USDC', perHour: 41_234 },
      ]);
      await settle();
      expect(line().text()).toBe('Live stream: about 41,000 credits an hour while this page is open');
      expect(reads()).toBe(1);
      vi.advanceTimersByTime(30_000);
      expect(reads()).toBe(2);
      w.unmount();
      vi.advanceTimersByTime(60_000);
      expect(reads()).toBe(2);
    });
  });

  it('says it is measuring the cost while the stream is new (not measured, or not yet in the forecast)', async () => {
    const measuring = mountPool(snapshot(LIVE), [{ pool: 'SUI_USDC', perHour: null }]);
    await settle();
    expect(measuring.line().text()).toBe('Live stream: measuring its cost…');
    measuring.w.unmount();
    const notYet = mountPool(snapshot(LIVE), []);
    await settle();
    expect(notYet.line().text()).toBe('Live stream: measuring its cost…');
    notYet.w.unmount();
  });

  it('shows no cost on the Demo network (it charges nothing), and does not read the forecast there', async () => {
    const { w, reads, line } = mountPool(snapshot(LIVE, null), [{ pool: 'SUI_USDC', perHour: 41_234 }]);
    await settle();
    expect(w.find('[data-testid="mid-price"]').exists()).toBe(true);
    expect(line().exists()).toBe(false);
    expect(reads()).toBe(0);
    w.unmount();
  });

  it("says why it does not stream while it waits for the plan's stream limit, and the cost once it streams", async () => {
    const { w, reads, line } = mountPool(
      snapshot([stream('margin', 'open'), stream('pool:SUI_USDC', 'waiting-budget')]),
      [{ pool: 'SUI_USDC', perHour: 41_234 }],
    );
    await settle();
    expect(line().text()).toBe(
      'Not streaming: your plan allows 1 stream at once and the margin stream (the liquidation alarm) has it. The book and trades here are as read when the page opened and do not refresh; it stays so on this plan: one with more streams (Builder allows 3) shows this pool live (Settings).',
    );
    expect(reads()).toBe(0);
    useStatusStore().snapshot = snapshot([
      stream('margin', 'open'),
      stream('pool:DEEP_USDC', 'open'),
      stream('pool:SUI_USDC', 'waiting-budget'),
    ]);
    await settle();
    expect(line().text()).toBe(
      "Not streaming: your plan allows 2 streams at once and the margin stream (the liquidation alarm) and the DEEP_USDC pool page's stream have them. The book and trades here are as read when the page opened and do not refresh; the page goes live by itself once a stream is free.",
    );
    // A place came free (the other pool page was left): the stream opens, and its cost is read at once.
    useStatusStore().snapshot = snapshot(LIVE);
    await settle();
    expect(reads()).toBe(1);
    expect(line().text()).toBe('Live stream: about 41,000 credits an hour while this page is open');
    w.unmount();
  });
});
