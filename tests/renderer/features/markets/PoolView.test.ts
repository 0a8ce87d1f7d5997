// @vitest-environment happy-dom
import { mount } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { nextTick } from 'vue';
import type { Router } from 'vue-router';
import type {
  CreditForecast,
  LiquidationMapView,
  StatusSnapshot,
  StreamStatus,
  PayloadOf,
  PositionSummary,
  TidewatchApi,
  Topic,
} from '../../../../src/shared/contract';
import { setApi } from '../../../../src/renderer/src/api';
import PoolView from '../../../../src/renderer/src/features/markets/PoolView.vue';
import { LIVE_EVERY_MS } from '../../../../src/renderer/src/features/markets/live-pool';
import { useStatusStore } from '../../../../src/renderer/src/stores/status';
import { bucketsOf, bucketWidth, clustersOf } from '../../../../src/shared/risk-model';
import { distance, time } from '../../../../src/renderer/src/format';
import { usePortfolioStore } from '../../../../src/renderer/src/stores/portfolio';
import { fakeApi } from '../../../support/fake-api';
import { routerAt } from '../../support/router';
import { FORECAST } from '../../support/settings';
import { settle, withFakeIntervals } from '../../support/timing';
import { NOW, position, chartProbe } from '../../support/manager';
import { flatCandles, SUI_USDC as SUI_USDC_POOL } from '../../support/pools';

/** SUI_USDC's page, settled, every chart's option caught in `options` (the last is what is drawn). */
async function mountCharted(options: unknown[]) {
  const w = mount(PoolView, {
    props: { poolName: 'SUI_USDC' },
    global: {
      plugins: [await routerAt('/markets/SUI_USDC')],
      stubs: { VChart: chartProbe(options), Echarts: chartProbe(options) },
    },
  });
  await settle();
  return w;
}

beforeEach(() => setActivePinia(createPinia()));

describe('the pool page: what its stream costs, or why it does not stream', () => {
  let router: Router;
  beforeEach(async () => {
    router = await routerAt('/markets/SUI_USDC');
  });
  const POOL = SUI_USDC_POOL;
  const stream = (id: string, state: StreamStatus['state']): StreamStatus => ({
    id,
    state,
    lastEventAt: null,
    lastByteAt: null,
    nextTryAt: null,
    reconnects: 0,
    events: 0,
    lastError: null,
  });
  const CREDITS = { today: 1_000, thisMonth: 20_000, month: '2025-06', estimated: 0, streamedKb: 5_000, budget: null };
  const snapshot = (streams: StreamStatus[], credits: StatusSnapshot['credits'] = CREDITS): StatusSnapshot => ({
    network: credits ? 'custom' : 'demo',
    online: true,
    offlineSince: null,
    streams,
    storeNotice: null,
    storeError: null,
    historyGaps: [],
    internalError: null,
    credits,
    reads: null,
  });
  const answer = <T>(data: T) => ({ data, source: 'network', fetchedAt: Date.now(), stale: false });

  const mountPool = (s: StatusSnapshot, poolStreams: CreditForecast['poolStreams']) => {
    const f = fakeApi({
      pools: () => answer([POOL]),
      depth: () =>
        answer({
          pool_id: '0x1',
          bids: [{ price: 3_500_000, total_quantity: 2e9, order_count: 1 }],
          asks: [{ price: 3_510_000, total_quantity: 1e9, order_count: 1 }],
        }),
      trades: () => answer([]),
      candles: () => answer([]),
      creditForecast: () => ({ ...FORECAST, poolStreams }),
    });
    setApi(f.api);
    useStatusStore().snapshot = s;
    const w = mount(PoolView, {
      props: { poolName: 'SUI_USDC' },
      global: { plugins: [router], stubs: { VChart: true, Echarts: true } },
    });
    const reads = (): number => f.calls.filter(([m]) => m === 'creditForecast').length;
    const line = () => w.find('[data-testid="pool-stream-line"]');
    return { w, reads, line };
  };
  const LIVE = [stream('margin', 'open'), stream('pool:SUI_USDC', 'open')];

  it('says what the open stream costs an hour, read when shown and every 30 s, and no more once left', async () => {
    await withFakeIntervals(async () => {
      const { w, reads, line } = mountPool(snapshot(LIVE), [
        { pool: 'DEEP_USDC', perHour: 9_000 },
        { pool: 'SUI_USDC', perHour: 41_234 },
      ]);
      await settle();
      expect(line().text()).toBe('Live stream: about 41,000 credits an hour while this page is open');
      expect(reads()).toBe(1);
      vi.advanceTimersByTime(30_000);
      expect(reads()).toBe(2);
      w.unmount();
      vi.advanceTimersByTime(60_000);
      expect(reads()).toBe(2);
    });
  });

  it('says it is measuring the cost while the stream is new (not measured, or not yet in the forecast)', async () => {
    const measuring = mountPool(snapshot(LIVE), [{ pool: 'SUI_USDC', perHour: null }]);
    await settle();
    expect(measuring.line().text()).toBe('Live stream: measuring its cost…');
    measuring.w.unmount();
    const notYet = mountPool(snapshot(LIVE), []);
    await settle();
    expect(notYet.line().text()).toBe('Live stream: measuring its cost…');
    notYet.w.unmount();
  });

  it('shows no cost on the Demo network (it charges nothing), and does not read the forecast there', async () => {
    const { w, reads, line } = mountPool(snapshot(LIVE, null), [{ pool: 'SUI_USDC', perHour: 41_234 }]);
    await settle();
    expect(w.find('[data-testid="mid-price"]').exists()).toBe(true);
    expect(line().exists()).toBe(false);
    expect(reads()).toBe(0);
    w.unmount();
  });

  it("says why it does not stream while it waits for the plan's stream limit, and the cost once it streams", async () => {
    const { w, reads, line } = mountPool(
      snapshot([stream('margin', 'open'), stream('pool:SUI_USDC', 'waiting-budget')]),
      [{ pool: 'SUI_USDC', perHour: 41_234 }],
    );
    await settle();
    expect(line().text()).toBe(
      'Not streaming: your plan allows 1 stream at once and the margin stream (the liquidation alarm) has it. The book and trades here are as read when the page opened and do not refresh; it stays so on this plan: one with more streams (Builder allows 3) shows this pool live (Settings).',
    );
    expect(reads()).toBe(0);
    useStatusStore().snapshot = snapshot([
      stream('margin', 'open'),
      stream('pool:DEEP_USDC', 'open'),
      stream('pool:SUI_USDC', 'waiting-budget'),
    ]);
    await settle();
    expect(line().text()).toBe(
      "Not streaming: your plan allows 2 streams at once and the margin stream (the liquidation alarm) and the DEEP_USDC pool page's stream have them. The book and trades here are as read when the page opened and do not refresh; the page goes live by itself once a stream is free.",
    );
    // A place came free (the other pool page was left): the stream opens, and its cost is read at once.
    useStatusStore().snapshot = snapshot(LIVE);
    await settle();
    expect(reads()).toBe(1);
    expect(line().text()).toBe('Live stream: about 41,000 credits an hour while this page is open');
    w.unmount();
  });
});

describe('the pool page: watched positions on the price chart', () => {
  const POOL = SUI_USDC_POOL;
  const answer = <T>(data: T) => ({ data, source: 'network', fetchedAt: Date.now(), stale: false });

  it("draws each one's liquidation and break-even price in USDC (USD over the quote's price) and lists them, nearest liquidation first", async () => {
    // USDC at $0.998 in the valuation: a USD price over 0.998 is the price in USDC.
    const q = { base: 2.5, quote: 0.998 };
    const inUsdc = (usdPrice: number | null): number => usdPrice! / 0.998;
    const long = position({ p: q });
    const near = position({
      id: `0xcc33${'2'.repeat(58)}99`,
      h: { base: 1000, quote: 0, debtBase: 0, debtQuote: 1800 },
      p: q,
    });
    const short = position({
      id: `0xab12${'1'.repeat(58)}ef`,
      h: { base: 0, quote: 3000, debtBase: 850, debtQuote: 0 },
      p: q,
      net: 800,
      movedAt: NOW - 3_600_000,
    });
    const elsewhere = position({ id: '0xother', pool: 'DEEP_USDC' });
    const quoteOf = (x: PositionSummary) => ({
      ...x,
      quote_price: { symbol: 'USDC', usd: 0.998, source: 'oracle' as const, at: NOW },
    });
    const candles = flatCandles([2.3, 2.2], NOW, POOL);
    const api: TidewatchApi = {
      async invoke(method) {
        const answers: Record<string, unknown> = {
          pools: answer([POOL]),
          depth: answer({ pool_id: '0x1', bids: [], asks: [] }),
          trades: answer([]),
          candles: answer(candles),
        };
        if (!(method in answers)) throw new Error(`unexpected ${method}`);
        return answers[method] as never;
      },
      subscribe<T extends Topic>(_t: T, _l: (p: PayloadOf<T>) => void) {
        return () => {};
      },
    };
    setApi(api);
    usePortfolioStore().summary = {
      wallets: [
        {
          owner: '0xowner',
          label: null,
          positions: [long, short, near, elsewhere].map(quoteOf),
          supplies: [],
          totals: { collateral_usd: 0, debt_usd: 0, equity_usd: 0, supplied_usd: 0, unpriced: 0 },
        },
      ],
      prices: [],
      computed_at: NOW,
    };
    type Mark = { yAxis: number; lineStyle: { width: number; opacity: number }; label: { formatter?: string } };
    type Candles = {
      series?: Array<{ markLine?: { data: Mark[] } }>;
      graphic?: Array<{ children: Array<{ type: string; style: { text?: string } }> }>;
    };
    const options: Candles[] = [];
    const candleOption = (): Candles => options.filter((o) => o.series?.[0]?.markLine).at(-1)!;
    const marks = (): Mark[] => candleOption().series![0]!.markLine!.data;
    /** The positions' labels, beside the plot (the graphic's texts), and the last price's tag on its line. */
    const labelsOn = (): Array<string | undefined> => [
      ...candleOption()
        .graphic![0]!.children.filter((c) => c.type === 'text')
        .map((c) => c.style.text),
      ...marks().map((m) => m.label.formatter),
    ];
    const w = await mountCharted(options);

    const rows = w.findAll('[data-testid="pool-position-line"]');
    const priceOf = (kind: string) =>
      rows
        .map((r) => r.find(`[data-kind="${kind}"]`))
        .map((x) => (x.exists() ? Number(x.attributes('data-price')) : null));
    // Liquidations at 2.025, 1.9375 and 3.137 (off the chart around the last price 2.2, as its
    // break-even), each with its distance as the Portfolio gives it (from the valuation's price).
    expect(priceOf('liquidation')).toEqual([near, long, short].map((x) => inUsdc(x.liquidation_price)));
    expect(priceOf('break-even')).toEqual([near, long, short].map((x) => inUsdc(x.pnl.break_even_price)));
    expect(priceOf('liquidation').map((x) => x!.toFixed(4))).toEqual(['2.0250', '1.9375', '3.1373']);
    expect(rows[1]!.text()).toBe(
      `Long 0x7c3600…00de Liq 1.9375 ${distance(long.distance_pct)} Break-even ${inUsdc(long.pnl.break_even_price).toFixed(4)}`,
    );
    expect(rows[2]!.text()).toMatch(
      new RegExp(
        `^Short 0xab1211…11ef Liq 3\\.1373 \\${distance(short.distance_pct)}, off the chart Break-even 2\\.\\d{4} ` +
          `moved by the liquidation at ${time(NOW - 3_600_000)}, off the chart$`,
      ),
    );
    expect(w.get('[data-testid="pool-position-lines"]').text()).toContain(
      'prices in USDC; distances from the oracle price the positions are valued at (as on the Portfolio), not from the mid or the last trade',
    );
    // The Portfolio's snapshot, with its time: the lines and the rows are one valuation.
    expect(w.get('[data-testid="pool-position-lines"] [data-testid="valued-at"]').attributes('data-valued-at')).toBe(
      String(NOW),
    );

    // On the chart: a labelled line at each price within reach of the last price, beside the last price's.
    const labels = labelsOn();
    expect(labels).toEqual(
      expect.arrayContaining([
        `Liq 0x7c3600…00de 1.9375`,
        `Break-even 0x7c3600…00de ${inUsdc(long.pnl.break_even_price).toFixed(4)}`,
        'Liq 0xcc3322…2299 2.0250',
        `Break-even 0xcc3322…2299 ${inUsdc(near.pnl.break_even_price).toFixed(4)}`,
        '2.2000',
      ]),
    );
    expect(marks().some((m) => Math.abs(m.yAxis - inUsdc(long.liquidation_price)) < 1e-9)).toBe(true);
    expect(labels.filter((l) => l?.includes('0xab12'))).toEqual([]);

    // Pointing at a position in the list brings its lines forward and labels only them.
    await rows[0]!.trigger('mouseenter');
    const focused = marks();
    // Top to bottom, as the lines are: the break-even above the liquidation.
    expect(labelsOn().filter((l) => l && l !== '2.2000')).toEqual([
      `Break-even 0xcc3322…2299 ${inUsdc(near.pnl.break_even_price).toFixed(4)}`,
      'Liq 0xcc3322…2299 2.0250',
    ]);
    expect(focused.filter((m) => m.lineStyle.opacity < 0.5).map((m) => m.yAxis)).toEqual([
      inUsdc(long.liquidation_price),
      inUsdc(long.pnl.break_even_price),
    ]);
    w.unmount();
  });
});

describe('the pool page: one mid for the header, the ladder and the depth chart', () => {
  it('takes all three from the same book at every moment, while the book moves many times a second', async () => {
    const POOL = SUI_USDC_POOL;
    const answer = <T>(data: T) => ({ data, source: 'network', fetchedAt: Date.now(), stale: false });
    /** A book around `bid` (raw price): one bid, one ask 10 ticks above. */
    const book = (bid: number) => ({
      pool_id: '0x1',
      bids: [{ price: bid, total_quantity: 2e9, order_count: 1 }],
      asks: [{ price: bid + 1_000, total_quantity: 1e9, order_count: 1 }],
    });
    const f = fakeApi({
      pools: () => answer([POOL]),
      depth: () => answer(book(3_500_000)),
      trades: () => answer([]),
      candles: () => answer([]),
    });
    setApi(f.api);
    const options: Array<{ series?: Array<{ name?: string; markLine?: { label?: { formatter?: string } } }> }> = [];
    const w = await mountCharted(options);
    /** The mid the depth chart draws, as its label says it. */
    const chartMid = (): string | undefined =>
      options
        .filter((o) => o.series?.[0]?.name === 'bids')
        .at(-1)
        ?.series?.[1]?.markLine?.label?.formatter?.replace(/^mid /, '');
    const headerMid = (): string => w.get('[data-testid="mid-price"]').text();
    const ladderMid = (): string => w.get('[data-testid="ladder-mid"]').text();
    // On a tick: the tick's decimals, never a zero no tick has ("3.50050").
    expect(headerMid()).toBe('3.5005');
    expect(chartMid()).toBe(headerMid());
    expect(ladderMid()).toBe(headerMid());
    // 1.2 s of a book moving every 20 ms, on a fake clock (a loaded machine's timers say nothing
    // of the page's cadence): at each look the three say the same mid.
    vi.useFakeTimers({
      toFake: ['setTimeout', 'clearTimeout', 'requestAnimationFrame', 'cancelAnimationFrame', 'performance'],
    });
    try {
      let bid = 3_500_000;
      const seen = new Set<string>();
      for (let i = 0; i < 60; i++) {
        bid += 100;
        f.push('pool:SUI_USDC', { pool: 'SUI_USDC', trades: [], depth: book(bid) });
        await vi.advanceTimersByTimeAsync(20);
        await nextTick();
        expect(chartMid()).toBe(headerMid());
        expect(ladderMid()).toBe(headerMid());
        seen.add(headerMid());
      }
      // The ladder's cadence (every 100 ms, a frame or so later): all three moved together, live, not once a second.
      expect(seen.size).toBeGreaterThanOrEqual(Math.floor(1_200 / (LIVE_EVERY_MS + 20)));
      expect(seen.size).toBeLessThanOrEqual(Math.ceil(1_200 / LIVE_EVERY_MS) + 1);
    } finally {
      vi.useRealTimers();
    }
    w.unmount();
  });
});

describe('the pool page: the candles’ axis reaches where the liquidation map’s money is', () => {
  it('draws the largest crowd of longs on the band, 20 % under the price, at the default zoom', async () => {
    const POOL = SUI_USDC_POOL;
    const answer = <T>(data: T) => ({ data, source: 'network', fetchedAt: Date.now(), stale: false });
    // The trader's SUI_USDC: the price at 3.20, candles 3.10–3.25; 3 longs at 2.95 ($75K), 69 longs
    // 2.55–2.7132 ($3,827,362): 72 longs, $3,902,362. Before, the axis reached the largest bucket
    // within 15 % (2.95) and the band said "▼ 69 under …" for most of the money.
    const entries = [
      ...[0, 1, 2].map((i) => ({ manager_id: `N${i}`, side: 'long' as const, price: 2.95, repay: 25_000 })),
      ...Array.from({ length: 69 }, (_, i) => ({
        manager_id: `F${i}`,
        side: 'long' as const,
        price: 2.55 + (i * (2.7132 - 2.55)) / 68,
        repay: 3_827_362 / 69,
      })),
    ].map((e) => ({ ...e, debt: e.repay / 0.625, base: 0, own: false }));
    const width = bucketWidth(3.2, 0.001);
    const buckets = bucketsOf(entries, width);
    const view: LiquidationMapView = {
      pool: 'SUI_USDC',
      entries,
      buckets,
      width,
      clusters: clustersOf(buckets),
      readAt: Date.now(),
      everyMs: 3_600_000,
      loans: 72,
      pages: 1,
      unplaced: 0,
      liquidated: 0,
    };
    const candles = flatCandles([3.1, 3.25, 3.2], NOW, POOL);
    const f = fakeApi({
      pools: () => answer([POOL]),
      depth: () => answer({ pool_id: '0x1', bids: [], asks: [] }),
      trades: () => answer([]),
      candles: () => answer(candles),
      liquidationMap: () => answer(view),
    });
    setApi(f.api);
    const options: Array<{ yAxis?: Array<{ min?: number; max?: number }> }> = [];
    const w = await mountCharted(options);
    const axis = options.filter((o) => o.yAxis?.[0]?.min !== undefined).at(-1)!.yAxis![0]!;
    // The crowd inside the axis, drawn bucket by bucket; within 35 % of the price, the candles readable.
    expect(axis.min).toBeLessThanOrEqual(2.55);
    expect(axis.min).toBeGreaterThanOrEqual(3.2 * 0.65 - 0.2);
    const lows = w.findAll('[data-testid=band-bar]').map((b) => Number(b.attributes('data-low')));
    expect(lows.filter((l) => l < 2.72)).toHaveLength(buckets.filter((b) => b.high <= 2.73 && b.long.count > 0).length);
    expect(w.find('[data-testid=band-below]').exists()).toBe(false);
    w.unmount();
  });
});
