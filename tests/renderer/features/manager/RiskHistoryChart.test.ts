// @vitest-environment happy-dom
import { mount } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import type { PositionSummary, RiskReading } from '../../../../src/shared/contract';
import RiskHistoryChart from '../../../../src/renderer/src/features/manager/RiskHistoryChart.vue';
import {
  interestDriftPerDay,
  interestProjection,
  MIN_HISTORY_MS,
  readingPoints,
  riskChartWindow,
} from '../../../../src/renderer/src/features/manager/position-model';
import { DAY_MS } from '../../../../src/shared/risk-model';
import { drawnTexts, type DrawnText } from '../../support/drawn';
import { NOW, position, chartProbe } from '../../support/manager';

// The trader reads it in New York (the tests' machine is in UTC): before any time is formatted.
const ZONE = process.env['TZ'];
process.env['TZ'] = 'America/New_York';
afterAll(() => {
  process.env['TZ'] = ZONE;
});
beforeEach(() => setActivePinia(createPinia()));

/** Readings of a position at ratio 1.3 at the times given (its figures otherwise as valued). */
function flatAt(p: PositionSummary, times: readonly number[]): RiskReading[] {
  return times.map((ts) => ({
    manager_id: p.manager_id,
    owner: p.owner,
    ts_ms: ts,
    risk_ratio: 1.3,
    debt_usd: p.debt_usd,
    assets_usd: p.collateral_usd,
    distance_pct: p.distance_pct,
  }));
}

describe('the risk history chart', () => {
  it('breaks the line where no reading came for much longer than usual, never drawing across the gap', () => {
    // Review: 10:18:30-10:19:40 without readings was drawn as one straight diagonal.
    const p = position();
    const at = [0, 3_000, 6_000, 9_000, 80_000, 83_000].map((t) => NOW - 100_000 + t);
    const readings = flatAt(p, at);
    const options: Array<{ series: Array<{ data: Array<[number, number | null]>; connectNulls?: boolean }> }> = [];
    mount(RiskHistoryChart, {
      props: { readings, warning: 1.2, critical: 1.15, liquidation: 1.125 },
      global: { stubs: { VChart: chartProbe(options), Echarts: chartProbe(options) } },
    });
    const line = options.at(-1)!.series[0]!;
    expect(line.connectNulls).toBe(false);
    // 71 s against a usual 3 s (and more than 30 s): one break, between the fourth and fifth reading.
    expect(line.data.map((d) => d[1] === null)).toEqual([false, false, false, false, true, false, false]);
    expect(line.data[4]![0]).toBeGreaterThan(at[3]!);
    expect(line.data[4]![0]).toBeLessThan(at[4]!);
    // A steady cadence, however slow (a budget reading every 5 min), is never broken.
    const slow = readingPoints(flatAt(p, [0, 1, 2, 3].map((k) => NOW - k * 300_000).reverse()));
    expect(slow.every((x) => x.ratio !== null)).toBe(true);
  });

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
      graphic: Array<{ children: Array<{ type: string; style: { text?: string } }> }>;
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
    const names = o.graphic[0]!.children.filter((c) => c.type === 'text').map((c) => c.style.text!);
    expect(names.filter((t) => t.startsWith('interest'))).toEqual([
      expect.stringMatching(/^interest \u22120\.00\d\d? a day$/),
    ]);
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
    const readings = flatAt(p, [NOW - 15 * 60_000, NOW]);
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

describe("the risk history chart's minimum borrow line, liquidations and interest tail", () => {
  const overlap = (a: DrawnText, b: DrawnText): boolean =>
    a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

  /** The option of a chart of the last hour's readings, thresholds 1.300 / 1.250 / 1.200, with `extra` props. */
  function lastHour<T>(extra: Record<string, unknown>): T {
    const options: T[] = [];
    mount(RiskHistoryChart, {
      props: {
        readings: flatAt(position({ apr: 0.3 }), [NOW - 3_600_000, NOW]),
        warning: 1.3,
        critical: 1.25,
        liquidation: 1.2,
        ...extra,
      },
      global: { stubs: { VChart: chartProbe(options), Echarts: chartProbe(options) } },
    }).unmount();
    return options.at(-1)!;
  }

  it("names the interest tail in the margin, never over a threshold's name where it ends beside one (issue 40)", () => {
    const p = position({ apr: 1.5 });
    const window = riskChartWindow(NOW - 15 * 60_000, NOW, true);
    // Flat at 1.26, the tail ending on the critical line's 1.250.
    const readings = flatAt(p, [NOW - 15 * 60_000, NOW]).map((r) => ({ ...r, risk_ratio: 1.26 }));
    const projection = [
      { ts_ms: NOW + window.tailMs / 2, ratio: 1.255 },
      { ts_ms: window.toMs, ratio: 1.25 },
    ];
    const options: Array<Record<string, unknown>> = [];
    mount(RiskHistoryChart, {
      props: {
        readings,
        warning: 1.3,
        critical: 1.25,
        liquidation: 1.2,
        minBorrow: 1.35,
        projection,
        driftPerDay: -0.0421,
        fromMs: window.fromMs,
        toMs: window.toMs,
      },
      global: { stubs: { VChart: chartProbe(options), Echarts: chartProbe(options) } },
    }).unmount();
    for (const width of [1_042, 1_682]) {
      const drawn = drawnTexts(options.at(-1)!, width, 300);
      expect(drawn.map((t) => t.text)).toEqual(
        expect.arrayContaining(['interest \u22120.042 a day', 'critical 1.250', 'min borrow 1.350']),
      );
      for (const [i, a] of drawn.entries()) {
        // Inside the chart, and on no other text.
        expect(a.x + a.width, `${a.text} at ${width} px`).toBeLessThanOrEqual(width);
        for (const b of drawn.slice(i + 1)) expect(overlap(a, b), `${a.text} / ${b.text} at ${width} px`).toBe(false);
      }
    }
  });

  it("draws the pool's minimum borrow ratio dotted above the warning line, with its name", () => {
    const o = lastHour<{
      yAxis: { max: number };
      graphic: Array<{ children: Array<{ type: string; style: { text?: string } }> }>;
      series: Array<{ markLine?: { data: Array<{ yAxis: number; lineStyle: { type: string } }> } }>;
    }>({ minBorrow: 1.5 });
    expect(o.series[0]!.markLine!.data.find((d) => d.yAxis === 1.5)!.lineStyle.type).toBe('dotted');
    expect(o.yAxis.max).toBeGreaterThan(1.5);
    const names = o.graphic[0]!.children.filter((c) => c.type === 'text').map((c) => c.style.text);
    expect(names).toEqual(['min borrow 1.500', 'warning 1.300', 'critical 1.250', 'liquidation 1.200']);
  });

  it('marks each liquidation on the time axis at the ratio it was liquidated at; older ones are off the chart', () => {
    const o = lastHour<{ series: Array<{ name: string; data: Array<[number, number]> }> }>({
      liquidations: [
        { ts_ms: NOW - 1_800_000, ratio: 1.19 },
        { ts_ms: NOW - 5 * 3_600_000, ratio: 1.18 },
        { ts_ms: NOW - 600_000, ratio: null },
      ],
      fromMs: NOW - 3_600_000,
      toMs: NOW,
    });
    const marks = o.series.find((x) => x.name === 'liquidated')!;
    expect(marks.data).toEqual([[NOW - 1_800_000, 1.19]]);
  });
});

describe("the risk history chart's time axis", () => {
  /** The labels drawn under a chart of readings from `firstMs` to NOW with its interest tail, `width` px wide. */
  function axisLabels(firstMs: number, width: number): string[] {
    const p = position({ apr: 0.3 });
    const window = riskChartWindow(firstMs, NOW, true);
    const readings = flatAt(p, [firstMs, (firstMs + NOW) / 2, NOW]);
    const options: Array<Record<string, unknown>> = [];
    mount(RiskHistoryChart, {
      props: {
        readings,
        warning: 1.5,
        critical: 1.25,
        liquidation: 1.125,
        projection: interestProjection(p, NOW, 24, window.tailMs / DAY_MS),
        fromMs: window.fromMs,
        toMs: window.toMs,
      },
      global: { stubs: { VChart: chartProbe(options), Echarts: chartProbe(options) } },
    }).unmount();
    // The x axis's labels: the drawn texts that are times (the y axis's are ratios, the lines' named).
    return drawnTexts(options.at(-1)!, width, 300)
      .map((t) => t.text)
      .filter((t) => /\d:\d\d(:\d\d)? [AP]M$|^[A-Z][a-z]{2} \d{1,2}(, \d{4})?$/.test(t));
  }

  const MIN = 60_000;
  const HOUR = 60 * MIN;
  /**
   * Histories as long as a manager's can be: from its first reading (a minute: the shortest) to
   * weeks and a year. Each is drawn with its tail, 1,042 and 1,682 px wide (the manager page in a
   * 1280 and a 1920 window).
   */
  const SPANS = [
    MIN,
    3 * MIN,
    3.5 * MIN,
    12 * MIN,
    40 * MIN,
    3 * HOUR,
    16 * HOUR,
    26 * HOUR,
    40 * HOUR,
    2.5 * DAY_MS,
    7 * DAY_MS,
    30 * DAY_MS,
    400 * DAY_MS,
  ];

  it('writes no label twice, however short or long the history, at 1280 and 1920', () => {
    for (const span of SPANS)
      for (const width of [1_042, 1_682]) {
        const labels = axisLabels(NOW - span, width);
        const where = `${span / MIN} min of history, ${width} px: ${labels.join(' | ')}`;
        expect(labels.length, where).toBeGreaterThanOrEqual(3);
        expect(new Set(labels).size, where).toBe(labels.length);
      }
  });

  it('writes every ratio on its y axis with three decimals, as ECharts draws it at 1280 and 1920 (issue 40: "1.25" beside "1.2")', () => {
    const p = position({ apr: 0.3 });
    for (const [warning, critical, liquidation] of [
      [1.5, 1.25, 1.125],
      [1.22, 1.21, 1.2],
      [2, 1.5, 1.1],
    ] as const) {
      const options: Array<Record<string, unknown>> = [];
      mount(RiskHistoryChart, {
        props: { readings: flatAt(p, [NOW - 3_600_000, NOW]), warning, critical, liquidation },
        global: { stubs: { VChart: chartProbe(options), Echarts: chartProbe(options) } },
      }).unmount();
      for (const width of [1_042, 1_682]) {
        // The y axis's labels: the drawn texts that are a number alone (the lines' names say theirs).
        const ticks = drawnTexts(options.at(-1)!, width, 300)
          .map((t) => t.text)
          .filter((t) => /^\d+(\.\d+)?$/.test(t));
        const where = `${warning}/${critical}/${liquidation}, ${width} px: ${ticks.join(' | ')}`;
        expect(ticks.length, where).toBeGreaterThanOrEqual(3);
        for (const t of ticks) expect(t, where).toMatch(/^\d+\.\d{3}$/);
      }
    }
  });

  it("chooses the labels' grain by the span, in the user's zone: seconds, the clock, the day and the clock, the day", () => {
    // NOW is 7:00 AM in New York (12:00 UTC).
    const seconds = axisLabels(NOW - 3 * MIN, 1_042);
    for (const l of seconds) expect(l).toMatch(/^6:5\d:\d\d AM$|^7:00:\d\d AM$/);
    const clock = axisLabels(NOW - 40 * MIN, 1_042);
    expect(clock).toContain('6:30 AM');
    for (const l of clock) expect(l).toMatch(/^\d{1,2}:\d\d [AP]M$/);
    // Since 3 PM yesterday in New York: midnight there is the day, the rest its clock.
    const overnight = axisLabels(NOW - 16 * HOUR, 1_042);
    expect(overnight).toContain('Nov 25');
    expect(overnight.filter((l) => !/^\d{1,2}:\d\d [AP]M$/.test(l))).toEqual(['Nov 25']);
    // Over more than a day a clock comes round again: each label says its day.
    for (const l of axisLabels(NOW - 40 * HOUR, 1_042)) expect(l).toMatch(/^Nov \d{1,2}(, \d{1,2}:00 [AP]M)?$/);
    for (const l of axisLabels(NOW - 30 * DAY_MS, 1_042)) expect(l).toMatch(/^(Oct|Nov|Dec) \d{1,2}$/);
    for (const l of axisLabels(NOW - 400 * DAY_MS, 1_042)) expect(l).toMatch(/^[A-Z][a-z]{2} \d{1,2}, 20\d\d$/);
  });
});
