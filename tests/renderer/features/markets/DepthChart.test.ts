// @vitest-environment happy-dom
import { mount } from '@vue/test-utils';
import { describe, expect, it } from 'vitest';
import type { Pool } from '../../../../src/shared/api';
import { rawPrice, tickDecimals } from '../../../../src/shared/units';
import DepthChart from '../../../../src/renderer/src/features/markets/DepthChart.vue';
import { aggregateDepth } from '../../../../src/renderer/src/features/markets/depth';
import { drawnTexts, overlap } from '../../support/drawn';
import { chartProbe } from '../../support/manager';

const pool = (name: string, decimals: [number, number], tick: number, lot: number): Pool => {
  const [base, quote] = name.split('_') as [string, string];
  return {
    pool_id: `0x${name}`,
    pool_name: name,
    base_asset_symbol: base,
    quote_asset_symbol: quote,
    base_asset_decimals: decimals[0],
    quote_asset_decimals: decimals[1],
    tick_size: tick,
    lot_size: lot,
  } as Pool;
};

/** The Demo network's pools, each with a book about `mid`, its far levels `reach` away. */
const BOOKS: Array<{ pool: Pool; mid: number; reach: number }> = [
  // DEEP_USDC at 0.1835: the mid rounded at ECharts' default 2 decimals (0.18) fell on the plot's
  // left edge, its label on the axis's name "DEEP" (issue 40).
  { pool: pool('DEEP_USDC', [6, 6], 10_000, 1_000_000), mid: 0.1835, reach: 0.0035 },
  { pool: pool('DEEP_USDC', [6, 6], 10_000, 1_000_000), mid: 0.18008, reach: 0.0025 },
  // SUI-quoted pools near 0.05: at 2 decimals, off the axis, the mid line not drawn at all.
  { pool: pool('DEEP_SUI', [6, 9], 10_000_000, 1_000_000), mid: 0.05542, reach: 0.0008 },
  { pool: pool('NS_SUI', [6, 9], 10_000_000, 100_000), mid: 0.03642, reach: 0.0018 },
  { pool: pool('SUI_USDC', [9, 6], 100, 100_000_000), mid: 3.2326, reach: 0.04 },
  { pool: pool('XBTC_USDC', [8, 6], 1_000_000, 1_000), mid: 108_468.2, reach: 300 },
];

function optionOf(b: (typeof BOOKS)[number]): Record<string, any> {
  const R = (x: number): number => rawPrice(x, b.pool);
  const tick = b.pool.tick_size;
  const depth = {
    pool_id: b.pool.pool_id,
    bids: [
      { price: R(b.mid) - tick, total_quantity: 7_810 * b.pool.lot_size, order_count: 1 },
      { price: R(b.mid - b.reach), total_quantity: 1_200_000 * b.pool.lot_size, order_count: 1 },
    ],
    asks: [
      { price: R(b.mid) + tick, total_quantity: 2_024 * b.pool.lot_size, order_count: 1 },
      { price: R(b.mid + b.reach * 0.8), total_quantity: 300_000 * b.pool.lot_size, order_count: 1 },
    ],
  };
  const options: Array<Record<string, any>> = [];
  mount(DepthChart, {
    props: { view: aggregateDepth(depth, b.pool), pool: b.pool, priceDecimals: tickDecimals(b.pool) },
    global: { stubs: { VChart: chartProbe(options), Echarts: chartProbe(options) } },
  }).unmount();
  return options.at(-1)!;
}

describe('the depth chart', () => {
  it("draws the mid where it is, its label over the plot's middle, touching no other label, 320 to 700 px wide", () => {
    for (const b of BOOKS) {
      const option = optionOf(b);
      for (const width of [320, 400, 480, 540, 700]) {
        const drawn = drawnTexts(option, width, 260);
        const where = `${b.pool.pool_name} at ${b.mid}, ${width} px: ${drawn.map((t) => t.text).join(' | ')}`;
        const mid = drawn.find((t) => t.text.startsWith('mid '));
        expect(mid, where).toBeDefined();
        // Its label's centre is the mid's place on the price axis, read off the axis's own labels.
        const ticks = drawn
          .filter((t) => t.y > 200 && /^[\d,]+\.\d+$/.test(t.text))
          .map((t) => ({ value: Number(t.text.replace(/,/g, '')), px: t.x + t.width / 2 }));
        expect(ticks.length, where).toBeGreaterThanOrEqual(2);
        const [a, z] = [ticks[0]!, ticks.at(-1)!];
        const midPx = a.px + ((b.mid - a.value) / (z.value - a.value)) * (z.px - a.px);
        expect(Math.abs(mid!.x + mid!.width / 2 - midPx), where).toBeLessThan(2);
        for (const [i, a] of drawn.entries())
          for (const c of drawn.slice(i + 1)) expect(overlap(a, c), `${a.text} on ${c.text}: ${where}`).toBe(false);
      }
    }
  });
});
