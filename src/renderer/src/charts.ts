import { BarChart, CandlestickChart, LineChart, ScatterChart } from 'echarts/charts';
import {
  DataZoomComponent,
  GraphicComponent,
  GridComponent,
  LegendComponent,
  MarkLineComponent,
  TooltipComponent,
} from 'echarts/components';
import { use } from 'echarts/core';
import { axisTimeStep } from '../../shared/format';
import { axisTime } from './format';
import { themeVersion } from './theme';
import { CanvasRenderer } from 'echarts/renderers';

/** ECharts, only the chart types the views use (tree-shaken). */
use([
  LineChart,
  BarChart,
  CandlestickChart,
  ScatterChart,
  GridComponent,
  TooltipComponent,
  DataZoomComponent,
  GraphicComponent,
  LegendComponent,
  MarkLineComponent,
  CanvasRenderer,
]);

/** Colours the charts take from the theme's CSS variables. */
export type ThemeColors = {
  fg: string;
  muted: string;
  border: string;
  ok: string;
  bad: string;
  warn: string;
  accent: string;
  surface: string;
};
let colors: { version: number; colors: ThemeColors } | undefined;

/**
 * Colours the charts take from the theme's CSS variables, read once per theme (`themeVersion`):
 * `getComputedStyle` forces a style recalculation, and a busy pool rebuilds its charts often.
 */
export function themeColors(): ThemeColors {
  const version = themeVersion.value;
  if (colors?.version === version) return colors.colors;
  const css = getComputedStyle(document.documentElement);
  const v = (name: string): string => css.getPropertyValue(name).trim() || '#888';
  colors = {
    version,
    colors: {
      fg: v('--fg'),
      muted: v('--muted'),
      border: v('--border'),
      ok: v('--ok'),
      bad: v('--bad'),
      warn: v('--warn'),
      accent: v('--accent'),
      surface: v('--surface'),
    },
  };
  return colors.colors;
}

/**
 * Where labels beside a chart go so that no two overlap (issue 40: the risk chart's threshold
 * names touched when two lines were close, the pool page's position labels sat on one another).
 * `ys` are the pixel heights the labels want (their lines'), in any order; `gap` is the least
 * distance between two labels (a label's height and some air). Labels keep their order top to
 * bottom (ties in the order given); a run of labels closer than `gap` is spread `gap` apart
 * around where its labels want to be (the least squared shift), and pushed inside
 * `[top, bottom]` where it would leave it. Whole pixels, so a whole `gap` is met exactly. More
 * labels than the span holds start at `top` and run past `bottom`: merge them first (a count).
 */
export function spreadLabels(
  ys: readonly number[],
  gap: number,
  bounds: { top: number; bottom: number } = { top: -Infinity, bottom: Infinity },
): number[] {
  const order = ys.map((y, i) => [y, i] as const).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  /** A run of labels `gap` apart: the sum of the starts its members want (each its y less its offset). */
  const runs: Array<{ sum: number; members: number[]; start: number }> = [];
  const place = (sum: number, n: number): number => {
    const first = Math.ceil(bounds.top);
    const last = Math.floor(bounds.bottom - (n - 1) * gap);
    return last < first ? first : Math.min(Math.max(Math.round(sum / n), first), last);
  };
  for (const [y, i] of order) {
    let run = { sum: y, members: [i], start: place(y, 1) };
    for (let prev = runs.at(-1); prev && prev.start + prev.members.length * gap > run.start; prev = runs.at(-1)) {
      runs.pop();
      const sum = prev.sum + run.sum - prev.members.length * gap * run.members.length;
      const members = [...prev.members, ...run.members];
      run = { sum, members, start: place(sum, members.length) };
    }
    runs.push(run);
  }
  const out = new Array<number>(ys.length);
  for (const r of runs) r.members.forEach((i, k) => (out[i] = r.start + k * gap));
  return out;
}

/** The least distance between two labels beside a chart (`spreadLabels`): an 11 px label and 3 px of air. */
export const LABEL_GAP_PX = 14;
/** The leader from the plot's edge to a moved label: this wide, the label after it. */
const LEADER_PX = 8;

/** A horizontal line's label beside the plot: its words and colour, its line's height and its own (px). */
export interface MarginLabel {
  text: string;
  color: string;
  /** The line's height in the chart (px from its top). */
  line: number;
  /** The label's, once spread (`spreadLabels`). */
  y: number;
}

/**
 * How a chart with `marginLabels` is updated (vue-echarts' `update-options`): its `graphic`
 * replaced whole, the rest merged. Merged, a group's children are matched by index and the ones
 * past the new count stay (three labels, then one: two stale ones left); and a group given
 * `$action: 'replace'` lost its texts on the second update (ECharts 6.1, seen in Chromium).
 */
export const REPLACE_GRAPHIC = { replaceMerge: ['graphic'] };

/**
 * The labels of a chart's horizontal lines in the margin beside its plot, never over the data: one
 * `graphic` group `width` wide and `height` tall (the chart's), against the chart's `side` edge,
 * so its inner edge is the plot's (the grid's margin on that side is `width`). Each label sits at
 * its spread height with a leader from the plot's edge at its line's height. The chart is updated
 * with `REPLACE_GRAPHIC`, so no label of an earlier option is left behind.
 */
export function marginLabels(
  side: 'left' | 'right',
  width: number,
  height: number,
  labels: readonly MarginLabel[],
): object {
  const edge = side === 'left' ? width : 0;
  const out = side === 'left' ? -1 : 1;
  return {
    type: 'group',
    id: `${side}-line-labels`,
    [side]: 0,
    top: 0,
    width,
    height,
    bounding: 'raw',
    silent: true,
    children: labels.flatMap((l) => [
      {
        type: 'polyline',
        shape: {
          points: [
            [edge, l.line],
            [edge + out * (LEADER_PX / 2), l.line],
            [edge + out * LEADER_PX, l.y],
          ],
        },
        style: { stroke: l.color, lineWidth: 1, fill: null },
      },
      {
        type: 'text',
        x: edge + out * (LEADER_PX + 2),
        y: l.y,
        style: {
          text: l.text,
          fill: l.color,
          fontSize: 11,
          align: side === 'left' ? 'right' : 'left',
          verticalAlign: 'middle',
        },
      },
    ]),
  };
}

/**
 * A time axis's ticks and labels over `spanMs`, in the user's zone and the app's one style
 * (format.ts `axisTime`; the axis's name says the zone: `zone()`), no two labels alike: its ticks
 * no closer than its labels tell apart (`axisTimeStep`), and no label at its ends, which ECharts
 * puts wherever the data stops, between two ticks, reading like the nearer one (docs/formats.md).
 * Spread into the axis beside its `type: 'time'`.
 */
export function timeAxisLabels(spanMs: number, color: string): { minInterval: number; axisLabel: object } {
  return {
    minInterval: axisTimeStep(spanMs),
    axisLabel: {
      color,
      hideOverlap: true,
      showMinLabel: false,
      showMaxLabel: false,
      formatter: (v: number) => axisTime(v, spanMs),
    },
  };
}
