import { BarChart, CandlestickChart, LineChart, ScatterChart } from 'echarts/charts';
import {
  DataZoomComponent,
  GridComponent,
  LegendComponent,
  MarkLineComponent,
  TooltipComponent,
} from 'echarts/components';
import { use } from 'echarts/core';
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
