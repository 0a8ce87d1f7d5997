// @vitest-environment happy-dom
import { mount } from '@vue/test-utils';
import { describe, expect, it } from 'vitest';
import type { Pool } from '../../../../src/shared/api';
import { rawPrice } from '../../../../src/shared/units';
import CandleChart from '../../../../src/renderer/src/features/markets/CandleChart.vue';
import type { PositionLine } from '../../../../src/renderer/src/features/markets/position-lines';
import { chartProbe, NOW } from '../../support/manager';

const POOL = {
  pool_id: '0x1',
  pool_name: 'SUI_USDC',
  base_asset_id: '0x2::sui::SUI',
  quote_asset_id: '0x3::usdc::USDC',
  base_asset_decimals: 9,
  quote_asset_decimals: 6,
  base_asset_symbol: 'SUI',
  quote_asset_symbol: 'USDC',
  tick_size: 100,
  lot_size: 100_000_000,
} as Pool;

/** Candles between 3.60 and 3.75. */
const CANDLES = [3.6, 3.75, 3.7].map((c, i) => ({
  timestamp: new Date(NOW - (3 - i) * 900_000).toISOString().slice(0, 19),
  open: rawPrice(c, POOL),
  high: rawPrice(c, POOL),
  low: rawPrice(c, POOL),
  close: rawPrice(c, POOL),
  volume_base: '0',
  volume_quote: '0',
  trade_count: 1,
}));

const line = (id: string, kind: PositionLine['kind'], price: number): PositionLine => ({
  manager_id: `0x${id.repeat(4)}${'0'.repeat(56)}${id.repeat(2)}`.slice(0, 66),
  kind,
  price,
  side: 'long',
  distance: null,
  movedAt: null,
});

type Mark = { yAxis: number; label: { show?: boolean; formatter?: string; position?: string } };
type Option = {
  yAxis?: Array<{ min?: number; max?: number }>;
  series?: Array<{ markLine?: { data: Mark[] } }>;
};

function draw(lines: PositionLine[]) {
  const options: Option[] = [];
  const w = mount(CandleChart, {
    props: {
      pool: POOL,
      candles: CANDLES,
      daily: false,
      zoom: { start: 0, end: 100 },
      last: 3.7,
      lines,
      focus: null,
      priceDecimals: 4,
      sizeDecimals: 1,
    },
    global: { stubs: { VChart: chartProbe(options), Echarts: chartProbe(options) } },
  });
  const o = options.at(-1)!;
  const labels = o.series![0]!.markLine!.data.filter((m) => m.label.show && m.label.formatter !== '3.7000');
  w.unmount();
  return { o, labels: labels.map((m) => [m.label.formatter, m.label.position]) };
}

describe('the price chart: labels of close positions never overlap', () => {
  it("fixes the price axis to the candles, the lines and the last price, with a label's room above", () => {
    const { o } = draw([line('a', 'liquidation', 3.4)]);
    const y = o.yAxis![0]!;
    expect(y.min).toBeLessThan(3.4);
    expect(y.max).toBeGreaterThan(3.75);
    // 21 px of the 302 px plot above the highest candle: a label on a line there stays on the chart.
    expect(((y.max! - 3.75) / (y.max! - y.min!)) * 302).toBeCloseTo(21, 6);
  });

  it("a position's liquidation and break-even a tick apart: side by side, left and middle", () => {
    const { labels } = draw([line('a', 'liquidation', 3.65), line('a', 'break-even', 3.6501)]);
    expect(labels).toEqual([
      ['Liq 0xaaaa…aa 3.6500', 'insideStartTop'],
      ['Break-even 0xaaaa…aa 3.6501', 'insideMiddleTop'],
    ]);
  });

  it('four lines within a label of each other: one label that counts them', () => {
    const { labels } = draw([
      line('a', 'liquidation', 3.65),
      line('b', 'liquidation', 3.651),
      line('a', 'break-even', 3.652),
      line('c', 'liquidation', 3.653),
    ]);
    expect(labels).toEqual([['4 lines: Liq ×3, Break-even ×1, 3.6500–3.6530', 'insideStartTop']]);
  });

  it('lines far apart: each its own label on the left', () => {
    const { labels } = draw([line('a', 'liquidation', 3.45), line('b', 'liquidation', 3.62)]);
    expect(labels).toEqual([
      ['Liq 0xaaaa…aa 3.4500', 'insideStartTop'],
      ['Liq 0xbbbb…bb 3.6200', 'insideStartTop'],
    ]);
  });
});
