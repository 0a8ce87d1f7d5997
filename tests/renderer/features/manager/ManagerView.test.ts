// @vitest-environment happy-dom
import { mount } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { beforeEach, describe, expect, it } from 'vitest';
import type { PayloadOf, RiskReading, Topic } from '../../../../src/shared/contract';
import { adviceTarget, clearOf, DAY_MS, depositFor } from '../../../../src/shared/risk-model';
import { setApi } from '../../../../src/renderer/src/api';
import { fakeApi } from '../../../support/fake-api';
import { routerAt } from '../../support/router';
import { NOW, position, H, P, chartProbe } from '../../support/manager';
import { settle } from '../../support/timing';

beforeEach(() => setActivePinia(createPinia()));

describe('the manager page', () => {
  it("shows the position, the repair and the dashed drift from the manager's own figures, and follows each refresh", async () => {
    // At 150 % a year, interest alone liquidates it in about 57 days: the dashed line reaches the liquidation ratio.
    const p = position({ apr: 1.5 });
    const readings: RiskReading[] = [NOW - 600_000, NOW - 60_000].map((ts) => ({
      manager_id: p.manager_id,
      owner: p.owner,
      ts_ms: ts,
      risk_ratio: p.risk_ratio,
      debt_usd: p.debt_usd,
      assets_usd: p.collateral_usd,
      distance_pct: p.distance_pct,
    }));
    const listeners = new Map<string, (payload: unknown) => void>();
    const page = <T>(items: T[]) => ({ items, isLastPage: true, currentPage: 0, perPage: 50 });
    const answers: Record<string, unknown> = {
      manager: {
        data: {
          manager_id: p.manager_id,
          owner: p.owner,
          pool_name: 'SUI_USDC',
          created_at: null,
          position: p,
          watched: false,
        },
        source: 'network',
        fetchedAt: NOW,
        stale: false,
      },
      riskHistory: { data: readings, source: 'cache', fetchedAt: NOW, stale: false },
      marginEvents: { data: [], source: 'cache', fetchedAt: NOW, stale: false },
      thresholds: { defaults: { warning: 1.2, critical: 1.15 }, perManager: {} },
      liquidations: { data: page([]), source: 'network', fetchedAt: NOW, stale: false },
      pools: { data: [], source: 'network', fetchedAt: NOW, stale: false },
      settings: { interestAlertDays: 200 },
      watchList: [],
      activeSupplies: { data: page([]), source: 'network', fetchedAt: NOW, stale: false },
    };
    setApi({
      async invoke(method) {
        if (!(method in answers)) throw new Error(`unexpected ${method}`);
        return answers[method] as never;
      },
      subscribe<T extends Topic>(topic: T, l: (payload: PayloadOf<T>) => void) {
        listeners.set(topic, l as (payload: unknown) => void);
        return () => {};
      },
    });
    const { default: ManagerView } = await import('../../../../src/renderer/src/features/manager/ManagerView.vue');
    const options: Array<{
      xAxis: { min?: number; max?: number };
      series: Array<{ data: Array<[number, number]> }>;
      graphic: Array<{ children: Array<{ type: string; style: { text?: string } }> }>;
    }> = [];
    const w = mount(ManagerView, {
      global: {
        plugins: [await routerAt(`/manager/${p.manager_id}`)],
        stubs: { VChart: chartProbe(options), Echarts: chartProbe(options) },
      },
    });
    await settle();

    expect(w.get('[data-testid="position-side"]').text()).toBe('Long SUI');
    // Unwatched: "its equity", amounts not the user's.
    expect(w.get('[data-testid="liquidation-cost"]').text()).toContain('its equity there');
    expect(Number(w.get('[data-testid="repair-deposit-USDC"]').attributes('data-amount'))).toBe(
      depositFor(H, P, adviceTarget(clearOf(1.5)), 'quote', 6)!.amount,
    );
    const days = Math.floor(p.interest.liquidation_in_ms! / DAY_MS);
    expect(w.get('[data-testid="interest-liquidation"]').text()).toBe(
      `Liquidated by interest alone in ${days} days at today's prices.`,
    );
    // Within the alert horizon of Settings (200 days): shown as a warning.
    expect(w.get('[data-testid="interest-liquidation"]').classes()).toContain('soon');
    const dashed = (): Array<[number, number]> => options.at(-1)!.series[1]!.data;
    expect(dashed()[0]).toEqual([NOW - 60_000, p.risk_ratio]);
    // A short tail: a quarter of the history's 10 minutes, so the history keeps four fifths of the width.
    const tail = (p.valued_at - (NOW - 600_000)) / 4;
    expect(dashed().at(-1)![0]).toBeCloseTo(p.valued_at + tail, -3);
    expect(options.at(-1)!.xAxis).toMatchObject({ min: NOW - 600_000, max: p.valued_at + tail });
    // Its label: what interest does to the ratio in a day (here about 57 days to go from 1.42 to 1.125).
    const names = options
      .at(-1)!
      .graphic[0]!.children.filter((c) => c.type === 'text')
      .map((c) => c.style.text!);
    const drift = names.map((t) => /^interest \u2212(0\.\d+) a day$/.exec(t)).find((m) => m !== null)!;
    expect(Number(drift[1])).toBeGreaterThan((p.risk_ratio! - 1.125) / (p.interest.liquidation_in_ms! / DAY_MS));
    expect(Number(drift[1])).toBeLessThan(0.02);
    await w.get('[data-testid="risk-ahead"]').setValue(false);
    expect(dashed()).toEqual([]);
    // Without the tail the history runs to the valuation, the axis's end.
    expect(options.at(-1)!.xAxis.max).toBe(p.valued_at);

    // A refresh values it again: the page follows (here, the position was topped up above the warning).
    const topped = position({ h: { ...H, quote: 1000 }, apr: 1.5 });
    listeners.get('risk')!({
      readings: [],
      portfolio: {
        wallets: [{ owner: p.owner, label: null, positions: [topped], supplies: [], totals: {} }],
        prices: [],
        computed_at: NOW + 1,
      },
    });
    await settle();
    expect(w.get('[data-testid="repair-text"]').text()).toBe(
      `The risk ratio ${(3500 / 1900).toFixed(3)} is above 1.530 already: nothing to deposit or repay.`,
    );
    w.unmount();
  });

  it("shows the snapshot's time, and the Portfolio's newer snapshot when its push overtakes the page's answer", async () => {
    const p = position();
    const newer = {
      ...position({ h: { base: 1000, quote: 300, debtBase: 0, debtQuote: 1900 } }),
      valued_at: NOW + 5_000,
    };
    let answer!: (v: unknown) => void;
    const none = { data: [], source: 'cache', fetchedAt: NOW, stale: false };
    const f = fakeApi({
      manager: () => new Promise((r) => (answer = r)),
      riskHistory: () => none,
      marginEvents: () => none,
      thresholds: () => ({ defaults: { warning: 1.2, critical: 1.15 }, perManager: {} }),
      liquidations: () => ({ data: { items: [], isLastPage: true }, source: 'network', fetchedAt: NOW, stale: false }),
      pools: () => ({ data: [], source: 'network', fetchedAt: NOW, stale: false }),
      settings: () => ({ interestAlertDays: 30 }),
      watchList: () => [],
      activeSupplies: () => ({
        data: { items: [], isLastPage: true },
        source: 'network',
        fetchedAt: NOW,
        stale: false,
      }),
    });
    setApi(f.api);
    const { default: ManagerView } = await import('../../../../src/renderer/src/features/manager/ManagerView.vue');
    const w = mount(ManagerView, {
      global: { plugins: [await routerAt(`/manager/${p.manager_id}`)], stubs: { VChart: true, Echarts: true } },
    });
    await settle();
    f.push('risk', {
      readings: [],
      portfolio: {
        wallets: [{ owner: p.owner, label: null, positions: [newer], supplies: [], totals: {} }],
        prices: [],
        computed_at: NOW + 5_000,
      },
    });
    const detail = { manager_id: p.manager_id, owner: p.owner, pool_name: 'SUI_USDC', created_at: null, watched: true };
    answer({ data: { ...detail, position: p }, source: 'network', fetchedAt: NOW, stale: false });
    await settle();
    const valued = w.get('[data-testid="valued-at"]');
    expect(valued.attributes('data-valued-at')).toBe(String(NOW + 5_000));
    expect(valued.text()).toMatch(/^valued \d{1,2}:\d\d:\d\d\s[AP]M UTC$/);
    w.unmount();
  });
});
