import { BarChart, CandlestickChart, LineChart, ScatterChart } from 'echarts/charts';
import { DataZoomComponent, GridComponent, LegendComponent, MarkLineComponent, TooltipComponent } from 'echarts/components';
import { use } from 'echarts/core';
import { themeVersion } from './theme';
import { CanvasRenderer } from 'echarts/renderers';

/** ECharts, only the chart types the views use (tree-shaken). */
use([LineChart, BarChart, CandlestickChart, ScatterChart, GridComponent, TooltipComponent, DataZoomComponent, LegendComponent, MarkLineComponent, CanvasRenderer]);

/** Colours the charts take from the theme's CSS variables. */
export function themeColors(): { fg: string; muted: string; border: string; ok: string; bad: string; warn: string; accent: string } {
  void themeVersion.value;
  const css = getComputedStyle(document.documentElement);
  const v = (name: string): string => css.getPropertyValue(name).trim() || '#888';
  return { fg: v('--fg'), muted: v('--muted'), border: v('--border'), ok: v('--ok'), bad: v('--bad'), warn: v('--warn'), accent: v('--accent') };
}
