// @vitest-environment happy-dom
import { mount } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { beforeEach, describe, expect, it } from 'vitest';
import type { RiskReading } from '../../../../src/shared/contract';
import RiskHistoryChart from '../../../../src/renderer/src/features/manager/RiskHistoryChart.vue';
import {
  interestDriftPerDay,
  interestProjection,
  MIN_HISTORY_MS,
  riskChartWindow,
} from '../../../../src/renderer/src/features/manager/position-model';
import { DAY_MS } from '../../../../src/shared/risk-model';
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

  it('gives the history the width: 15 minutes of it fill four fifths, the interest tail the last fifth', () => {
    const last = NOW;
    const quarterHour = riskChartWindow(last - 15 * 60_000, last, true);
    expect(quarterHour).toEqual({ fromMs: last - 15 * 60_000, toMs: last + 225_000, tailMs: 225_000 });
    expect((last - quarterHour.fromMs) / (quarterHour.toMs - quarterHour.fromMs)).toBeCloseTo(0.8, 9);
    // A week of history: a tail of under two days, where 24 hours of dashes once took the chart.
    const week = riskChartWindow(last - 7 * DAY_MS, last, true);
    expect(week.tailMs).toBe(1.75 * DAY_MS);
    // Without the tail, the history runs to the axis's end; one reading still gets a minute.
    expect(riskChartWindow(last - 15 * 60_000, last, false)).toEqual({
      fromMs: last - 15 * 60_000,
      toMs: last,
      tailMs: 0,
    });
    expect(riskChartWindow(last, last, false).fromMs).toBe(last - MIN_HISTORY_MS);
  });

  it('fixes its time axis to the window, turns the y title up beside the axis, and labels the tail with the drift a day', () => {
    const p = position({ apr: 1.5 });
    const readings: RiskReading[] = [NOW - 15 * 60_000, NOW].map((ts) => ({
      manager_id: p.manager_id,
      owner: p.owner,
      ts_ms: ts,
      risk_ratio: p.risk_ratio,
      debt_usd: p.debt_usd,
      assets_usd: p.collateral_usd,
      distance_pct: p.distance_pct,
    }));
    const window = riskChartWindow(NOW - 15 * 60_000, NOW, true);
    const drift = interestDriftPerDay(p, NOW)!;
    // 150 % a year on 1,900 USDC of debt: the ratio falls by about 0.005 a day.
    expect(drift).toBeLessThan(0);
    expect(drift).toBeGreaterThan(-0.01);
    const options: Array<{
      xAxis: { min: number; max: number };
      yAxis: { name: string; nameLocation: string; nameRotate: number };
      series: Array<{ endLabel?: { formatter: string } }>;
    }> = [];
    mount(RiskHistoryChart, {
      props: {
        readings,
        warning: 1.5,
        critical: 1.25,
        liquidation: 1.125,
        projection: interestProjection(p, NOW, 24, window.tailMs / DAY_MS),
        driftPerDay: drift,
        fromMs: window.fromMs,
        toMs: window.toMs,
      },
      global: { stubs: { VChart: chartProbe(options), Echarts: chartProbe(options) } },
    });
    const o = options.at(-1)!;
    expect(o.xAxis).toMatchObject({ min: NOW - 15 * 60_000, max: NOW + 225_000 });
    expect(o.yAxis).toMatchObject({ name: 'risk ratio', nameLocation: 'middle', nameRotate: 90 });
    expect(o.series[1]!.endLabel!.formatter).toMatch(/^interest alone: \u22120\.00\d\d? a day$/);
  });
});
