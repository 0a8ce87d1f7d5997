// @vitest-environment happy-dom
import { mount } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { beforeEach, describe, expect, it } from 'vitest';
import { nextTick } from 'vue';
import type { Router } from 'vue-router';
import { setApi } from '../../src/renderer/src/api';
import ShockPanel from '../../src/renderer/src/components/ShockPanel.vue';
import { POSITION_COLUMNS, positionsToCsv } from '../../src/renderer/src/features/portfolio/csv';
import PortfolioView from '../../src/renderer/src/features/portfolio/PortfolioView.vue';
import SettingsView from '../../src/renderer/src/features/settings/SettingsView.vue';
import { priceSource } from '../../src/renderer/src/format';
import type { PortfolioSummary, PositionSummary, Settings, UsdPrice, WalletSummary } from '../../src/shared/contract';
import {
  DAY_MS,
  levelOf,
  liquidationAt,
  movePct,
  priceAtRatio,
  sideOf,
  sizeOf,
  valueAt,
  type Holdings,
  type RiskThresholds,
} from '../../src/shared/risk-model';
import { fakeApi } from '../support/fake-api';
import { routerAt } from './support/router';

beforeEach(() => setActivePinia(createPinia()));

/** A minute ago: the prices read "1 min ago". */
const NOW = Date.now() - 60_000;
const PARAMS = {
  liquidation: 1.125,
  target_liquidation: 1.25,
  min_borrow: 0,
  min_withdraw: 0,
  user_reward: 0.01,
  pool_reward: 0.04,
  enabled: true,
  source: 'default' as const,
};
const THRESHOLDS: RiskThresholds = { warning: 1.2, critical: 1.15, near_pct: 3 };
const usdc: UsdPrice = { symbol: 'USDC', usd: 1, source: 'stablecoin', at: NOW };
const oracle = (symbol: string, usd: number, exchange: number | null = null): UsdPrice => ({
  symbol,
  usd,
  source: 'oracle',
  at: NOW,
  oracle_at: NOW - 60_000,
  learnt_from: 'ratio',
  exchange_usd: exchange,
});

/** A position whose every figure is the risk model's at its prices: the figures of a row agree with each other. */
function position(
  id: string,
  pool: [string, string],
  h: Holdings,
  base: UsdPrice,
  patch: Partial<PositionSummary> = {},
): PositionSummary {
  const p = { base: base.usd, quote: usdc.usd };
  const v = valueAt(h, p);
  const liq = priceAtRatio(h, p.quote, PARAMS.liquidation);
  const distance = movePct(p.base, liq);
  const debts = [
    ...(h.debtQuote > 0
      ? [{ margin_pool_id: `mp-${pool[1]}`, symbol: pool[1], amount: h.debtQuote, usd: h.debtQuote * p.quote }]
      : []),
    ...(h.debtBase > 0
      ? [{ margin_pool_id: `mp-${pool[0]}`, symbol: pool[0], amount: h.debtBase, usd: h.debtBase * p.base }]
      : []),
  ];
  return {
    manager_id: id,
    owner: '0xowner',
    pool_name: `${pool[0]}_${pool[1]}`,
    base_symbol: pool[0],
    quote_symbol: pool[1],
    base_amount: h.base,
    quote_amount: h.quote,
    debts,
    collateral_usd: v.assets,
    debt_usd: v.debt,
    equity_usd: v.equity,
    leverage: v.leverage,
    risk_ratio: v.ratio,
    service_ratio: v.ratio,
    liquidation_ratio: PARAMS.liquidation,
    risk_params: PARAMS,
    moving_symbol: pool[0],
    price: base,
    quote_price: usdc,
    liquidation_price: liq,
    distance_pct: distance,
    side: sideOf(h),
    size: sizeOf(h),
    debt_base: h.debtBase,
    debt_quote: h.debtQuote,
    base_decimals: 9,
    quote_decimals: 6,
    thresholds: THRESHOLDS,
    level: levelOf(v.ratio, distance, THRESHOLDS, PARAMS.liquidation),
    exchange_view: null,
    pnl: {
      net_deposited_usd: v.equity - 100,
      pnl_usd: 100,
      entry_price: p.base - 100 / sizeOf(h),
      estimated: false,
      note: null,
    },
    interest: {
      apr: 0.082,
      apr_source: 'curve',
      accrued: 12.5,
      accrued_usd: 12.5,
      symbol: pool[1],
      liquidation_in_ms: null,
    },
    repair: null,
    liquidation_cost: liq === null ? null : liquidationAt(h, { base: liq, quote: 1 }, PARAMS),
    valued_at: NOW,
    updated_ms: NOW,
    ...patch,
  };
}

const SUI = oracle('SUI', 3.5, 3.41);
const DEEP = oracle('DEEP', 0.05);
/** Long SUI at 1.25 (ok), short SUI at 1.19 (warning), long DEEP at 1.136 (critical, 1 % from liquidation). */
const LONG_SUI = position('0xlong', ['SUI', 'USDC'], { base: 1000, quote: 0, debtBase: 0, debtQuote: 2800 }, SUI, {
  exchange_view: { base_usd: 3.41, quote_usd: 1, ratio: 3410 / 2800, difference_pct: -2.57 },
});
const SHORT_SUI = position('0xshort', ['SUI', 'USDC'], { base: 0, quote: 5000, debtBase: 1200, debtQuote: 0 }, SUI, {
  pnl: {
    net_deposited_usd: 600,
    pnl_usd: 200,
    entry_price: 3.5 + 200 / 1200,
    estimated: true,
    note: "Some SUI moves are valued at the nearest price Tidewatch knows, not their own time's.",
  },
  interest: {
    apr: 0.121,
    apr_source: 'observed',
    accrued: 3.2,
    accrued_usd: 11.2,
    symbol: 'SUI',
    liquidation_in_ms: 12 * DAY_MS + 3_600_000,
  },
});
const LONG_DEEP = position(
  '0xdeep',
  ['DEEP', 'USDC'],
  { base: 100_000, quote: 0, debtBase: 0, debtQuote: 4400 },
  DEEP,
  {
    pnl: {
      net_deposited_usd: null,
      pnl_usd: null,
      entry_price: null,
      estimated: false,
      note: 'Opened before the history Tidewatch keeps: its deposits are not known.',
    },
  },
);
const WALLET: WalletSummary = {
  owner: '0xowner',
  label: 'Desk',
  positions: [LONG_DEEP, SHORT_SUI, LONG_SUI],
  supplies: [],
  totals: { collateral_usd: 13_500, debt_usd: 11_400, equity_usd: 2_100, supplied_usd: 0, unpriced: 0 },
};
const SUMMARY: PortfolioSummary = { wallets: [WALLET], prices: [SUI, DEEP, usdc], computed_at: NOW };

const SETTINGS: Settings = {
  network: 'demo',
  baseUrl: '',
  streamUrl: '',
  naming: 'spec',
  plan: 'free',
  requestsPerSecond: 10,
  concurrency: 4,
  streamBudget: 1,
  recordsRefreshSec: 10_800,
  warningRatio: 1.2,
  criticalRatio: 1.15,
  nearLiquidationPct: 3,
  interestAlertDays: 30,
  alertCooldownSec: 900,
  largeLiquidationUsd: null,
  monthlyCreditBudget: null,
  ipfsGateway: 'https://ipfs.io',
  privacyMode: false,
  alertSound: true,
  startAtLogin: false,
  hasApiKey: false,
  keyProtection: 'os-keyring',
  hasStreamKey: false,
  streamKeyPools: [],
};

const settle = async (): Promise<void> => {
  for (let i = 0; i < 3; i++) {
    await new Promise((r) => setTimeout(r, 0));
    await nextTick();
  }
};

/** "$2,625.00" -> 2625; "−$26.25" -> -26.25. */
const money = (text: string): number => Number(text.replace(/[^\d.\u2212-]/g, '').replace('\u2212', '-'));

describe('the shock panel', () => {
  it('has a slider per non-stable asset and one for all of them, −50 … +50 % by 1 %, and gives Shocks through v-model', async () => {
    const w = mount(ShockPanel, { props: { symbols: ['SUI', 'USDC', 'DEEP', 'SUI'], modelValue: {} } });
    const ids = w.findAll('input[type=range]').map((i) => i.attributes('data-testid'));
    expect(ids).toEqual(['shock-slider-DEEP', 'shock-slider-SUI', 'shock-slider-all']);
    const sui = w.get('[data-testid="shock-slider-SUI"]');
    expect([sui.attributes('min'), sui.attributes('max'), sui.attributes('step')]).toEqual(['-50', '50', '1']);
    expect(w.get('[data-testid="shock-reset"]').attributes('disabled')).toBeDefined();
    await sui.setValue('-15');
    expect(w.emitted('update:modelValue')!.at(-1)).toEqual([{ SUI: -0.15 }]);
    await w.setProps({ modelValue: { SUI: -0.15, '*': 0.1 } });
    expect(w.findAll('output').map((o) => o.text())).toEqual(['0 %', '\u221215 %', '+10 %']);
    await w.get('[data-testid="shock-slider-all"]').setValue('0');
    expect(w.emitted('update:modelValue')!.at(-1)).toEqual([{ SUI: -0.15 }]);
    await w.get('[data-testid="shock-reset"]').trigger('click');
    expect(w.emitted('update:modelValue')!.at(-1)).toEqual([{}]);
  });
});

describe('the Portfolio: one row per position, every figure agreeing, and price shocks', () => {
  let router: Router;
  beforeEach(async () => {
    router = await routerAt('/portfolio');
  });
  const mountPortfolio = () => {
    const f = fakeApi({
      settings: () => SETTINGS,
      watchList: () => [{ owner: '0xowner', label: 'Desk', added_at: 0 }],
      portfolio: () => ({ data: SUMMARY, source: 'network', fetchedAt: NOW, stale: false }),
      walletNfts: () => ({ data: { items: [], isLastPage: true }, source: 'network', fetchedAt: NOW, stale: false }),
    });
    setApi(f.api);
    return { f, w: mount(PortfolioView, { attachTo: document.body, global: { plugins: [router] } }) };
  };
  const cell = (row: ReturnType<ReturnType<typeof mountPortfolio>['w']['findAll']>[number], id: string): string =>
    row.get(`[data-testid="${id}"]`).text();

  it('shows side, size, entry, PnL, ratio, assets, debt, equity, leverage, liquidation, APR and the level main judged', async () => {
    const { w } = mountPortfolio();
    await settle();
    const rows = w.findAll('[data-testid="position-row"]');
    expect(rows.map((r) => r.attributes('data-manager'))).toEqual(['0xdeep', '0xshort', '0xlong']);
    const [deep, short, long] = rows as [(typeof rows)[number], (typeof rows)[number], (typeof rows)[number]];
    expect(rows.map((r) => cell(r, 'row-side'))).toEqual(['Long DEEP', 'Short SUI', 'Long SUI']);
    expect(rows.map((r) => cell(r, 'row-size'))).toEqual(['100,000.00 DEEP', '1,200.00 SUI', '1,000.00 SUI']);
    expect(rows.map((r) => cell(r, 'row-ratio'))).toEqual(['1.136', '1.190', '1.250']);
    expect(rows.map((r) => cell(r, 'row-level'))).toEqual(['Critical', 'Warning', 'OK']);
    expect(cell(deep, 'row-level')).toBe('Critical');
    expect(deep.get('[data-testid="row-level"] span').attributes('title')).toContain(
      'Ratio 1.136 is below the critical ratio',
    );
    // Assets / debt is the ratio on screen, equity their difference.
    for (const r of rows) {
      expect(money(cell(r, 'row-assets')) / money(cell(r, 'row-debt'))).toBeCloseTo(Number(cell(r, 'row-ratio')), 3);
      expect(money(cell(r, 'row-equity'))).toBeCloseTo(money(cell(r, 'row-assets')) - money(cell(r, 'row-debt')), 2);
    }
    expect(cell(long, 'row-assets')).toBe('$3,500.00');
    expect(cell(long, 'row-debt')).toBe('$2,800.00');
    expect(cell(long, 'row-equity')).toBe('$700.00');
    expect(cell(long, 'row-leverage')).toBe('5.00×');
    expect(cell(long, 'row-entry')).toBe('entry $3.40');
    expect(cell(long, 'row-pnl')).toBe('+$100.00');
    expect(cell(long, 'row-distance')).toMatch(/^liq\. \$3\.15\s*-10\.0%$/);
    expect(cell(long, 'row-apr')).toBe('8.2 %');
    // The price's source in its tooltip (small text only where it is not the oracle's); the exchange beside it, never in the figures.
    expect(cell(long, 'row-price')).toContain('$3.50');
    expect(cell(long, 'row-price')).not.toContain('oracle');
    expect(long.get('[data-testid="row-price"]').attributes('title')).toContain(
      "oracle price (learnt from the service's risk ratios at",
    );
    expect(cell(long, 'row-exchange')).toBe('exch. $3.41 (\u22122.6 %)ratio there 1.218');
    expect(short.find('[data-testid="row-exchange"]').exists()).toBe(false);
    // An estimated PnL is marked, with its note; an unknown one is a dash with its note.
    expect(cell(short, 'row-pnl')).toBe('≈+$200.00');
    expect(short.get('[data-testid="row-pnl"]').element.parentElement!.getAttribute('title')).toContain(
      'Estimated: Some SUI moves',
    );
    expect(cell(deep, 'row-pnl')).toBe('—');
    expect(deep.get('[data-testid="row-pnl"]').element.parentElement!.getAttribute('title')).toBe(
      'Opened before the history Tidewatch keeps: its deposits are not known.',
    );
    // Interest alone liquidates the short within the 30 days of the setting.
    expect(cell(short, 'row-interest-liquidates')).toBe('interest liq. in 12 d');
    expect(long.find('[data-testid="row-interest-liquidates"]').exists()).toBe(false);
    // The price line says where each price comes from, the exchange beside it.
    expect(w.get('[data-testid="prices"]').text()).toContain(
      'SUI $3.50 (oracle price, 1 min ago; exchange $3.41 (\u22122.6 %))',
    );
    w.unmount();
  });

  it('with a shock, recomputes every row at once from the last reading (no service call) and says what it does in one sentence', async () => {
    const { f, w } = mountPortfolio();
    await settle();
    const callsBefore = f.calls.length;
    expect(w.find('[data-testid="shock-totals"]').exists()).toBe(false);
    expect(w.find('[data-testid="row-shocked-ratio"]').exists()).toBe(false);
    expect(w.findAll('input[type=range]').map((i) => i.attributes('data-testid'))).toEqual([
      'shock-slider-DEEP',
      'shock-slider-SUI',
      'shock-slider-all',
    ]);

    await w.get('[data-testid="shock-slider-SUI"]').setValue('-15');
    // SUI at $2.975: the long falls to 1.0625 and is liquidated (repaid (1.25 x 2,800 - 2,975) / 0.2 = 2,625, equity 700 -> 43.75);
    // the short rises to 5,000 / 3,570 = 1.401 (equity 800 -> 1,430); DEEP does not move.
    expect(w.get('[data-testid="shock-totals"]').text()).toBe(
      'SUI \u221215 %: 1 of 3 positions liquidated, $2,625.00 of debt repaid by liquidators, equity \u2212$26.25',
    );
    const rows = w.findAll('[data-testid="position-row"]');
    expect(rows.map((r) => cell(r, 'row-shocked-ratio'))).toEqual(['1.136', '1.401', '1.063']);
    expect(rows.map((r) => cell(r, 'row-shocked-level'))).toEqual(['Critical', 'OK', 'Liquidated']);
    expect(rows.map((r) => r.classes('liquidated'))).toEqual([false, false, true]);
    expect(cell(rows[2]!, 'row-shocked-equity')).toBe('$43.75');
    expect(cell(rows[1]!, 'row-shocked-equity')).toBe('$1,430.00');
    expect(rows[2]!.get('[data-testid="row-shocked"]').text()).toContain('$43.75 (\u2212$656.25)');
    expect(rows[0]!.get('[data-testid="row-shocked"]').text()).toContain('unchanged');
    // The row's own figures stay those of the reading.
    expect(cell(rows[2]!, 'row-ratio')).toBe('1.250');

    // Every non-stable asset down 10 % more: DEEP too.
    await w.get('[data-testid="shock-slider-all"]').setValue('-10');
    expect(w.get('[data-testid="shock-totals"]').text()).toMatch(
      /^SUI \u221215 % and all non-stable assets \u221210 %: 2 of 3 positions liquidated, /,
    );
    expect(f.calls.length).toBe(callsBefore);

    await w.get('[data-testid="shock-reset"]').trigger('click');
    expect(w.find('[data-testid="shock-totals"]').exists()).toBe(false);
    expect(w.find('[data-testid="row-shocked-ratio"]').exists()).toBe(false);
    w.unmount();
  });
});

/** RFC 4180, enough for the export. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cellText = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted && c === '"' && text[i + 1] === '"') {
      cellText += '"';
      i++;
    } else if (c === '"') {
      quoted = !quoted;
    } else if (quoted || (c !== ',' && c !== '\n')) {
      cellText += c;
    } else {
      row.push(cellText);
      cellText = '';
      if (c === '\n') {
        rows.push(row);
        row = [];
      }
    }
  }
  return rows;
}

describe('the Portfolio CSV', () => {
  it('carries side, size, entry, PnL (and whether estimated), APR, accrued interest, level, liquidation price and distance', () => {
    const [header, ...rows] = parseCsv(positionsToCsv([WALLET]));
    expect(header).toEqual([...POSITION_COLUMNS]);
    for (const c of [
      'side',
      'size',
      'entry_price',
      'pnl_usd',
      'pnl_estimated',
      'borrow_apr',
      'accrued_interest',
      'level',
      'liquidation_price',
      'distance_pct',
    ])
      expect(header).toContain(c);
    const byManager = new Map(
      rows.map((r) => [r[header!.indexOf('manager_id')], Object.fromEntries(header!.map((c, i) => [c, r[i]]))]),
    );
    expect(rows).toHaveLength(3);
    const short = byManager.get('0xshort')!;
    expect(short).toMatchObject({
      side: 'short',
      size: '-1200',
      pnl_usd: '200',
      pnl_estimated: 'true',
      borrow_apr: '0.121',
      accrued_interest: '3.2',
      accrued_interest_symbol: 'SUI',
      level: 'warning',
      price_source: 'oracle',
    });
    expect(short['pnl_note']).toBe(
      "Some SUI moves are valued at the nearest price Tidewatch knows, not their own time's.",
    );
    expect(Number(short['liquidation_price'])).toBeCloseTo(5000 / 1350, 9);
    expect(Number(short['distance_pct'])).toBeCloseTo((5000 / 1350 / 3.5 - 1) * 100, 9);
    expect(Number(short['entry_price'])).toBeCloseTo(3.5 + 200 / 1200, 9);
    const deep = byManager.get('0xdeep')!;
    expect(deep).toMatchObject({
      side: 'long',
      size: '100000',
      pnl_usd: '',
      entry_price: '',
      pnl_estimated: 'false',
      level: 'critical',
      risk_ratio: String(LONG_DEEP.risk_ratio),
    });
  });
});

describe('the price source, in words', () => {
  it('says an oracle price was learnt from the risk ratios, when, and that it moved with the exchange since', () => {
    const at = new Date(2026, 10, 25, 14, 2).getTime();
    expect(priceSource({ ...SUI, oracle_at: at }, at + 60_000)).toBe(
      "oracle price (learnt from the service's risk ratios at 2:02 PM, moved with the exchange since)",
    );
    expect(priceSource({ ...SUI, learnt_from: 'record', oracle_at: at }, at + 60_000)).toBe(
      "oracle price (read from a deposit's or liquidation's record at 2:02 PM, moved with the exchange since)",
    );
    expect(priceSource({ symbol: 'WAL', usd: 0.4, source: 'exchange', at })).toBe(
      "the exchange's last trade (no oracle price learnt yet)",
    );
    expect(priceSource(usdc)).toBe('stablecoin, counted as $1');
  });
});

describe('the Settings view: the near-liquidation and interest rules', () => {
  it('edits both next to the ratio thresholds, empty meaning off', async () => {
    let saved: Settings = { ...SETTINGS };
    const f = fakeApi({
      settings: () => saved,
      watchList: () => [],
      creditForecast: () => {
        throw new Error('not here');
      },
      updateSettings: (patch) => (saved = { ...saved, ...patch }),
    });
    setApi(f.api);
    const w = mount(SettingsView, { attachTo: document.body });
    await settle();
    const near = w.get('[data-testid="near-liquidation-pct"]');
    const days = w.get('[data-testid="interest-alert-days"]');
    expect((near.element as HTMLInputElement).value).toBe('3');
    expect((days.element as HTMLInputElement).value).toBe('30');
    expect(near.element.closest('label')!.textContent).toContain('% of the liquidation price');
    await near.setValue('');
    await days.setValue('14');
    await w.get('form').trigger('submit');
    await settle();
    expect(f.calls.find(([m]) => m === 'updateSettings')![1]).toMatchObject({
      nearLiquidationPct: null,
      interestAlertDays: 14,
      warningRatio: 1.2,
      criticalRatio: 1.15,
    });
    w.unmount();
  });
});
