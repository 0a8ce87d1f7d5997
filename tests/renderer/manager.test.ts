// @vitest-environment happy-dom
import { mount } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { beforeEach, describe, expect, it } from 'vitest';
import { defineComponent, h, nextTick } from 'vue';
import type { Pool } from '../../src/shared/api';
import type {
  PayloadOf,
  PositionSummary,
  RiskParams,
  RiskReading,
  TidewatchApi,
  Topic,
} from '../../src/shared/contract';
import {
  afterDeposit,
  DAY_MS,
  depositFor,
  entryOf,
  levelOf,
  liquidationAt,
  movePct,
  priceAtRatio,
  repayFor,
  sideOf,
  sizeOf,
  timeToLiquidationByInterest,
  valueAt,
  type Holdings,
  type PricePair,
} from '../../src/shared/risk-model';
import { rawPrice } from '../../src/shared/units';
import { setApi } from '../../src/renderer/src/api';
import { num, priceSource, signedPct, usd, usdPrice } from '../../src/renderer/src/format';
import PositionFacts from '../../src/renderer/src/features/manager/PositionFacts.vue';
import ManagerShock from '../../src/renderer/src/features/manager/ManagerShock.vue';
import RepairPanel from '../../src/renderer/src/features/manager/RepairPanel.vue';
import RiskHistoryChart from '../../src/renderer/src/features/manager/RiskHistoryChart.vue';
import { interestProjection, shownUp } from '../../src/renderer/src/features/manager/position-model';
import PoolView from '../../src/renderer/src/features/markets/PoolView.vue';
import { usePortfolioStore } from '../../src/renderer/src/stores/portfolio';
import { routerAt } from './support/router';

beforeEach(() => setActivePinia(createPinia()));

const PARAMS: RiskParams = {
  liquidation: 1.125,
  target_liquidation: 1.25,
  min_borrow: 0,
  min_withdraw: 0,
  user_reward: 0.01,
  pool_reward: 0.04,
  enabled: true,
  source: 'service',
};
const NOW = Date.parse('2026-11-25T12:00:00Z');

/**
 * A position as main sends it, every figure from the risk model: by default long 1,000 SUI at
 * $2.50 with 200 USDC held and 1,900 USDC owed (ratio 2,700 / 1,900 = 1.421, under the 1.5 warning).
 */
function position(
  o: { id?: string; h?: Holdings; p?: PricePair; apr?: number | null; net?: number; pool?: string } = {},
): PositionSummary {
  const h = o.h ?? { base: 1000, quote: 200, debtBase: 0, debtQuote: 1900 };
  const p = o.p ?? { base: 2.5, quote: 1 };
  const apr = o.apr === undefined ? 0.12 : o.apr;
  const v = valueAt(h, p);
  const liq = priceAtRatio(h, p.quote, PARAMS.liquidation);
  const distance = movePct(p.base, liq);
  const thresholds = { warning: 1.5, critical: 1.25, near_pct: 3 };
  const rates = { base: h.debtBase > 0 ? apr : null, quote: h.debtQuote > 0 ? apr : null };
  const owesBase = h.debtBase > 0;
  const debt = owesBase
    ? { symbol: 'SUI', amount: h.debtBase, usd: h.debtBase * p.base }
    : { symbol: 'USDC', amount: h.debtQuote, usd: h.debtQuote * p.quote };
  const { pnl, entry } = entryOf(h, p, o.net ?? 600);
  return {
    manager_id: o.id ?? `0x7c36${'0'.repeat(58)}de`,
    owner: '0xowner',
    pool_name: o.pool ?? 'SUI_USDC',
    base_symbol: 'SUI',
    quote_symbol: 'USDC',
    base_amount: h.base,
    quote_amount: h.quote,
    debts: [{ margin_pool_id: '0xmp', ...debt }],
    collateral_usd: v.assets,
    debt_usd: v.debt,
    equity_usd: v.equity,
    leverage: v.leverage,
    risk_ratio: v.ratio,
    service_ratio: v.ratio,
    liquidation_ratio: PARAMS.liquidation,
    risk_params: PARAMS,
    moving_symbol: 'SUI',
    price: {
      symbol: 'SUI',
      usd: p.base,
      source: 'oracle',
      at: NOW,
      oracle_at: NOW - 5 * 60_000,
      learnt_from: 'ratio',
      exchange_usd: p.base,
    },
    quote_price: { symbol: 'USDC', usd: p.quote, source: 'stablecoin', at: NOW },
    liquidation_price: liq,
    distance_pct: distance,
    side: sideOf(h),
    size: sizeOf(h),
    debt_base: h.debtBase,
    debt_quote: h.debtQuote,
    base_decimals: 9,
    quote_decimals: 6,
    thresholds,
    level: levelOf(v.ratio, distance, thresholds, PARAMS.liquidation),
    exchange_view: null,
    pnl: { net_deposited_usd: o.net ?? 600, pnl_usd: pnl, entry_price: entry, estimated: false, note: null },
    interest: {
      apr,
      apr_source: 'curve',
      accrued: debt.amount * 0.01,
      accrued_usd: debt.usd * 0.01,
      symbol: debt.symbol,
      liquidation_in_ms: apr === null ? null : timeToLiquidationByInterest(h, p, rates, PARAMS.liquidation),
    },
    repair: null,
    liquidation_cost: liq === null ? null : liquidationAt(h, { base: liq, quote: p.quote }, PARAMS),
    valued_at: NOW,
    updated_ms: NOW,
  };
}
const H = { base: 1000, quote: 200, debtBase: 0, debtQuote: 1900 };
const P = { base: 2.5, quote: 1 };

const settle = async (): Promise<void> => {
  for (let i = 0; i < 3; i++) {
    await new Promise((r) => setTimeout(r, 0));
    await nextTick();
  }
};

describe('the repair plan on the manager page', () => {
  const amountOf = (w: ReturnType<typeof mount>, id: string): number =>
    Number(w.get(`[data-testid="${id}"]`).attributes('data-amount'));

  it('shows the deposits of either asset and the repayment the model gives for the warning threshold, then for the chosen target', async () => {
    const w = mount(RepairPanel, { props: { position: position(), own: false } });
    const select = w.get('[data-testid="repair-target"]');
    expect((select.element as HTMLSelectElement).value).toBe('warning');
    const usdc = depositFor(H, P, 1.5, 'quote', 6)!;
    const sui = depositFor(H, P, 1.5, 'base', 9)!;
    const repay = repayFor(H, P, 1.5, 6)!;
    expect(amountOf(w, 'repair-deposit-USDC')).toBe(usdc.amount);
    expect(amountOf(w, 'repair-deposit-SUI')).toBe(sui.amount);
    expect(amountOf(w, 'repair-repay')).toBe(repay.amount);
    // (1.5 x 1,900 - 2,700) / 1 = 150 USDC; / 2.5 = 60 SUI; 1,900 - 2,700 / 1.5 = 100 USDC.
    expect([usdc.amount, sui.amount, repay.amount]).toEqual([150, 60, 100]);
    const after = priceAtRatio(afterDeposit(H, 'quote', usdc.amount), 1, 1.125)!;
    expect(w.get('[data-testid="repair-text"]').text()).toBe(
      `Deposit 150.00 USDC ($150.00) or 60.00 SUI ($150.00) or repay 100.00 USDC ($100.00) to get back to 1.500; liquidation price after the USDC deposit ${usdPrice(after)} (now ${usdPrice(position().liquidation_price)}).`,
    );

    // The pool's target after a liquidation (1.25) is below the ratio now: nothing to do.
    await select.setValue('pool');
    expect(w.get('[data-testid="repair-text"]').text()).toBe(
      'The risk ratio 1.421 is above 1.250 already: nothing to deposit or repay.',
    );
    expect(w.find('[data-testid="repair-deposit-USDC"]').exists()).toBe(false);

    // A custom target: the amounts follow it, shown rounded up.
    await select.setValue('custom');
    await w.get('[data-testid="repair-custom"]').setValue('1.777');
    const u = depositFor(H, P, 1.777, 'quote', 6)!;
    const s = depositFor(H, P, 1.777, 'base', 9)!;
    expect(amountOf(w, 'repair-deposit-USDC')).toBe(u.amount);
    expect(amountOf(w, 'repair-deposit-SUI')).toBe(s.amount);
    expect(amountOf(w, 'repair-repay')).toBe(repayFor(H, P, 1.777, 6)!.amount);
    expect(w.get('[data-testid="repair-deposit-SUI"]').text()).toBe(
      `${num(shownUp(s.amount, 9))} SUI (${usd(shownUp(s.amount, 9) * P.base)})`,
    );
    expect(shownUp(s.amount, 9)).toBeGreaterThanOrEqual(s.amount);
    expect(w.get('[data-testid="repair-text"]').text()).toContain('to get back to 1.777');

    await w.get('[data-testid="repair-custom"]').setValue('1.1');
    expect(w.get('[data-testid="repair-text"]').text()).toBe('Choose a target above the liquidation ratio (1.125).');
  });

  it('repays a short in the base it owes', () => {
    const h = { base: 0, quote: 3000, debtBase: 850, debtQuote: 0 };
    const w = mount(RepairPanel, { props: { position: position({ h }), own: false } });
    expect(w.get('[data-testid="repair-repay"]').text()).toContain(' SUI (');
    expect(amountOf(w, 'repair-repay')).toBe(repayFor(h, P, 1.5, 9)!.amount);
  });

  it('says what a liquidation at the liquidation price would take if nothing is done', () => {
    const p = position();
    const c = p.liquidation_cost!;
    const w = mount(RepairPanel, { props: { position: p, own: false } });
    expect(w.get('[data-testid="liquidation-cost"]').text()).toBe(
      `If nothing is done: at ${usdPrice(p.liquidation_price)} (the liquidation price) the liquidators repay ${usd(c.repaid_usd)} of debt and take ${usd(c.seized_usd)} of assets, ` +
        `of which ${usd(c.liquidator_reward_usd + c.pool_reward_usd)} are rewards (1 % to the liquidator, 4 % to the pool); its equity there, ${usd(c.equity_before_usd)}, falls to ${usd(c.equity_after_usd)}.`,
    );
    // At the liquidation price ((1.125 x 1,900 - 200) / 1,000 = 1.9375): assets 2,137.50, debt 1,900;
    // repaid (1.25 x 1,900 - 2,137.5) / (1.25 - 1.05) = 1,187.50, seized 1.05 times that.
    expect(p.liquidation_price).toBeCloseTo(1.9375, 12);
    expect(c.repaid_usd).toBeCloseTo(1187.5, 6);
    expect(c.seized_usd).toBeCloseTo(1246.875, 6);
  });
});

describe('the shock panel on the manager page', () => {
  it('moves the one position with the model, and says what a liquidation there would take', async () => {
    const p = position();
    const w = mount(ManagerShock, { props: { position: p, own: false } });
    expect(w.find('[data-testid="manager-shocked"]').exists()).toBe(false);
    const slider = w.find('[data-testid="shock-slider-SUI"]');
    // -10 %: SUI $2.25, assets 2,450, ratio 1.289.
    await slider.setValue('-10');
    expect(w.find('[data-testid="manager-shocked"]').text()).toMatch(/^SUI −10 %: ratio 1\.289/);
    // -25 %: SUI $1.875: assets 2,075 / 1,900 = 1.092, below 1.125: liquidated.
    await slider.setValue('-25');
    const text = w.find('[data-testid="manager-shocked"]').text();
    const outcome = liquidationAt(
      { base: 1000, quote: 200, debtBase: 0, debtQuote: 1900 },
      { base: 1.875, quote: 1 },
      PARAMS,
    )!;
    expect(text).toContain('ratio 1.092');
    expect(text).toContain(`repay ${usd(outcome.repaid_usd)} of debt`);
    w.unmount();
  });
});

describe('the position facts', () => {
  it('reads as a trade: side, size, entry, profit, the debt explained, the rate and its source, the prices', () => {
    const p = position();
    const w = mount(PositionFacts, { props: { position: p, own: false } });
    expect(w.get('[data-testid="position-side"]').text()).toBe('Long SUI');
    expect(w.get('[data-testid="position-size"]').text()).toBe('1,000.00 SUI');
    expect(w.get('[data-testid="position-entry"]').text()).toBe(usdPrice(p.pnl.entry_price));
    expect(w.get('[data-testid="position-pnl"]').text()).toBe(`+${usd(p.pnl.pnl_usd)}`);
    expect(w.text()).toContain(`+${((p.pnl.pnl_usd! / 600) * 100).toFixed(1)} % of net deposits`);
    expect(w.get('[data-testid="position-debt"]').text()).toBe('1,900.00 USDC: borrows and interest to date');
    expect(w.get('[data-testid="position-interest-accrued"]').text()).toBe(
      'of which interest since opening ≤ 19.00 USDC ($19.00)',
    );
    expect(w.get('[data-testid="position-apr"]').text()).toBe('12.00 %');
    expect(w.text()).toContain("from the pool's rate curve");
    expect(w.get('[data-testid="position-level"]').text()).toBe('Warning');
    expect(w.get('[data-testid="position-price-source"]').text()).toBe(`PricesSUI $2.50: ${priceSource(p.price!)}`);
    // Read at the fixture's NOW, the oracle's time is today's: a clock time, not a date.
    expect(priceSource(p.price!, NOW)).toMatch(/learnt from the service's risk ratios at 11:55 AM/);
    expect(w.find('[data-testid="exchange-view"]').exists()).toBe(false);
  });

  it("says when interest alone liquidates it at today's prices, or that it does not within a year", () => {
    const soon = position({ apr: 0.6 });
    const ms = soon.interest.liquidation_in_ms!;
    expect(ms).toBeGreaterThan(0);
    const w = mount(PositionFacts, { props: { position: soon, own: false } });
    expect(w.get('[data-testid="interest-liquidation"]').text()).toBe(
      `Liquidated by interest alone in ${Math.floor(ms / DAY_MS)} days at today's prices.`,
    );
    // ln(1.421 / 1.125) / 0.6 of a year: about 142 days.
    expect(Math.floor(ms / DAY_MS)).toBe(142);
    const far = mount(PositionFacts, { props: { position: position({ apr: 0.05 }), own: false } });
    expect(far.get('[data-testid="interest-liquidation"]').text()).toBe(
      "Interest alone does not liquidate it within a year at today's prices.",
    );
  });

  it('shows the profit as not known with its note, an estimate with its note, and the exchange beside the oracle', () => {
    const p = position();
    const unknown = mount(PositionFacts, {
      props: {
        position: {
          ...p,
          pnl: {
            net_deposited_usd: null,
            pnl_usd: null,
            entry_price: null,
            estimated: false,
            note: 'Opened before the history Tidewatch keeps.',
          },
        },
        own: false,
      },
    });
    expect(unknown.get('[data-testid="position-pnl"]').text()).toBe('—');
    expect(unknown.text()).toContain('Opened before the history Tidewatch keeps.');
    const estimated = mount(PositionFacts, {
      props: {
        position: {
          ...p,
          pnl: { ...p.pnl, estimated: true, note: 'Some SUI moves are valued at the nearest price.' },
          exchange_view: { base_usd: 2.6, quote_usd: 1, ratio: 1.474, difference_pct: 4 },
        },
        own: false,
      },
    });
    expect(estimated.get('[data-testid="position-pnl"]').text()).toBe(`≈+${usd(p.pnl.pnl_usd)}`);
    expect(estimated.get('[data-testid="position-pnl"] .est').attributes('title')).toBe(
      'Some SUI moves are valued at the nearest price.',
    );
    expect(estimated.get('[data-testid="exchange-view"]').text()).toBe(
      "Exchange SUI $2.60 (+4.0 %): ratio 1.474 at the exchange's prices",
    );
  });
});

/** A chart stub that keeps the option it was given. */
function chartProbe(options: unknown[]) {
  return defineComponent({
    props: { option: { type: Object, default: () => ({}) } },
    setup(props) {
      return () => {
        options.push(props.option);
        return h('div', { class: 'chart-probe' });
      };
    },
  });
}

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
});

describe('the pool page: watched positions on the price chart', () => {
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
  const answer = <T>(data: T) => ({ data, source: 'network', fetchedAt: Date.now(), stale: false });

  it("draws each one's liquidation and entry price in USDC (USD over the quote's price) and lists them, nearest liquidation first", async () => {
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
    });
    const elsewhere = position({ id: '0xother', pool: 'DEEP_USDC' });
    const quoteOf = (x: PositionSummary) => ({
      ...x,
      quote_price: { symbol: 'USDC', usd: 0.998, source: 'oracle' as const, at: NOW },
    });
    const candles = [2.3, 2.2].map((c, i) => ({
      timestamp: new Date(NOW - (2 - i) * 900_000).toISOString().slice(0, 19),
      open: rawPrice(c, POOL),
      high: rawPrice(c, POOL),
      low: rawPrice(c, POOL),
      close: rawPrice(c, POOL),
      volume_base: '0',
      volume_quote: '0',
      trade_count: 1,
    }));
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
    const options: Array<{ series?: Array<{ markLine?: { data: Mark[] } }> }> = [];
    const marks = (): Mark[] => options.filter((o) => o.series?.[0]?.markLine).at(-1)!.series![0]!.markLine!.data;
    const w = mount(PoolView, {
      props: { poolName: 'SUI_USDC' },
      global: {
        plugins: [await routerAt('/markets/SUI_USDC')],
        stubs: { VChart: chartProbe(options), Echarts: chartProbe(options) },
      },
    });
    await settle();

    const rows = w.findAll('[data-testid="pool-position-line"]');
    const priceOf = (kind: string) =>
      rows
        .map((r) => r.find(`[data-kind="${kind}"]`))
        .map((x) => (x.exists() ? Number(x.attributes('data-price')) : null));
    // Liquidations at 2.025, 1.9375 and 3.137 (off the chart around the last price 2.2, as its
    // entry), each with its distance as the Portfolio gives it (from the valuation's price).
    expect(priceOf('liquidation')).toEqual([near, long, short].map((x) => inUsdc(x.liquidation_price)));
    expect(priceOf('entry')).toEqual([near, long, short].map((x) => inUsdc(x.pnl.entry_price)));
    expect(priceOf('liquidation').map((x) => x!.toFixed(4))).toEqual(['2.0250', '1.9375', '3.1373']);
    expect(rows[1]!.text()).toBe(
      `Long 0x7c36…de Liq 1.9375 ${signedPct(long.distance_pct, 1)} Entry ${inUsdc(long.pnl.entry_price).toFixed(4)}`,
    );
    expect(rows[2]!.text()).toMatch(
      new RegExp(
        `^Short 0xab12…ef Liq 3\\.1373 \\${signedPct(short.distance_pct, 1)}, off the chart Entry 2\\.\\d{4} off the chart$`,
      ),
    );
    expect(w.get('[data-testid="pool-position-lines"]').text()).toContain('prices in USDC');

    // On the chart: a labelled line at each price within reach of the last price, beside the last price's.
    const labels = marks().map((m) => m.label.formatter);
    expect(labels).toEqual(
      expect.arrayContaining([
        `Liq 0x7c36…de 1.9375`,
        `Entry 0x7c36…de ${inUsdc(long.pnl.entry_price).toFixed(4)}`,
        'Liq 0xcc33…99 2.0250',
        `Entry 0xcc33…99 ${inUsdc(near.pnl.entry_price).toFixed(4)}`,
        '2.2000',
      ]),
    );
    expect(marks().find((m) => m.label.formatter === 'Liq 0x7c36…de 1.9375')!.yAxis).toBeCloseTo(
      inUsdc(long.liquidation_price),
      9,
    );
    expect(labels.filter((l) => l?.includes('0xab12'))).toEqual([]);

    // Pointing at a position in the list brings its lines forward and labels only them.
    await rows[0]!.trigger('mouseenter');
    const focused = marks();
    expect(focused.map((m) => m.label.formatter).filter((l) => l && l !== '2.2000')).toEqual([
      'Liq 0xcc33…99 2.0250',
      `Entry 0xcc33…99 ${inUsdc(near.pnl.entry_price).toFixed(4)}`,
    ]);
    expect(focused.filter((m) => m.lineStyle.opacity < 0.5).map((m) => m.yAxis)).toEqual([
      inUsdc(long.liquidation_price),
      inUsdc(long.pnl.entry_price),
    ]);
    w.unmount();
  });
});

describe('the manager page', () => {
  it("shows the position, the repair and the dashed drift from the manager's own figures, and follows each refresh", async () => {
    // At 150 % a year, interest alone liquidates it in about 57 days: the dashed line reaches the liquidation ratio.
    const p = position({ apr: 1.5 });
    const readings: RiskReading[] = [NOW - 600_000, NOW - 60_000].map((ts) => ({
      manager_id: p.manager_id,
      owner: p.owner,
      ts_ms: ts,
      risk_ratio: p.risk_ratio,
      debt_usd: p.debt_usd,
      assets_usd: p.collateral_usd,
      distance_pct: p.distance_pct,
    }));
    const listeners = new Map<string, (payload: unknown) => void>();
    const page = <T>(items: T[]) => ({ items, isLastPage: true, currentPage: 0, perPage: 50 });
    const answers: Record<string, unknown> = {
      manager: {
        data: {
          manager_id: p.manager_id,
          owner: p.owner,
          pool_name: 'SUI_USDC',
          created_at: null,
          position: p,
          watched: false,
        },
        source: 'network',
        fetchedAt: NOW,
        stale: false,
      },
      riskHistory: { data: readings, source: 'cache', fetchedAt: NOW, stale: false },
      marginEvents: { data: [], source: 'cache', fetchedAt: NOW, stale: false },
      thresholds: { defaults: { warning: 1.2, critical: 1.15 }, perManager: {} },
      liquidations: { data: page([]), source: 'network', fetchedAt: NOW, stale: false },
      pools: { data: [], source: 'network', fetchedAt: NOW, stale: false },
      settings: { interestAlertDays: 200 },
      watchList: [],
      activeSupplies: { data: page([]), source: 'network', fetchedAt: NOW, stale: false },
    };
    setApi({
      async invoke(method) {
        if (!(method in answers)) throw new Error(`unexpected ${method}`);
        return answers[method] as never;
      },
      subscribe<T extends Topic>(topic: T, l: (payload: PayloadOf<T>) => void) {
        listeners.set(topic, l as (payload: unknown) => void);
        return () => {};
      },
    });
    const { default: ManagerView } = await import('../../src/renderer/src/features/manager/ManagerView.vue');
    const options: Array<{ series: Array<{ data: Array<[number, number]> }> }> = [];
    const w = mount(ManagerView, {
      global: {
        plugins: [await routerAt(`/manager/${p.manager_id}`)],
        stubs: { VChart: chartProbe(options), Echarts: chartProbe(options) },
      },
    });
    await settle();

    expect(w.get('[data-testid="position-side"]').text()).toBe('Long SUI');
    // Unwatched: "its equity", amounts not the user's.
    expect(w.get('[data-testid="liquidation-cost"]').text()).toContain('its equity there');
    expect(Number(w.get('[data-testid="repair-deposit-USDC"]').attributes('data-amount'))).toBe(
      depositFor(H, P, 1.5, 'quote', 6)!.amount,
    );
    const days = Math.floor(p.interest.liquidation_in_ms! / DAY_MS);
    expect(w.get('[data-testid="interest-liquidation"]').text()).toBe(
      `Liquidated by interest alone in ${days} days at today's prices.`,
    );
    // Within the alert horizon of Settings (200 days): shown as a warning.
    expect(w.get('[data-testid="interest-liquidation"]').classes()).toContain('soon');
    const dashed = (): Array<[number, number]> => options.at(-1)!.series[1]!.data;
    expect(dashed()[0]).toEqual([NOW - 60_000, p.risk_ratio]);
    // As far ahead as the history goes back (a day at least here), or to the liquidation if sooner.
    const ahead = Math.min(DAY_MS, p.interest.liquidation_in_ms!);
    expect(dashed().at(-1)![0]).toBeCloseTo(p.valued_at + ahead, -3);
    if (ahead < DAY_MS) expect(dashed().at(-1)![1]).toBeCloseTo(1.125, 3);
    await w.get('[data-testid="risk-ahead"]').setValue(false);
    expect(dashed()).toEqual([]);

    // A refresh values it again: the page follows (here, the position was topped up above the warning).
    const topped = position({ h: { ...H, quote: 1000 }, apr: 1.5 });
    listeners.get('risk')!({
      readings: [],
      portfolio: {
        wallets: [{ owner: p.owner, label: null, positions: [topped], supplies: [], totals: {} }],
        prices: [],
        computed_at: NOW + 1,
      },
    });
    await settle();
    expect(w.get('[data-testid="repair-text"]').text()).toBe(
      `The risk ratio ${(3500 / 1900).toFixed(3)} is above 1.500 already: nothing to deposit or repay.`,
    );
    w.unmount();
  });
});
