// @vitest-environment happy-dom
import { mount } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { beforeEach, describe, expect, it } from 'vitest';
import type { RiskReading } from '../../../../src/shared/contract';
import RiskHistoryChart from '../../../../src/renderer/src/features/manager/RiskHistoryChart.vue';
import { interestProjection } from '../../../../src/renderer/src/features/manager/position-model';
import { NOW, position, chartProbe } from '../../support/manager';

beforeEach(() => setActivePinia(createPinia()));

describe('the risk history chart', () => {
  it('continues the ratio dashed from the last reading with interest alone, down to the liquidation ratio when sooner than 90 days', () => {
    const p = position({ apr: 1.5 });
    const last = NOW - 60_000;
    const readings: RiskReading[] = [NOW - 3_600_000, last].map((ts) => ({
      manager_id: p.manager_id,
      owner: p.owner,
      ts_ms: ts,
      risk_ratio: p.risk_ratio,
      debt_usd: p.debt_usd,
      assets_usd: p.collateral_usd,
      distance_pct: p.distance_pct,
    }));
    const options: Array<{ series: Array<{ data: Array<[number, number]> }> }> = [];
    mount(RiskHistoryChart, {
      props: { readings, warning: 1.5, critical: 1.25, liquidation: 1.125, projection: interestProjection(p, last) },
      global: { stubs: { VChart: chartProbe(options), Echarts: chartProbe(options) } },
    });
    const dashed = options.at(-1)!.series[1]!.data;
    expect(dashed[0]).toEqual([last, p.risk_ratio]);
    const end = dashed.at(-1)!;
    expect(end[0] - last).toBeCloseTo(p.interest.liquidation_in_ms!, -5);
    expect(end[1]).toBeCloseTo(1.125, 3);
    // Without a known rate there is nothing to project.
    expect(interestProjection(position({ apr: null }), last)).toEqual([]);
  });
});
