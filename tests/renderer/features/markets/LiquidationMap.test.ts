// @vitest-environment happy-dom
import { mount } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { beforeEach, describe, expect, it } from 'vitest';
import type { LiquidationMapView } from '../../../../src/shared/contract';
import { bucketsOf, clustersOf, mapEntryOf, type Holdings } from '../../../../src/shared/risk-model';
import LiquidationBand from '../../../../src/renderer/src/features/markets/LiquidationBand.vue';
import LiquidationSummary from '../../../../src/renderer/src/features/markets/LiquidationSummary.vue';
import type { DepthView } from '../../../../src/renderer/src/features/markets/depth';
import { chartProbe } from '../../support/manager';
import { SUI_USDC as SUI_USDC_POOL } from '../../support/pools';

beforeEach(() => setActivePinia(createPinia()));

const POOL = SUI_USDC_POOL;
const PARAMS = { liquidation: 1.125, target_liquidation: 1.25, user_reward: 0.01, pool_reward: 0.04 };
const long = (base: number, debtQuote: number): Holdings => ({ base, quote: 0, debtBase: 0, debtQuote });
const short = (quote: number, debtBase: number): Holdings => ({ base: 0, quote, debtBase, debtQuote: 0 });

/** The hand-walked case of tests/unit/shared/liquidation-map.test.ts: C is the trader's own. */
const entries = [
  mapEntryOf('C', long(240, 480), PARAMS, true)!,
  mapEntryOf('B', long(120, 284.8), PARAMS)!,
  mapEntryOf('A', long(120, 288), PARAMS)!,
  mapEntryOf('D', short(594, 160), PARAMS)!,
  mapEntryOf('E', short(300.6, 80), PARAMS)!,
];
const buckets = bucketsOf(entries, 0.1);
const VIEW: LiquidationMapView = {
  pool: 'SUI_USDC',
  entries,
  buckets,
  width: 0.1,
  clusters: clustersOf(buckets),
  readAt: Date.UTC(2026, 10, 23, 12),
  everyMs: 3_600_000,
  loans: 5,
  pages: 1,
  unplaced: 0,
};
const level = (price: number, quantity: number) => ({ price, quantity, orders: 1, total: 0 });
const BOOK: DepthView = {
  bids: [level(2.99, 50), level(2.8, 40), level(2.69, 30), level(2.66, 50), level(2.6, 100)],
  asks: [level(3.01, 20), level(3.32, 40), level(3.34, 60), level(3.4, 100)],
  mid: 3,
  spread: 0.02,
  spreadPct: 0.67,
};

describe('the liquidation map on the pool page', () => {
  it('says each cascade with its figures, the trader’s own, and its assumptions', () => {
    const w = mount(LiquidationSummary, {
      props: { view: VIEW, book: BOOK, last: 3, pool: POOL, priceDecimals: 4, loading: false },
    });
    expect(w.get('[data-testid=liqmap-sides]').text()).toMatch(
      /Below the price: 3 longs, \$658\.00 to repay at their liquidations\. Above it: 2 shorts, \$497\.00\.\s+1 of them yours/,
    );
    // The nearest cluster each side (longs 2.6000–2.8000, shorts 3.3000–3.4000), walked by hand in the unit test.
    const rows = w.findAll('[data-testid=cascade-row]').map((r) => r.text());
    expect(rows).toEqual([
      expect.stringContaining(
        'A fall to 2.7000 liquidates 2 longs (1 of them set off on the way), $358.00 to repay; they sell 140.0000 SUI, which the book absorbs down to 2.6000.',
      ),
      expect.stringContaining(
        'A rise to 3.3000 liquidates 2 shorts (1 of them set off on the way), $497.00 to repay; they buy back 150.0000 SUI, which the book absorbs up to 3.4000.',
      ),
    ]);
    expect(rows[0]).toContain('(cluster 2.6000–2.8000: 2 positions)');
    const assumptions = w.get('[data-testid=cascade-assumptions]').text();
    expect(assumptions).toContain('as of its snapshot time');
    expect(assumptions).toContain('no order is added or pulled');
    expect(assumptions).toContain('at market, at once');
    expect(assumptions).toContain('read every 60 min');
    // Inside the book's levels: nothing assumed beyond them, so the page does not say it.
    expect(assumptions).not.toContain('Beyond the');
  });

  it('says so when the walk went past the book’s levels, and before the book is there', () => {
    const far = mount(LiquidationSummary, {
      props: {
        view: VIEW,
        book: { ...BOOK, bids: BOOK.bids.slice(0, 2) },
        last: 3,
        pool: POOL,
        priceDecimals: 4,
        loading: false,
      },
    });
    expect(far.get('[data-testid=cascade-assumptions]').text()).toContain(
      'Beyond the 2 levels the service shows a side',
    );
    const waiting = mount(LiquidationSummary, {
      props: { view: VIEW, book: undefined, last: 3, pool: POOL, priceDecimals: 4, loading: false },
    });
    expect(waiting.text()).toContain('Waiting for the book to estimate the cascades.');
  });

  it('says what happened and what to do when the map cannot be had', () => {
    const w = mount(LiquidationSummary, {
      props: {
        view: undefined,
        book: BOOK,
        last: 3,
        pool: POOL,
        priceDecimals: 4,
        loading: false,
        error: { message: 'The service did not answer.', advice: 'Check the connection; Tidewatch tries again.' },
      },
    });
    expect(w.get('[role=alert]').text()).toContain('The service did not answer.');
    expect(w.text()).not.toMatch(/https?:|at \w+ \(/);
  });

  it('draws a bar per bucket, longs and shorts apart, the trader’s own marked and the price now', () => {
    const options: any[] = [];
    mount(LiquidationBand, {
      props: { view: VIEW, last: 3, priceDecimals: 4, quoteSymbol: 'USDC', height: 430 },
      global: { stubs: { VChart: chartProbe(options), Echarts: chartProbe(options) } },
    });
    const o = options.at(-1);
    const [longs, shorts, yours] = o.series;
    expect(longs.data.filter((d: unknown) => d !== null)).toHaveLength(3);
    expect(shorts.data.filter((d: unknown) => d !== null)).toEqual([[expect.closeTo(497, 9), expect.closeTo(3.35, 9)]]);
    // C, the trader's own, in 2.2–2.3.
    expect(yours.data).toEqual([[0, expect.closeTo(2.25, 9)]]);
    expect(yours.markLine.data).toEqual([{ yAxis: 3 }]);
    expect(o.yAxis.axisLabel.formatter(2.25)).toBe('2.2500');
    expect(o.tooltip.formatter({ dataIndex: 4, seriesName: 'longs' })).toBe(
      '2.6000–2.7000 USDC<br>1 long, <b>$178</b> to repay',
    );
  });
});
