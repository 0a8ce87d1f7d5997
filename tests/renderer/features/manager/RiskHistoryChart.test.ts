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

describe("the risk history chart's line names", () => {
  type Child = { type: string; y?: number; style: { text?: string }; shape?: { points: number[][] } };
  type Option = {
    grid: { right: number };
    yAxis: { min: number; max: number };
    graphic: Array<{ right?: number; width: number; children: Child[] }>;
    series: Array<{ markLine?: { label: { show: boolean }; data: Array<{ yAxis: number }> } }>;
  };
  function draw(warning: number, critical: number, liquidation: number): Option {
    const p = position({ apr: 1.5 });
    const readings: RiskReading[] = [NOW - 15 * 60_000, NOW].map((ts) => ({
      manager_id: p.manager_id,
      owner: p.owner,
      ts_ms: ts,
      risk_ratio: 1.3,
      debt_usd: p.debt_usd,
      assets_usd: p.collateral_usd,
      distance_pct: p.distance_pct,
    }));
    const options: Option[] = [];
    mount(RiskHistoryChart, {
      props: { readings, warning, critical, liquidation },
      global: { stubs: { VChart: chartProbe(options), Echarts: chartProbe(options) } },
    });
    return options.at(-1)!;
  }
  const texts = (o: Option): Array<{ text: string; y: number }> =>
    o.graphic[0]!.children.filter((c) => c.type === 'text').map((c) => ({ text: c.style.text!, y: c.y! }));

  it('three thresholds 0.01 apart: names in the right margin, at least 14 px apart, top to bottom', () => {
    const o = draw(1.22, 1.21, 1.2);
    // The markLines draw the lines; their own labels (which took no vertical offset) are off.
    expect(o.series[0]!.markLine!.label.show).toBe(false);
    expect(o.series[0]!.markLine!.data.map((d) => d.yAxis)).toEqual([1.22, 1.21, 1.2]);
    const labels = texts(o);
    expect(labels.map((l) => l.text)).toEqual(['warning 1.220', 'critical 1.210', 'liquidation 1.200']);
    // 0.01 of a ratio is under 6 px on this axis: the lines are closer than a label is tall.
    const plotPx = 300 - 16 - 30;
    expect((0.01 / (o.yAxis.max - o.yAxis.min)) * plotPx).toBeLessThan(14);
    expect(labels[1]!.y - labels[0]!.y).toBeGreaterThanOrEqual(14);
    expect(labels[2]!.y - labels[1]!.y).toBeGreaterThanOrEqual(14);
    // In the margin right of the plot: the group is the grid's right margin, against the chart's edge.
    expect(o.graphic[0]).toMatchObject({ right: 0, width: o.grid.right });
  });

  it("each name's leader starts at its line's height on the plot's edge", () => {
    const o = draw(1.22, 1.21, 1.2);
    const leaders = o.graphic[0]!.children.filter((c) => c.type === 'polyline');
    const plotPx = 300 - 16 - 30;
    const at = (r: number): number => 16 + ((o.yAxis.max - r) / (o.yAxis.max - o.yAxis.min)) * plotPx;
    expect(leaders.map((l) => l.shape!.points[0])).toEqual([
      [0, at(1.22)],
      [0, at(1.21)],
      [0, at(1.2)],
    ]);
    // And ends at its label.
    expect(leaders.map((l) => l.shape!.points.at(-1)![1])).toEqual(texts(o).map((l) => l.y));
  });

  it('thresholds far apart: each name level with its line', () => {
    const o = draw(1.5, 1.25, 1.125);
    const leaders = o.graphic[0]!.children.filter((c) => c.type === 'polyline');
    for (const [i, l] of texts(o).entries()) expect(l.y).toBe(Math.round(leaders[i]!.shape!.points[0]![1]!));
  });
});
