// @vitest-environment happy-dom
import { mount } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { beforeEach, describe, expect, it } from 'vitest';
import { defineComponent, h, watch } from 'vue';
import { CHART_EVERY_MS, LIVE_EVERY_MS, TAPE_SIZE, useLivePool } from '../../src/renderer/src/features/markets/live-pool';
import type { AlertRecord, PayloadOf, TidewatchApi, Topic } from '../../src/shared/contract';
import { ApiError, setApi } from '../../src/renderer/src/api';
import FreshnessBadge from '../../src/renderer/src/components/FreshnessBadge.vue';
import QueryState from '../../src/renderer/src/components/QueryState.vue';
import DistanceBar from '../../src/renderer/src/components/DistanceBar.vue';
import RiskGauge from '../../src/renderer/src/components/RiskGauge.vue';
import { useAlertsStore } from '../../src/renderer/src/stores/alerts';

/** A TidewatchApi double that answers from a table and lets the test push. */
function fakeApi(answers: Record<string, (args: any) => unknown>) {
  const listeners = new Map<string, Array<(p: unknown) => void>>();
  const calls: Array<[string, unknown]> = [];
  const api: TidewatchApi = {
    async invoke(method, args) {
      calls.push([method, args]);
      const f = answers[method];
      if (!f) throw new Error(`unexpected ${method}`);
      return f(args) as never;
    },
    subscribe<T extends Topic>(topic: T, l: (p: PayloadOf<T>) => void) {
      listeners.set(topic, [...(listeners.get(topic) ?? []), l as (p: unknown) => void]);
      return () => {};
    },
  };
  return { api, calls, push: (topic: string, payload: unknown) => listeners.get(topic)?.forEach((l) => l(payload)) };
}

const alert = (id: number, patch: Partial<AlertRecord> = {}): AlertRecord => ({
  id, rule: 'liquidation', level: 'critical', manager_id: '0xm', owner: '0xo', event_id: 'e', title: 'Liquidated', message: 'm', created_at: id, acknowledged_at: null, snoozed_until: null, ...patch,
});

beforeEach(() => setActivePinia(createPinia()));

describe('FreshnessBadge', () => {
  it('says how fresh live data is, and marks cached data as stale with its age and reason', () => {
    const live = mount(FreshnessBadge, { props: { meta: { source: 'network', fetchedAt: Date.now(), stale: false } } });
    expect(live.text()).toBe('just now');
    expect(live.classes()).toContain('live');
    const stale = mount(FreshnessBadge, { props: { meta: { source: 'cache', fetchedAt: Date.now() - 5 * 60_000, stale: true, reason: 'ECONNREFUSED' } } });
    expect(stale.text()).toBe('cached 5 min ago');
    expect(stale.classes()).toContain('stale');
    expect(stale.attributes('title')).toContain('ECONNREFUSED');
  });
});

describe('QueryState', () => {
  it('shows what happened and what to do, and retries', async () => {
    const w = mount(QueryState, { props: { loading: false, error: { message: 'The service cannot be reached.', advice: 'It will retry.' } } });
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
    const width = (w: typeof near): number => Number(/width: ([\d.]+)%/.exec(w.get('.fill').attributes('style') ?? '')![1]);
    expect(width(near)).toBeGreaterThan(95);
    expect(width(far)).toBeLessThan(5);
    expect(mount(DistanceBar, { props: { symbol: 'SUI', liquidationPrice: null, distance: null } }).text()).toContain('none');
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
    expect(store.error).toBe('The alert could not be acknowledged: There is no alert 1. Reload the list (Retry) and try again.');
    await store.snooze(1, 5);
    expect(store.error).toBe('The alert could not be snoozed: Tidewatch cannot be reached. Reload the list (Retry) and try again.');
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
    expect(store.alerts.map((a) => [a.id, a.title])).toEqual([[0, 'Liquidated'], [0, 'Tidewatch cannot save data'], [1, 'Liquidated']]);
    await store.load();
    expect(store.alerts.map((a) => [a.id, a.created_at])).toEqual([[0, 6], [0, 5], [1, 1]]);
    store.dismiss(store.alerts[0]!);
    expect(store.alerts.map((a) => [a.id, a.created_at])).toEqual([[0, 5], [1, 1]]);
    expect(f.calls.every(([m]) => m === 'alerts')).toBe(true);
  });
});

describe('a busy pool (issue 12: renderer)', () => {
  it('renders the book and tape at most every 100 ms and the charts at most once a second, losing no trade', async () => {
    const f = fakeApi({});
    setApi(f.api);
    const renders: number[] = [];
    const charts: Array<{ at: number; trades: number }> = [];
    let tape: ReturnType<typeof useLivePool>['tape'] | undefined;
    const Probe = defineComponent({
      setup() {
        const live = useLivePool(() => 'SUI_USDC', (trades) => charts.push({ at: performance.now(), trades: trades.length }));
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
      const trades = [0, 1].map(() => ({ event_digest: `d${n++}`, checkpoint_timestamp_ms: Date.now(), price: 1, base_quantity: 1, quote_quantity: 1, taker_is_bid: true }));
      f.push('pool:SUI_USDC', { pool: 'SUI_USDC', trades, depth: { ...depth, bids: [{ ...depth.bids[0]!, total_quantity: n }] } });
      // Now and then trades pushed again, in the same render window and a later one (a reconnect's backfill overlapping the stream).
      if (n % 50 === 0) f.push('pool:SUI_USDC', { pool: 'SUI_USDC', trades: [...trades, { ...trades[0]!, event_digest: `d${n - 30}` }], depth: null });
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
