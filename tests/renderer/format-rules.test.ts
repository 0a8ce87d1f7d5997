// @vitest-environment happy-dom
import { mount, type VueWrapper } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import type { Component } from 'vue';
import type { Candle, Depth, Liquidation, Pool, Trade } from '../../src/shared/api';
import type {
  AlertRecord,
  MarginEventRow,
  NotifyView,
  PoolHealth,
  PoolHealthView,
  PositionSummary,
  RiskReading,
  StatusSnapshot,
  UnreachedChannel,
} from '../../src/shared/contract';
import { amountDigits, amountText, usdPriceDigits } from '../../src/shared/format';
import { humanPrice, rawPrice, tickDecimals } from '../../src/shared/units';
import { bucketsOf, bucketWidth, clustersOf, mapEntryOf, type MapEntry } from '../../src/shared/risk-model';
import { AlertEngine, riskAlertText } from '../../src/main/core/alerts/alert-engine';
import { EventBus, type CoreEvents } from '../../src/main/core/events';
import { describePosition, interestWords } from '../../src/main/core/alerts/position-text';
import { compose } from '../../src/main/core/notify/compose';
import { digestText } from '../../src/main/core/digest/digest-text';
import { unreachedWords } from '../../src/main/core/notify/notifier';
import { amountsInWords } from '../../src/main/core/risk/event-amounts';
import { readingOf } from '../../src/main/core/risk/positions';
import type { IncomingMarginEvent } from '../../src/main/core/store/margin-events';
import { NO_CHANNELS } from '../../src/main/core/store/risk-alert-repo';
import { Store } from '../../src/main/core/store/store';
import { setApi } from '../../src/renderer/src/api';
import App from '../../src/renderer/src/App.vue';
import AlertsView from '../../src/renderer/src/features/alerts/AlertsView.vue';
import CollectionView from '../../src/renderer/src/features/collection/CollectionView.vue';
import EventsView from '../../src/renderer/src/features/events/EventsView.vue';
import ManagerView from '../../src/renderer/src/features/manager/ManagerView.vue';
import PositionFacts from '../../src/renderer/src/features/manager/PositionFacts.vue';
import RepairPanel from '../../src/renderer/src/features/manager/RepairPanel.vue';
import MarginView from '../../src/renderer/src/features/margin/MarginView.vue';
import MarketsView from '../../src/renderer/src/features/markets/MarketsView.vue';
import PoolView from '../../src/renderer/src/features/markets/PoolView.vue';
import PortfolioView from '../../src/renderer/src/features/portfolio/PortfolioView.vue';
import SettingsView from '../../src/renderer/src/features/settings/SettingsView.vue';
import WalletView from '../../src/renderer/src/features/wallet/WalletView.vue';
import { usePortfolioStore } from '../../src/renderer/src/stores/portfolio';
import { useSettingsStore } from '../../src/renderer/src/stores/settings';
import { useStatusStore } from '../../src/renderer/src/stores/status';
import { borrowApr, supplyApr } from '../../src/shared/risk-model';
import { fakeApi } from '../support/fake-api';
import { drawnTexts } from './support/drawn';
import { FormatScan } from '../support/format-rules';
import { chartProbe, position as managerPosition } from './support/manager';
import {
  LONG_DEEP,
  LONG_SUI,
  LONG_WAL,
  NOW,
  oracle,
  position as portfolioPosition,
  SHORT_SUI,
  SHORT_XBTC,
  SUI,
  SUMMARY,
  WALLET,
} from './support/portfolio';
import { routerAt } from './support/router';
import { FORECAST, SETTINGS } from './support/settings';
import { settle } from './support/timing';

/**
 * Every view of the app, every kind of alert and its message on a channel, read as a person reads
 * them (the command line's texts: tests/unit/cli/formats.test.ts) and held to the product's number rules (docs/formats.md):
 * one style of percentage, the true minus sign, an asset's amounts at one precision, USD prices
 * with their digits, a pool's prices with its tick's, one borrow-rate precision, clock times that
 * name their zone where they are read on their own. The trader of issue 40 read it in New York.
 */

// Before any figure is made (the alerts below are made as the module loads).
const ZONE = process.env['TZ'];
process.env['TZ'] = 'America/New_York';
afterAll(() => {
  process.env['TZ'] = ZONE;
});
beforeEach(() => setActivePinia(createPinia()));

const scan = new FormatScan();
/** A watched wallet without a label, as the chain writes it: the Wallet page's list names it short. */
const FAR_WALLET = '0x1763a75696f7c1a8e4b0e2d9c3f5a6b7c8d9e0f1a2b3c4d5e6f708192a3bd999';
scan.knownIds([FAR_WALLET]);
const answer = <T>(data: T) => ({ data, source: 'network' as const, fetchedAt: NOW, stale: false });
const page = <T>(items: T[]) => answer({ items, isLastPage: true, currentPage: 0, perPage: 50 });

// ---------------------------------------------------------------------------------------------
// The market: three pools of the Demo network, their books, trades and candles.

const ASSET = {
  SUI: '0x2::sui::SUI',
  USDC: '0xdba3::usdc::USDC',
  DEEP: '0xdeeb::deep::DEEP',
  XBTC: '0x876a::xbtc::XBTC',
};
const pool = (
  name: string,
  base: keyof typeof ASSET,
  quote: keyof typeof ASSET,
  decimals: [number, number],
  tick: number,
  lot: number,
): Pool => ({
  pool_id: `0xpool-${name}`,
  pool_name: name,
  base_asset_id: ASSET[base],
  base_asset_decimals: decimals[0],
  base_asset_symbol: base,
  base_asset_name: base,
  quote_asset_id: ASSET[quote],
  quote_asset_decimals: decimals[1],
  quote_asset_symbol: quote,
  quote_asset_name: quote,
  min_size: lot * 10,
  lot_size: lot,
  tick_size: tick,
});
const SUI_USDC = pool('SUI_USDC', 'SUI', 'USDC', [9, 6], 100, 100_000_000);
const DEEP_USDC = pool('DEEP_USDC', 'DEEP', 'USDC', [6, 6], 10_000, 1_000_000);
const XBTC_USDC = pool('XBTC_USDC', 'XBTC', 'USDC', [8, 6], 1_000_000, 1_000);
const POOLS = [SUI_USDC, DEEP_USDC, XBTC_USDC];
/** The human prices each pool trades at: round ones too, whose trailing zeros must stay. */
const MID: Record<string, number> = { SUI_USDC: 3.38, DEEP_USDC: 0.187, XBTC_USDC: 97_250 };

function depthOf(p: Pool): Depth {
  const tick = p.tick_size;
  const mid = rawPrice(MID[p.pool_name]!, p);
  const level = (price: number, lots: number) => ({ price, total_quantity: lots * p.lot_size, order_count: 2 });
  return {
    pool_id: p.pool_id,
    bids: [level(mid - tick, 120), level(mid - 10 * tick, 45)],
    asks: [level(mid + tick, 80), level(mid + 30 * tick, 300)],
  };
}

function tradesOf(p: Pool): Trade[] {
  return [0, 1, 2].map((i) => {
    const price = rawPrice(MID[p.pool_name]!, p) + (i - 1) * p.tick_size;
    const base = (i + 3) * p.lot_size;
    return {
      event_digest: `${p.pool_name}-t${i}`,
      digest: `d${i}`,
      sender: '0xsender',
      checkpoint: 100 + i,
      checkpoint_timestamp_ms: NOW - i * 7_000,
      package: '0xpkg',
      pool_id: p.pool_id,
      maker_order_id: '1',
      taker_order_id: '2',
      maker_client_order_id: '0',
      taker_client_order_id: '0',
      price,
      taker_fee: 0,
      taker_fee_is_token: false,
      maker_fee: 0,
      maker_fee_is_token: false,
      taker_is_bid: i % 2 === 0,
      base_quantity: base,
      quote_quantity: Math.floor((base * price) / 1e9),
      maker_balance_manager_id: '0xm',
      taker_balance_manager_id: '0xt',
      onchain_timestamp: NOW - i * 7_000,
    };
  });
}

function candlesOf(p: Pool): Candle[] {
  const hour = 3_600_000;
  const start = Math.floor(NOW / hour) * hour;
  return [0.97, 1.01, 1].map((f, i) => {
    const c = rawPrice(MID[p.pool_name]! * f, p);
    return {
      timestamp: new Date(start - (2 - i) * hour).toISOString().slice(0, 19),
      open: c - p.tick_size,
      high: c + 5 * p.tick_size,
      low: c - 7 * p.tick_size,
      close: c,
      volume_base: String(1234 * p.lot_size),
      volume_quote: String(1234 * p.lot_size * MID[p.pool_name]!),
      trade_count: 17,
    };
  });
}

// ---------------------------------------------------------------------------------------------
// Margin: the SUI margin pool, and the one liquidation the trader saw in three views
// (Live events, the manager page, the alert), repaid 3,757.237166 SUI.

const SUI_MARGIN_POOL = '0xmp-sui';
const USDC_MARGIN_POOL = '0xmp-usdc';
const REPAID_RAW = '3757237166000';
const REPAID_SHOWN = '3,757.2372 SUI';
const MANAGER = managerPosition({ apr: 0.2279 });

const LIQUIDATION: Liquidation = {
  event_digest: 'ev-liq-1',
  digest: 'tx-liq-1',
  sender: '0xliquidator',
  checkpoint: 4_242,
  timestamp: new Date(NOW - 600_000).toISOString(),
  checkpoint_timestamp_ms: NOW - 600_000,
  margin_manager_id: MANAGER.manager_id,
  margin_pool_id: SUI_MARGIN_POOL,
  liquidation_amount: Number(REPAID_RAW),
  pool_reward: 37_572_371_660,
  pool_default: 1_250_000_000,
  risk_ratio: 1.1187,
  remaining_base_asset: 1_020_000_000_000,
  remaining_quote_asset: 0,
  remaining_base_debt: 0,
  remaining_quote_debt: 0,
  base_oracle_price: 318_750_000,
  base_oracle_decimals: 8,
  quote_oracle_price: 100_000_000,
  quote_oracle_decimals: 8,
  onchain_timestamp: NOW - 600_000,
  margin_manager: { margin_manager_id: MANAGER.manager_id, owner: MANAGER.owner, dex_pool_id: SUI_USDC.pool_id },
};

const supply = (marginPool: string, asset: string, amount: number) => ({
  margin_pool_id: marginPool,
  asset_type: asset,
  supplier_cap_id: `0xcap-${marginPool}`,
  supply_amount: amount,
  supply_shares: amount,
  remaining_amount: Math.round(amount * 1.0123),
  remaining_shares: amount,
  checkpoint: 4_000,
  timestamp: new Date(NOW - 86_400_000).toISOString(),
  checkpoint_timestamp_ms: NOW - 86_400_000,
  digest: 'sup',
  supplier_cap: null,
});
const SUPPLIES = [
  supply(SUI_MARGIN_POOL, ASSET.SUI, 12_500_000_000_000),
  supply(USDC_MARGIN_POOL, ASSET.USDC, 48_000_000_000),
];

const LOANS = [
  {
    margin_manager_id: MANAGER.manager_id,
    margin_pool_id: USDC_MARGIN_POOL,
    loan_amount: 1_800_000_000,
    loan_shares: 1,
    remaining_amount: 1_900_000_000,
    remaining_shares: 1,
    risk_ratio: 1.421,
    checkpoint: 4_100,
    timestamp: new Date(NOW - 3_600_000).toISOString(),
    digest: 'loan',
    checkpoint_timestamp_ms: NOW - 3_600_000,
    margin_manager: { margin_manager_id: MANAGER.manager_id, owner: MANAGER.owner, dex_pool_id: SUI_USDC.pool_id },
  },
];

const EVENTS: MarginEventRow[] = [
  {
    id: `${NOW - 600_000}-0`,
    type: 'dex_margin_manager_updates_liquidation',
    timestamp_ms: NOW - 600_000,
    margin_manager_id: MANAGER.manager_id,
    data: { risk_ratio: 1_118_700 },
    valid: true,
    own: true,
    amounts: [
      { label: 'repaid', raw: REPAID_RAW, decimals: 9, symbol: 'SUI' },
      { label: 'left', raw: '1020000000000', decimals: 9, symbol: 'SUI' },
    ],
  },
  {
    id: `${NOW - 900_000}-0`,
    type: 'dex_margin_manager_updates_deposit',
    timestamp_ms: NOW - 900_000,
    margin_manager_id: '0xother',
    valid: true,
    amounts: [
      { label: '', raw: '250000000', decimals: 6, symbol: 'USDC' },
      { label: '', raw: '1500000000', decimals: 9, symbol: 'SUI' },
    ],
  },
  {
    id: `${NOW - 1_200_000}-0`,
    type: 'dex_margin_manager_updates_withdraw',
    timestamp_ms: NOW - 2 * 86_400_000,
    margin_manager_id: '0xother',
    valid: true,
    amounts: [{ label: '', raw: '10000000000000', decimals: 6, symbol: 'DEEP' }],
  },
];

// ---------------------------------------------------------------------------------------------
// The monitor: every kind of alert, made by the alert engine as it makes them.

const ENGINE_NOW = NOW;
/** A position at these figures, as the valuation gives them (the words of an alert read them). */
const at = (p: PositionSummary, ratio: number, distance: number, id: string): PositionSummary => ({
  ...p,
  manager_id: id,
  risk_ratio: ratio,
  distance_pct: distance,
  liquidation_price: p.price!.usd * (1 + distance / 100),
});
const RULES = { warning: 1.2, critical: 1.15, near_pct: 3, liquidation: 1.125 };

function everyAlert(): AlertRecord[] {
  const store = Store.openInMemory();
  store.risk.routeWith(NO_CHANNELS);
  try {
    const engine = new AlertEngine(store.risk, new EventBus<CoreEvents>(), 15 * 60_000);
    const out: AlertRecord[] = [];
    const add = (a: AlertRecord | AlertRecord[] | undefined): void => {
      if (a) out.push(...(Array.isArray(a) ? a : [a]));
    };
    // Risk levels: warning, critical, liquidatable, and a critical one that came half as close again.
    const positions = [
      at(LONG_SUI, 1.19, -5.7, '0xwarn'),
      at(SHORT_SUI, 1.14, 4.44, '0xcrit'),
      at(LONG_DEEP, 1.12, -0.04, '0xliq'),
      at(LONG_SUI, 1.16, -2.4, '0xcloser'),
      // Pools of other ticks, above $10,000: prices at their tick, money to the cent.
      at(LONG_WAL, 1.18, -3.9, '0xwal'),
      at(SHORT_XBTC, 1.14, 2.6, '0xxbtc'),
    ];
    const byId = new Map(positions.map((p) => [p.manager_id, p]));
    const reading = (p: PositionSummary, ts: number): RiskReading => ({ ...readingOf(p, ts), owner: WALLET.owner });
    add(
      engine.onReadings(
        positions.map((p) => reading(p, ENGINE_NOW)),
        () => RULES,
        ENGINE_NOW,
        (id) => (byId.has(id) ? describePosition(byId.get(id)!) : undefined),
      ),
    );
    const closer = at(LONG_SUI, 1.14, -1.1, '0xcloser');
    add(
      engine.onReadings(
        [reading(closer, ENGINE_NOW + 60_000)],
        () => RULES,
        ENGINE_NOW + 60_000,
        () => describePosition(closer),
      ),
    );
    // The short back out of danger: its recovery, with the figures of the position then.
    const healed = at(SHORT_SUI, 1.42, 21.3, '0xcrit');
    add(
      engine.onReadings(
        [reading(healed, ENGINE_NOW + 120_000)],
        () => RULES,
        ENGINE_NOW + 120_000,
        () => describePosition(healed),
      ),
    );
    // The words of a risk alert without the position's figures (a manager the valuation does not describe).
    out.push({
      ...out[0]!,
      id: 0,
      ...riskAlertText(
        { level: 'critical', kind: 'rise', from: 'warning' },
        { manager_id: '0xbare', risk_ratio: 1.149, distance_pct: -2.46 },
        RULES,
        undefined,
      ),
    });
    // A liquidation of a watched manager, and a large one of another trader's.
    const liq: IncomingMarginEvent = {
      id: `${NOW - 600_000}-0`,
      type: 'dex_margin_manager_updates_liquidation',
      timestamp_ms: NOW - 600_000,
      checkpoint_id: 4_242,
      tx_hash: 'tx-liq-1',
      margin_manager_id: MANAGER.manager_id,
      data: JSON.stringify({ risk_ratio: 1_118_700 }),
      valid: true,
      problem: null,
    } as IncomingMarginEvent;
    add(
      engine.onLiquidation(
        liq,
        MANAGER.owner,
        0,
        { risk_ratio: 1_118_700 },
        {
          amounts: () => amountsInWords(EVENTS[0]!.amounts!),
          pool: () => 'SUI_USDC',
        },
      ),
    );
    add(
      engine.onLargeLiquidation(
        { ...liq, id: `${NOW}-1`, margin_manager_id: '0xwhale' },
        12_400.5,
        amountText('3757.237166', 'SUI', 'en-US'),
      ),
    );
    // The monitor itself: the credit budget, the store, blindness, a channel, a stream key, history, interest.
    const usage = { today: 1_234, thisMonth: 80_512, month: '2026-11', estimated: 0, streamedKb: 0, budget: 100_000 };
    add(engine.onCreditBudget(0.8, usage, ENGINE_NOW));
    add(engine.onCreditBudget(1, { ...usage, thisMonth: 100_004 }, ENGINE_NOW));
    add(engine.onStoreFailure('cannot write to the store: the disk is full', ENGINE_NOW));
    add(engine.onBlind(ENGINE_NOW - 7 * 60_000, ['the service cannot be reached'], ENGINE_NOW));
    add(
      engine.onBlind(ENGINE_NOW - 5 * 60_000, ['no alert channel reaches you: phone (ntfy) refuses'], ENGINE_NOW + 1),
    );
    add(engine.onSight(ENGINE_NOW - 7 * 60_000, ENGINE_NOW + 120_000));
    add(engine.onStreamAuthStopped('margin', 'the service answered 401', 'the stream key', ENGINE_NOW));
    add(
      engine.onHistoryGap(
        NOW - 7_200_000,
        NOW - 3_600_000,
        'The service could no longer replay stream history for this span.',
        ENGINE_NOW,
      ),
    );
    add(
      engine.onInterestDrift(
        MANAGER.manager_id,
        MANAGER.owner,
        interestWords(MANAGER, 23 * 86_400_000, MANAGER.repair),
        ENGINE_NOW,
      ),
    );
    // A rate alert: the quote's margin pool read calm, then past its kink.
    const curve = { base_rate: 0.02, base_slope: 0.15, optimal_utilization: 0.8, excess_slope: 5 };
    const poolAt = (utilization: number, borrow_apr: number, ts_ms: number): PoolHealth => ({
      margin_pool_id: MANAGER.debts[0]!.margin_pool_id,
      symbol: MANAGER.debts[0]!.symbol,
      utilization,
      borrow_apr,
      supply_apr: borrow_apr * utilization * 0.9,
      curve,
      kink_apr: 0.14,
      ts_ms,
    });
    engine.onPoolRates([poolAt(0.7, 0.125, ENGINE_NOW - 900_000)], () => [MANAGER], 0.3, ENGINE_NOW - 900_000);
    add(engine.onPoolRates([poolAt(0.86, 0.44, ENGINE_NOW)], () => [MANAGER], 0.3, ENGINE_NOW));
    const unreached: UnreachedChannel = {
      channel: 'phone',
      words: 'phone (ntfy)',
      since: ENGINE_NOW - 4 * 60_000,
      reason: 'connection refused',
      short: 'connection refused',
      waiting: 3,
      fallback: null,
    };
    out.push({ ...out[0]!, id: 99, rule: 'channel', level: 'warning', ...unreachedWords(unreached, ENGINE_NOW) });
    // The daily digest: the position now and 24 h before, the night's liquidations and alerts, the credits.
    const digest = digestText(
      {
        at: ENGINE_NOW,
        since: ENGINE_NOW - 86_400_000,
        valuedAt: ENGINE_NOW - 60_000,
        positions: [
          {
            label: 'desk',
            position: MANAGER,
            then: {
              manager_id: MANAGER.manager_id,
              owner: MANAGER.owner,
              ts_ms: ENGINE_NOW - 86_400_000,
              risk_ratio: 1.5,
              debt_usd: MANAGER.debt_usd,
              assets_usd: MANAGER.collateral_usd,
              distance_pct: -20,
            },
          },
          // Short XBTC: a day's interest on 0.13 XBTC at 8.2 % is 0.0000292 XBTC, "0.0000" at its precision.
          { label: 'desk', position: { ...SHORT_XBTC, manager_id: '0xxbtc' }, then: undefined },
        ],
        liquidations: out.filter((a) => a.rule === 'liquidation'),
        own: out.filter((a) => a.rule === 'risk-threshold'),
        watched: out.filter((a) => a.rule === 'large-liquidation'),
        other: out.filter((a) => a.rule === 'blind' || a.rule === 'credit-budget'),
        labels: new Map([[MANAGER.owner, 'desk']]),
        credits: usage,
      },
      'America/New_York',
    );
    out.push({ ...out[0]!, id: 100, rule: 'digest', level: 'info', manager_id: null, owner: null, ...digest });
    return out;
  } finally {
    store.close();
  }
}

const ALERTS = everyAlert();

// ---------------------------------------------------------------------------------------------
// The app's answers, from one world.

const STATUS: StatusSnapshot = {
  network: 'custom',
  online: true,
  offlineSince: null,
  streams: [
    {
      id: 'margin',
      state: 'open',
      lastEventAt: NOW - 4_000,
      lastByteAt: NOW,
      nextTryAt: null,
      reconnects: 0,
      events: 9,
      lastError: null,
    },
  ],
  storeNotice: null,
  storeError: null,
  historyGaps: [
    {
      fromMs: NOW - 7_200_000,
      toMs: NOW - 3_600_000,
      recoveredLiquidations: 2,
      message: 'The service could not replay it.',
    },
  ],
  internalError: null,
  credits: { today: 4_321, thisMonth: 85_000, month: '2026-11', estimated: 120, streamedKb: 5_000, budget: 100_000 },
  reads: {
    prices: [{ symbol: 'SUI', everyMs: 45_000, slowed: true, why: 'near liquidation (\u22122.9\u202F%)', readAt: NOW }],
    recordsEveryMs: 5_400_000,
    recordsSlowed: false,
    pace: 0.5,
    budgetNote: 'Reads slowed to 50\u202F% to last the month.',
  },
  unreached: [
    {
      channel: 'phone',
      words: 'phone (ntfy)',
      since: NOW - 4 * 60_000,
      reason: 'connection refused',
      short: 'connection refused',
      waiting: 3,
      fallback: { channel: 'desk', words: 'desk (Telegram)', at: NOW + 60_000 },
    },
  ],
};

const NOTIFY: NotifyView = {
  channels: [
    {
      name: 'phone',
      type: 'ntfy',
      source: 'settings',
      minLevel: 'warning',
      rules: null,
      quietHours: { from: '22:00', to: '07:00', zone: 'America/New_York' },
      hideAmounts: false,
      minIntervalSec: null,
      fallback: { channel: 'desk', afterMin: 3 },
      fields: { topic: 'tidewatch' },
      secrets: { url: true },
      status: {
        pending: 3,
        lastSentAt: NOW - 3_600_000,
        failing: { since: NOW - 240_000, at: NOW - 5_000, detail: 'connection refused' },
      },
    },
  ],
  escalateEveryMin: 5,
  blindAfterMin: 3,
  heartbeatSet: false,
  heartbeatEveryMin: 1,
  linkBase: null,
  file: null,
  pending: 3,
};

const NFT = (i: number) => ({
  object_id: `0xnft${i}`,
  object_type: '0xpunks::punk::TidalPunk',
  kiosk_object_id: i % 2 ? '0xkiosk' : null,
  owner: WALLET.owner,
  checkpoint_id: String(4_000 + i),
  decoded_fields: { name: `Punk ${i}` },
  decoded_display: { name: `Punk ${i}`, image_url: null },
  created_at: new Date(NOW - 86_400_000).toISOString(),
  updated_at: new Date(NOW - 3_600_000).toISOString(),
  listed_value: i % 2 ? '12500000000' : null,
});

const READINGS: RiskReading[] = [NOW - 3_600_000, NOW - 600_000].map((ts) => readingOf(MANAGER, ts));

/**
 * The Portfolio's list of prices with two whose tick is not their size's rule: WAL at WAL_USDC's
 * 0.00001 ("$0.19650", by its size "$0.1965") and XBTC at XBTC_USDC's 0.1 ("$97,250.0", by its
 * size "$97,250.00"), the exchange's beside it.
 */
const LISTED = {
  ...SUMMARY,
  // One position of $17,500 of assets beside ones of $3,500 to $5,000: its money column must
  // keep one rule (issue 40: "$10,778" above "$8,317.62").
  wallets: SUMMARY.wallets.map((w) => ({
    ...w,
    positions: w.positions.map((p) =>
      p.manager_id === LONG_SUI.manager_id
        ? portfolioPosition(
            p.manager_id,
            ['SUI', 'USDC'],
            { base: 5_000, quote: 0, debtBase: 0, debtQuote: 14_000 },
            SUI,
            {
              exchange_view: p.exchange_view,
            },
          )
        : p,
    ),
  })),
  prices: [
    ...SUMMARY.prices,
    { ...oracle('WAL', 0.1965), price_decimals: 5 },
    { ...oracle('XBTC', 97_250, 98_500), price_decimals: 1 },
  ],
};

function answers(): Record<string, (args: any) => unknown> {
  return {
    // A digest set in New York: its time on that clock, named (docs/formats.md, quiet hours alike).
    settings: () => ({ ...SETTINGS, digestAt: '08:00', digestZone: 'America/New_York' }),
    watchList: () => [
      { owner: WALLET.owner, label: 'Desk', added_at: 0 },
      { owner: FAR_WALLET, label: null, added_at: 0 },
    ],
    portfolio: () => answer(LISTED),
    walletNfts: () => answer({ items: [NFT(1), NFT(2), NFT(3)], isLastPage: true, currentPage: 0, perPage: 50 }),
    pools: () => answer(POOLS),
    depth: (a: { pool: string }) => answer(depthOf(POOLS.find((p) => p.pool_name === a.pool)!)),
    trades: (a: { pool: string }) => answer(tradesOf(POOLS.find((p) => p.pool_name === a.pool)!)),
    candles: (a: { pool: string }) => answer(candlesOf(POOLS.find((p) => p.pool_name === a.pool)!)),
    creditForecast: () => FORECAST,
    streamStatus: () => STATUS,
    alerts: () => ({ data: ALERTS, source: 'cache', fetchedAt: NOW, stale: false }),
    thresholds: () => ({ defaults: { warning: 1.2, critical: 1.15 }, perManager: {} }),
    notifyChannels: () => NOTIFY,
    activeSupplies: () => page(SUPPLIES),
    activeLoans: () => page(LOANS),
    liquidations: () => page([LIQUIDATION]),
    marginManagers: () => page([]),
    supplyReferrals: () => page([]),
    supplierCaps: () => page([]),
    marginEvents: () => answer(EVENTS),
    manager: () =>
      answer({
        manager_id: MANAGER.manager_id,
        owner: MANAGER.owner,
        pool_name: 'SUI_USDC',
        created_at: NOW - 30 * 86_400_000,
        position: MANAGER,
        watched: true,
      }),
    riskHistory: () => ({ data: READINGS, source: 'cache', fetchedAt: NOW, stale: false }),
    poolHealth: () => answer(POOL_HEALTH),
    liquidationMap: (a: { pool: string }) => answer(liquidationMapOf(POOLS.find((p) => p.pool_name === a.pool)!)),
    collection: () => page([NFT(1), NFT(2)]),
    holders: () =>
      page([
        { owner: WALLET.owner, count: 2 },
        { owner: '0xother', count: 7 },
      ]),
    demoHints: () => ({ owners: [] }),
  };
}

/** A pool's liquidation map: two crowds of longs 12-14 % below its mid, one of shorts 10-11 % above; the manager is one. */
function liquidationMapOf(p: Pool) {
  const mid = MID[p.pool_name]!;
  const params = { liquidation: 1.125, target_liquidation: 1.25, user_reward: 0.01, pool_reward: 0.04 };
  const entries: MapEntry[] = [];
  const usd = 2_500 / mid;
  for (let i = 0; i < 12; i++) {
    const at = mid * (i < 8 ? 0.86 + i * 0.002 : 1.1 + (i - 8) * 0.003);
    // A long of b base owing 0.8 b at: liquidated at 1.125 x 0.8 x at; a short mirrors it.
    const h =
      i < 8
        ? { base: usd * (1 + i), quote: 0, debtBase: 0, debtQuote: (at * usd * (1 + i)) / 1.125 }
        : { base: 0, quote: 1.125 * at * usd * (i - 6), debtBase: usd * (i - 6), debtQuote: 0 };
    entries.push(mapEntryOf(i === 0 ? MANAGER.manager_id : `0xm${i}`, h, params, i === 0)!);
  }
  entries.sort((a, b) => a.price - b.price);
  const width = bucketWidth(mid, humanPrice(p.tick_size, p));
  const buckets = bucketsOf(entries, width);
  return {
    pool: p.pool_name,
    entries,
    buckets,
    width,
    clusters: clustersOf(buckets),
    readAt: NOW - 20 * 60_000,
    everyMs: 3_600_000,
    loans: 12,
    pages: 1,
    unplaced: 0,
    liquidated: 0,
  };
}

/** Each view, as the router shows it, its charts caught to read their tooltips. */
async function show(
  name: string,
  view: Component,
  path: string,
  o: { props?: Record<string, unknown>; before?: () => void } = {},
): Promise<{ w: VueWrapper; charts: Array<Record<string, any>> }> {
  setApi(fakeApi(answers()).api);
  o.before?.();
  const charts: Array<Record<string, any>> = [];
  const w = mount(view, {
    attachTo: document.body,
    props: o.props,
    global: {
      plugins: [await routerAt(path)],
      stubs: { VChart: chartProbe(charts), Echarts: chartProbe(charts) },
    },
  });
  await settle();
  await settle();
  scan.element(name, w.element);
  return { w, charts };
}

/** Two margin pools' health: USDC past its kink, SUI calm, each with a few reads of history. */
const HEALTH_CURVE = { base_rate: 0.02, base_slope: 0.15, optimal_utilization: 0.8, excess_slope: 5 };
const healthAt = (id: string, symbol: string, utilization: number, ts_ms: number) => ({
  margin_pool_id: id,
  symbol,
  utilization,
  borrow_apr: borrowApr(HEALTH_CURVE, utilization),
  supply_apr: supplyApr(HEALTH_CURVE, utilization, 0.1),
  curve: HEALTH_CURVE,
  kink_apr: 0.14,
  ts_ms,
});
const POOL_HEALTH: PoolHealthView = {
  pools: [healthAt('mp-SUI', 'SUI', 0.412, NOW), healthAt('mp-USDC', 'USDC', 0.861, NOW)],
  history: {
    'mp-USDC': [0.72, 0.78, 0.861].map((u, i) => {
      const { utilization, borrow_apr, supply_apr, ts_ms } = healthAt('mp-USDC', 'USDC', u, NOW - (2 - i) * 900_000);
      return { utilization, borrow_apr, supply_apr, ts_ms };
    }),
  },
  everyMs: 900_000,
};

/** The last option of each chart caught, by a series or axis it has. */
const chartWith = (charts: Array<Record<string, any>>, has: (o: Record<string, any>) => boolean) =>
  charts.filter(has).at(-1);

describe('every view, alert and message, by the number rules (docs/formats.md)', () => {
  it('Portfolio: rows, totals, prices and a shock', async () => {
    const { w } = await show('Portfolio', PortfolioView, '/portfolio');
    expect(w.findAll('[data-testid="position-row"]')).toHaveLength(3);
    await w.get('[data-testid="shock-slider-SUI"]').setValue('-15');
    scan.element('Portfolio (SUI −15 %)', w.element);
    // Each USD price with its digits, trailing zeros kept; APR with two decimals.
    const prices = w
      .findAll('[data-testid="row-price"], [data-testid="row-break-even"], [data-testid="distance"] .liq')
      .map((c) => c.text())
      .filter((t) => t.includes('$'));
    expect(prices.length).toBeGreaterThanOrEqual(8);
    for (const t of prices) {
      const [, whole, fraction] = /\$([\d,]+)\.(\d+)/.exec(t)!;
      expect(fraction!.length, t).toBe(usdPriceDigits(Number(`${whole!.replace(/,/g, '')}.${fraction}`)));
    }
    // The list of prices: each asset's at the tick of the pool it is priced on, as a row on that
    // pool writes it, the exchange's beside it alike; never by its size.
    const listed = w.findAll('[data-testid="price"]').map((c) => c.text());
    expect(listed).toHaveLength(LISTED.prices.length);
    for (const [i, p] of LISTED.prices.entries()) {
      expect(listed[i]).toMatch(new RegExp(`^${p.symbol} \\$`));
      const figures = [...listed[i]!.matchAll(/\$([\d,]+)\.(\d+)/g)];
      expect(figures.length).toBeGreaterThanOrEqual(1);
      const digits = p.price_decimals ?? usdPriceDigits(p.usd);
      for (const f of figures) expect(f[2]!.length, listed[i]).toBe(digits);
    }
    expect(listed.find((t) => t.startsWith('WAL'))).toContain('WAL $0.19650 (oracle price');
    expect(listed.find((t) => t.startsWith('XBTC'))).toContain('; exchange $98,500.0 (+1.3\u202F%))');
    // The one SUI price, in its row and in the list alike.
    const rowPrices = w.findAll('[data-testid="row-price"]').map((c) => /\$[\d,.]+/.exec(c.text())?.[0]);
    expect(rowPrices).toContain(/^SUI (\$[\d,.]+)/.exec(listed.find((t) => t.startsWith('SUI'))!)![1]);
    expect(w.findAll('[data-testid="row-apr"]').map((c) => c.text())).toEqual([
      '8.20\u202F%',
      '12.10\u202F%',
      '8.20\u202F%',
    ]);
    w.unmount();
  });

  it('a manager page: facts, repair, shock, risk history (its chart too), liquidations, events', async () => {
    const { w, charts } = await show('Manager', ManagerView, `/manager/${MANAGER.manager_id}`);
    expect(w.get('[data-testid="position-apr"]').text()).toBe('22.79\u202F%');
    // The crowd's sentences read apart: "(… read 20 min ago.) See the pool's liquidation map.", never "ago.)See".
    const crowd = w.get('[data-testid="liquidation-crowd"]').text();
    expect(crowd).toMatch(/ago\.\) See the pool's liquidation map\.$/);
    expect(crowd).not.toMatch(/[.)][A-Z(]/);
    await w.get('[data-testid="shock-slider-SUI"]').setValue('-10');
    scan.element('Manager (SUI −10 %)', w.element);
    expect(w.get('[data-testid="manager-liquidations"]').text()).toContain(REPAID_SHOWN);
    // The risk chart's tooltip: each reading's ratio and distance, as the rows write them.
    const chart = chartWith(charts, (o) => o['series']?.[0]?.name === 'risk ratio')!;
    const tip = chart['tooltip'].formatter([
      { seriesIndex: 0, dataIndex: 1, axisValue: READINGS[1]!.ts_ms, value: [READINGS[1]!.ts_ms, 1.4] },
    ]);
    expect(tip).toContain('\u2212');
    scan.text('Manager (risk chart tooltip)', tip.replace(/<[^>]+>/g, ' '), { zoned: true });
    // Its time axis: the app's one style of clock, the zone named once as the axis's name.
    expect(chart['xAxis'].name).toMatch(/^E[SD]T$/);
    for (const r of READINGS) scan.text('Manager (risk chart axis)', chart['xAxis'].axisLabel.formatter(r.ts_ms));
    // And as ECharts draws it on the page at 1280 and 1920: each time once, in the one style.
    for (const width of [1_042, 1_682]) {
      const drawn = drawnTexts(chart, width, 300).map((t) => t.text);
      const times = drawn.filter((t) => /\d:\d\d/.test(t));
      expect(times.length).toBeGreaterThanOrEqual(3);
      expect(new Set(times).size, times.join(' | ')).toBe(times.length);
      for (const t of times) scan.text(`Manager (risk chart axis, ${width} px)`, t);
      // Its ratio axis: every tick with a ratio's three decimals.
      expect(drawn.filter((t) => /^\d+(\.\d+)?$/.test(t)).length).toBeGreaterThanOrEqual(3);
      scan.ratioAxis(`Manager (risk chart ratio axis, ${width} px)`, drawn);
    }
    // The lines' names beside the plot (the pool's minimum borrow ratio, the three thresholds,
    // and the interest tail's drift a day): each ratio with three decimals.
    const names = (chart['graphic'][0].children as Array<{ type: string; style: { text: string } }>)
      .filter((c) => c.type === 'text')
      .map((c) => c.style.text);
    expect(names.map((n) => n.split(' ')[0])).toEqual(['min', 'warning', 'critical', 'liquidation', 'interest']);
    for (const n of names) scan.text('Manager (risk chart line names)', n);
    w.unmount();
  });

  it("a position whose interest is too small for its asset's precision (0.0000178 XBTC, $1.73)", async () => {
    const base = managerPosition({ apr: 0.2279 });
    const position = { ...base, interest: { ...base.interest, accrued: 0.0000178, accrued_usd: 1.73, symbol: 'XBTC' } };
    const { w } = await show('Position facts (tiny interest)', PositionFacts, `/manager/${position.manager_id}`, {
      props: { position, own: false },
    });
    expect(w.get('[data-testid="position-interest-accrued"]').text()).toContain('$1.73');
    w.unmount();
  });

  it('the repair panel in the danger band: what is refused, the reduce-only close of a long and of a short', async () => {
    const thresholds = { warning: 1.2, critical: 1.15, near_pct: 3 };
    for (const h of [
      { base: 1000, quote: 200, debtBase: 0, debtQuote: 2300 },
      { base: 0, quote: 2950, debtBase: 1000, debtQuote: 0 },
      { base: 10, quote: 2675, debtBase: 0, debtQuote: 2300 },
      // Above $10,000: the cost of doing nothing to the cent, as the row writes the position's money.
      { base: 10_000, quote: 2000, debtBase: 0, debtQuote: 23_000 },
    ]) {
      const position = managerPosition({ h, thresholds });
      const { w } = await show('Repair (danger band)', RepairPanel, `/manager/${position.manager_id}`, {
        props: { position, own: false },
      });
      const cost = w.find('[data-testid="liquidation-cost"]');
      if (cost.exists()) scan.text('Repair (cost of doing nothing)', cost.text(), { position: true });
      expect(w.get('[data-testid="repair-refused"]').text()).toContain('minimum borrow ratio 1.250');
      expect(w.find('[data-testid="repair-close"]').exists()).toBe(true);
      w.unmount();
    }
  });

  it('Margin: the liquidations (and their timeline), the loans, the supplies', async () => {
    const { w, charts } = await show('Margin', MarginView, '/margin');
    expect(w.text()).toContain(REPAID_SHOWN);
    // Pool health: the most used pool's row marked past its kink, its rate by the APR rule.
    const usdcRow = w.get('[data-testid="pool-health-USDC"]').text();
    expect(usdcRow).toContain('86\u202F%');
    expect(usdcRow).toContain(`${(borrowApr(HEALTH_CURVE, 0.861) * 100).toFixed(2)}\u202F% past the kink`);
    expect(w.get('[data-testid="pool-health"]').text()).toContain('read every 15 min');
    const health = chartWith(charts, (o) => o['series']?.[0]?.name === 'borrow APR')!;
    expect(health['series'][0].data).toHaveLength(3);
    // The time axis ends at the last reading: no day of future on it.
    const xs = health['series'][0].data.map((d: [number, number]) => d[0]);
    expect(health['xAxis'].max).toBe(Math.max(...xs));
    // The readings fill the axis, first to last (30 min of them here).
    expect(health['xAxis'].min).toBe(Math.min(...xs));
    scan.text('Margin (pool health axis)', health['yAxis'].axisLabel.formatter(0.4));
    // The kink's rate beside its line, whole inside the chart as the Margin page draws it at 1280
    // and 1920 (issue 40: "kink 14.00" cut at the chart's edge).
    for (const width of [1_000, 1_640]) {
      const kink = drawnTexts(health, width, 180).find((t) => t.text.startsWith('rate at the kink '));
      expect(kink, `${width} px`).toBeDefined();
      expect(kink!.x, `${width} px`).toBeGreaterThanOrEqual(0);
      expect(kink!.x + kink!.width, `${kink!.text} at ${width} px`).toBeLessThanOrEqual(width);
      scan.text(`Margin (pool health kink, ${width} px)`, kink!.text);
    }
    for (const tab of ['Active loans', 'Active supplies']) {
      await w
        .findAll('[role="tab"]')
        .find((t) => t.text().includes(tab))!
        .trigger('click');
      await settle();
      scan.element(`Margin (${tab})`, w.element);
    }
    const timeline = chartWith(charts, (o) => o['yAxis']?.type === 'log');
    if (timeline) {
      scan.text('Margin (timeline axis)', timeline['yAxis'].axisLabel.formatter(1_234_567));
      expect(timeline['xAxis'].name).toMatch(/^E[SD]T$/);
      scan.text('Margin (timeline time axis)', timeline['xAxis'].axisLabel.formatter(NOW - 600_000));
    }
    w.unmount();
  });

  it('Markets, and a pool: book, tape, candles, the watched positions on its chart', async () => {
    const markets = await show('Markets', MarketsView, '/markets');
    const rows = markets.w.findAll('[data-testid="pool-row"]');
    expect(rows).toHaveLength(3);
    /** Each pool's mid as the Markets table writes it, to be the pool's header's. */
    const tableMids = new Map<string, string>();
    for (const r of rows) {
      const p = POOLS.find((x) => r.text().startsWith(x.pool_name))!;
      const [, mid, change, high, low, , , tick] = r.findAll('td').map((c) => c.text());
      for (const price of [high, low, tick])
        expect(price!.split('.')[1]?.length ?? 0, `${p.pool_name} ${price}`).toBe(tickDecimals(p));
      // A mid on a tick at the tick's decimals ("3.3800", never "3.38000"), as the pool's header.
      const midText = mid!.replace(p.quote_asset_symbol, '').trim();
      expect(midText.split('.')[1]?.length ?? 0, `${p.pool_name} mid ${mid}`).toBe(tickDecimals(p));
      tableMids.set(p.pool_name, midText);
      // A change in percent with one decimal, as everywhere ("−2.0 %", never "−1.96 %").
      expect(change, `${p.pool_name} change`).toMatch(/^[+\u2212]?\d+\.\d\u202F%$/u);
    }
    markets.w.unmount();

    for (const p of POOLS) {
      const { w, charts } = await show(`Pool ${p.pool_name}`, PoolView, `/markets/${p.pool_name}`, {
        props: { poolName: p.pool_name },
        before: () => {
          usePortfolioStore().summary = SUMMARY;
        },
      });
      // Every price of the pool with its tick's decimals, trailing zeros too ("3.3800", "97,250.0").
      const decimals = (t: string) => t.trim().split('.')[1]?.length ?? 0;
      const ladder = w
        .findAll('[data-testid="depth-ladder"] tbody tr:not(.spread) td:first-child')
        .map((c) => c.text());
      const tape = w.findAll('[data-testid="trade-tape"] tbody td:nth-child(3)').map((c) => c.text());
      expect(ladder.length + tape.length).toBeGreaterThan(5);
      for (const t of [...ladder, ...tape, w.get('[data-testid="last-price"]').text()])
        expect(decimals(t), `${p.pool_name} ${t}`).toBe(tickDecimals(p));
      // The mid lies on a tick here: the tick's decimals, and the Markets table's figure.
      expect(decimals(w.get('[data-testid="mid-price"]').text())).toBe(tickDecimals(p));
      expect(w.get('[data-testid="mid-price"]').text()).toBe(tableMids.get(p.pool_name));
      // Every size, an amount of the base asset, at its display precision, as on the Portfolio
      // ("0.0398 XBTC" there, never "0.03980" in the book), the full size in its tooltip.
      const sizes = [
        ...w.findAll('[data-testid="depth-ladder"] tbody tr:not(.spread) td:nth-child(2)'),
        ...w.findAll('[data-testid="depth-ladder"] tbody tr:not(.spread) td:nth-child(3)'),
        ...w.findAll('[data-testid="trade-tape"] tbody td:nth-child(4)'),
      ].map((c) => c.text());
      expect(sizes.length).toBeGreaterThan(5);
      for (const t of sizes) expect(decimals(t), `${p.pool_name} size ${t}`).toBe(amountDigits(p.base_asset_symbol));
      for (const r of w.findAll('[data-testid="depth-ladder"] tbody tr:not(.spread)'))
        expect(r.attributes('title'), p.pool_name).toMatch(
          new RegExp(`^\\d+ orders, [\\d,.]+ ${p.base_asset_symbol}$`),
        );
      // The candles' times in the app's one style, the zone named once on the chart.
      const candles = chartWith(charts, (o) => o['series']?.[0]?.type === 'candlestick')!;
      expect(candles['xAxis'][1].name).toMatch(/^E[SD]T$/);
      for (const t of candles['xAxis'][0].data) scan.text(`Pool ${p.pool_name} (candle axis)`, t);
      // The positions' labels beside the candles: each price at the pool's tick.
      for (const c of candles['graphic'][0].children as Array<{ type: string; style: { text: string } }>)
        if (c.type === 'text') {
          scan.text(`Pool ${p.pool_name} (position label)`, c.style.text);
          const last = c.style.text.split(/[ –]/).at(-1)!;
          expect(decimals(last), `${p.pool_name} ${c.style.text}`).toBe(tickDecimals(p));
        }
      const depth = chartWith(charts, (o) => o['series']?.[0]?.name === 'bids');
      if (depth)
        scan.text(
          `Pool ${p.pool_name} (depth tooltip)`,
          depth['tooltip']
            .formatter([{ seriesName: 'bids', value: [MID[p.pool_name], 1234.5] }])
            .replace(/<[^>]+>/g, ' '),
        );
      w.unmount();
    }
  });

  it('Live events, Wallet, Collection, Settings', async () => {
    const events = await show('Live events', EventsView, '/events');
    expect(events.w.text()).toContain(REPAID_SHOWN);
    events.w.unmount();
    // The watched wallets' list names one without a label by its short address, as every view does.
    const wallet = await show('Wallet', WalletView, `/wallet/${WALLET.owner}`, {
      before: () => {
        useSettingsStore().watchList = answers()['watchList']!({}) as never;
      },
    });
    expect(wallet.w.text()).toContain('0x1763a7\u2026d999');
    wallet.w.unmount();
    const collection = await show('Collection', CollectionView, '/collection/0xpunks::punk::TidalPunk');
    await collection.w.get('[data-testid="tab-holders"]').trigger('click');
    await settle();
    scan.element('Collection (holders)', collection.w.element);
    const holders = chartWith(collection.charts, (o) => o['yAxis']?.max === 100);
    if (holders) scan.text('Collection (chart tooltip)', holders['tooltip'].valueFormatter(62.5));
    collection.w.unmount();
    const settings = await show('Settings', SettingsView, '/settings', {
      before: () => {
        useStatusStore().snapshot = STATUS;
      },
    });
    settings.w.unmount();
  });

  it('the app around them: the status bar and the banners', async () => {
    const { w } = await show('App', App, '/portfolio', {
      before: () => {
        useStatusStore().snapshot = STATUS;
      },
    });
    expect(w.find('[data-testid="credit-alarm"]').text()).toBe('credits 85\u202F% of budget');
    w.unmount();
  });

  it('the Alerts page, every kind of alert, and each as a channel sends it (one, a burst, amounts hidden)', async () => {
    expect(new Set(ALERTS.map((a) => a.rule))).toEqual(
      new Set([
        'risk-threshold',
        'recovered',
        'liquidation',
        'large-liquidation',
        'credit-budget',
        'store-write',
        'blind',
        'stream-auth',
        'history-gap',
        'interest',
        'rate',
        'channel',
        'digest',
      ]),
    );
    const titles = ALERTS.map((a) => a.title);
    expect(titles.filter((t) => t.startsWith('Warning — '))).toHaveLength(2);
    expect(titles.filter((t) => t.startsWith('Critical — '))).toHaveLength(4);
    expect(titles.filter((t) => t.startsWith('Liquidatable now — '))).toHaveLength(1);
    expect(titles.filter((t) => t.startsWith('Critical, closer — '))).toHaveLength(1);
    // An alert about one position (and the digest's line of each) writes that position's money to the cent.
    const position = (a: AlertRecord): boolean => ['risk-threshold', 'recovered', 'interest', 'rate'].includes(a.rule);
    const digestLines = ALERTS.find((a) => a.rule === 'digest')!.message.split('\n');
    const positionLines = digestLines.filter((l) => /^• desk: (?:Long|Short)/u.test(l));
    expect(positionLines).toHaveLength(2);
    for (const l of positionLines) scan.text('digest (a position)', l, { zoned: true, position: true });
    for (const a of ALERTS) {
      scan.text(`alert ${a.rule} (title)`, a.title, { zoned: true, position: position(a) });
      scan.text(`alert ${a.rule}`, a.message, { zoned: true, position: position(a) });
    }
    const wal = ALERTS.find((a) => a.title.includes('WAL_USDC'))!;
    expect(wal.title).toMatch(/liquidation at \$0\.\d{5},/);
    expect(wal.message).toContain('Assets $20,480.00');
    expect(ALERTS.find((a) => a.title.includes('XBTC_USDC'))!.title).toMatch(/liquidation at \$\d{2,3},\d{3}\.\d,/);
    expect(ALERTS.find((a) => a.rule === 'digest')!.message).toMatch(/interest \$\d+\.\d\d of XBTC in 24 h/);
    // The liquidation's amount as Live events and the manager page write it; the blind alarm's clock with its zone.
    expect(ALERTS.find((a) => a.rule === 'liquidation')!.message).toContain(`repaid ${REPAID_SHOWN}`);
    expect(ALERTS.find((a) => a.rule === 'blind')!.message).toMatch(/^Since \d{1,2}:\d\d [AP]M E[SD]T \(7 min\)/);
    expect(ALERTS.find((a) => a.rule === 'interest')!.message).toContain('its debt grows at 22.79\u202F% a year');
    expect(ALERTS.find((a) => a.rule === 'rate')!.title).toBe('USDC borrow rate 44.00\u202F% (was 12.50\u202F%)');

    const stored = ALERTS.map((a, i) => ({ ...a, id: i + 1 }));
    for (const a of stored) {
      const one = compose([{ alert: a, repeat: 1, ackUrl: 'http://127.0.0.1:8080/ack/t' }], {
        linkBase: null,
        hideAmounts: false,
      });
      scan.text(`message ${a.rule} (title)`, one.title, { zoned: true, position: position(a) });
      scan.text(`message ${a.rule}`, one.message, { zoned: true, position: position(a) });
    }
    for (const hideAmounts of [false, true]) {
      const burst = compose(
        stored.map((a) => ({ alert: a, repeat: 0, ackUrl: null })),
        { linkBase: 'http://127.0.0.1:8080', hideAmounts, limit: 4_096 },
      );
      scan.text(`burst${hideAmounts ? ' (amounts hidden)' : ''} (title)`, burst.title, { zoned: true });
      scan.text(`burst${hideAmounts ? ' (amounts hidden)' : ''}`, burst.message, { zoned: true });
      // A clock time is no amount: privacy mode leaves it whole.
      expect(burst.message).toMatch(/Since \d{1,2}:\d\d [AP]M E[SD]T/);
    }

    const { w } = await show('Alerts', AlertsView, '/alerts');
    // Every thread unfolded: each alert's full message on the page.
    for (const fold of w.findAll('[data-testid="alert-fold"]')) await fold.trigger('click');
    for (const row of w.findAll('[data-testid="alert-row"]')) await row.trigger('click');
    await settle();
    scan.element('Alerts (unfolded)', w.element);
    expect(w.text()).toContain(REPAID_SHOWN);
    w.unmount();
  });

  it('found no figure that breaks a rule, having looked at each kind of figure', () => {
    // One amount of one asset reads the same in every view that shows it.
    expect([...(scan.amounts.get(REPAID_SHOWN) ?? [])].map((w) => w.split(' ')[0])).toEqual(
      expect.arrayContaining(['Manager', 'Margin', 'Live', 'alert', 'Alerts']),
    );
    expect(scan.report()).toBe('');
    expect(scan.checked.percent).toBeGreaterThan(150);
    expect(scan.checked.minus).toBeGreaterThan(40);
    expect(scan.checked.amount).toBeGreaterThan(80);
    expect(scan.checked.usd).toBeGreaterThan(200);
    expect(scan.checked.apr).toBeGreaterThan(8);
    expect(scan.checked.ratio).toBeGreaterThan(20);
    expect(scan.checked.zone).toBeGreaterThan(100);
    expect(scan.checked.clock).toBeGreaterThan(scan.checked.zone);
    expect(scan.checked.ratio).toBeGreaterThan(20);
    expect(scan.checked.column).toBeGreaterThan(3);
    expect(scan.checked.date).toBeGreaterThan(20);
    expect(scan.checked.relative).toBeGreaterThan(5);
    expect(scan.checked.address).toBeGreaterThan(0);
    expect(scan.checked.price).toBeGreaterThan(10);
    expect(scan.checked.money).toBeGreaterThan(20);
  });
});
