import { init, use } from 'echarts/core';
import { SVGRenderer } from 'echarts/renderers';
import '../../../src/renderer/src/charts';

use([SVGRenderer]);

/** A text as ECharts drew it: its words and its box in the chart (px from its top left), background and padding included. */
export interface DrawnText {
  text: string;
  x: number;
  y: number;
  width: number;
  height: number;
}

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}
interface Shown {
  type: string;
  parent: Shown | null;
  style?: { text?: string };
  getBoundingRect(): Box & { clone(): Box & { applyTransform(m: unknown): void } };
  getComputedTransform(): unknown;
}

/**
 * Every text an option draws in a chart `width` × `height`, laid out by ECharts itself (its
 * server-side SVG renderer, no canvas: text widths are its own estimates), after it has hidden
 * what it hides (an overlapping label, an axis's end label turned off). The option is one a view
 * gave its chart (`chartProbe` catches it).
 */
export function drawnTexts(option: object, width: number, height: number): DrawnText[] {
  const chart = init(null as unknown as HTMLElement, null, { renderer: 'svg', ssr: true, width, height });
  try {
    chart.setOption(option as Record<string, unknown>);
    const shown = (chart.getZr() as unknown as { storage: { getDisplayList(update: boolean): Shown[] } }).storage
      .getDisplayList(true)
      .filter((el) => el.parent?.type === 'text');
    // A label is a text element whose parts (its words, its background) are drawn as its children.
    const labels = new Map<Shown, { text: string; boxes: Box[] }>();
    for (const el of shown) {
      const r = el.getBoundingRect().clone();
      const m = el.getComputedTransform();
      if (m) r.applyTransform(m);
      const label = labels.get(el.parent!) ?? { text: '', boxes: [] };
      if (el.style?.text) label.text += el.style.text;
      label.boxes.push(r);
      labels.set(el.parent!, label);
    }
    return [...labels.values()]
      .filter((l) => l.text !== '')
      .map(({ text, boxes }) => {
        const x = Math.min(...boxes.map((b) => b.x));
        const y = Math.min(...boxes.map((b) => b.y));
        return {
          text,
          x,
          y,
          width: Math.max(...boxes.map((b) => b.x + b.width)) - x,
          height: Math.max(...boxes.map((b) => b.y + b.height)) - y,
        };
      });
  } finally {
    chart.dispose();
  }
}

/** Whether two drawn boxes share any area. */
export function overlap(a: Box, b: Box): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}
