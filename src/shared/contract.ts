import * as v from 'valibot';
import type {
  ActiveLoan,
  ActiveSupply,
  Candle,
  Depth,
  Holder,
  KioskNftsPage,
  Liquidation,
  MarginManager,
  NftObject,
  Page,
  Pool,
  SupplierCap,
  SupplyReferral,
  Trade,
} from './api';
import { TIMEFRAME_SECONDS, TIMEFRAMES } from './api';
// Argument building blocks and the checks before them (bounds, addresses, URLs, fields, nesting).
import {
  Address,
  CANDLES_MAX_PERIODS,
  Checkpoint,
  Fields,
  HttpUrl,
  malformed,
  ManagerId,
  Name,
  NOT_FUTURE,
  notFuture,
  OptId,
  ORDERED,
  ordered,
} from './arguments';
import { PageArg, PerPageArg, PoolName, Ratio, TOO_LONG, TRADES_MAX_SPAN_SEC, UnixMs, UnixSeconds } from './arguments';
import type { DemoOwnerHint, ManagerDetail, PortfolioSummary } from './portfolio';
import type { LiquidationMapView } from './liquidation-map';
import type { PoolHealthView } from './pool-health';
import type { PositionLevel } from './risk-model';
import type { GroupRule, Settings } from './settings';
import type { CreditForecast, StatusSnapshot } from './status';
import { isTimeZone } from './zones';

export { CANDLES_MAX_PERIODS, FIELDS_MAX_DEPTH, FIELDS_MAX_KEYS, TRADES_MAX_SPAN_SEC } from './arguments';
export type {
  DemoOwnerHint,
  ManagerDetail,
  PortfolioSummary,
  PositionInterest,
  PositionPnl,
  PositionSummary,
  RepairPlan,
  RiskParams,
  SupplySummary,
  ListedPrice,
  UsdPrice,
  WalletSummary,
} from './portfolio';
export type { LiquidationMapView } from './liquidation-map';
export type { PoolHealth, PoolHealthPoint, PoolHealthView } from './pool-health';
export { withoutKeyFacts, type GroupRule, type KeyFacts, type Settings, type SettingsPatch } from './settings';
export type {
  CreditForecast,
  CreditUsage,
  ForecastPreview,
  HistoryGap,
  ReadPlan,
  StatusSnapshot,
  StreamState,
  StreamStatus,
  UnreachedChannel,
} from './status';

/**
 * TidewatchApi: the one interface between the renderer and main, served over Electron IPC by
 * the desktop shell and over HTTP + SSE by the web shell. Arguments are validated where they
 * enter main with `CONTRACT_ARGS`; the renderer is untrusted.
 */

export type Source = 'network' | 'cache';

/** Every query says how fresh its data is, so every view can say so too and still render offline. */
export interface QueryResult<T> {
  data: T;
  source: Source;
  /** When the data was fetched from the network (ms). */
  fetchedAt: number;
  /** True when the network failed and this is the cached copy. */
  stale: boolean;
  /** Why the network copy could not be had, when stale. */
  error?: ContractError;
  /** Some items may be missing: a range needed more requests than one call may make, or a second held more than one answer. */
  truncated?: boolean;
}

/** What the contract needs of an AbortSignal (src/shared is built without DOM or Node types). */
export interface CancelSignal {
  readonly aborted: boolean;
  addEventListener(type: 'abort', listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: 'abort', listener: () => void): void;
}

/** Options of one call: `signal` cancels it (the view that asked is gone or asked again). */
export interface InvokeOptions {
  signal?: CancelSignal;
}

export interface ContractError {
  kind: string;
  message: string;
  advice: string;
}

/**
 * A margin event as Live events and a manager's page show it (`marginEvents`): what they read and
 * no more, about half the bytes of the stored event. `data` keeps only the fields the row's text
 * reads beside the amounts (ROW_DATA_FIELDS); `problem` comes with an invalid event only. Every
 * column of the stored events is `marginEventsByIds` (the CSV export).
 */
export interface MarginEventRow {
  id: string;
  type: string;
  timestamp_ms: number | null;
  margin_manager_id: string | null;
  /** Of the event's fields, only ROW_DATA_FIELDS. */
  data?: unknown;
  valid: boolean;
  problem?: string | null;
  /** Fetched over REST for a span the stream could not replay (its id is `rest-<tx>-<manager>`). */
  recovered?: boolean;
  /** Its amounts with their units, when main knows them (views format them; raw values stay in `data`). */
  amounts?: EventAmount[];
  /** The manager belongs to a watched wallet: the user's own amounts, masked in privacy mode. */
  own?: boolean;
}

/** The fields of an event's `data` a row keeps: a created manager's owner, a liquidation's risk ratio. */
export const ROW_DATA_FIELDS = ['owner', 'risk_ratio'] as const;

/** A margin event as stored: every field the stream sent, as received. */
export interface StoredMarginEvent extends MarginEventRow {
  checkpoint_id: number | null;
  tx_hash: string | null;
  data: unknown;
  problem: string | null;
  received_at: number;
  /**
   * Pushed again now that its units are known (it was shown without them): a view replaces the row
   * it shows and adds none, since the event may be older than what it keeps.
   */
  replaces?: true;
}

/** One amount of an event: `raw` in the asset's smallest unit, shown as raw / 10^decimals with the symbol. */
export interface EventAmount {
  /** '' for the plain amount of a deposit or withdrawal, 'repaid' or 'left' for a liquidation. */
  label: string;
  raw: string;
  decimals: number;
  symbol: string;
}

export interface RiskReading {
  manager_id: string;
  owner: string;
  ts_ms: number;
  risk_ratio: number | null;
  debt_usd: number | null;
  assets_usd: number | null;
  /** Percentage move of the base asset's price that brings the ratio to the liquidation threshold. */
  distance_pct: number | null;
  /**
   * The position at that valuation, as its Portfolio row showed it: its pool, side and size (base
   * units, negative: short), the base price (USD), its break-even and liquidation prices (USD) and
   * the level every view showed. Absent (null) in readings kept before Tidewatch stored them.
   */
  pool?: string | null;
  side?: 'long' | 'short' | null;
  size?: number | null;
  base_symbol?: string | null;
  quote_symbol?: string | null;
  price_usd?: number | null;
  break_even_price?: number | null;
  liquidation_price?: number | null;
  level?: PositionLevel | null;
}

export type AlertLevel = 'info' | 'warning' | 'critical';

export interface AlertRecord {
  id: number;
  rule:
    | 'risk-threshold'
    | 'recovered'
    | 'liquidation'
    | 'large-liquidation'
    | 'stream-auth'
    | 'store-write'
    | 'history-gap'
    | 'credit-budget'
    | 'interest'
    | 'rate'
    | 'blind'
    | 'channel'
    | 'digest';
  level: AlertLevel;
  manager_id: string | null;
  owner: string | null;
  event_id: string | null;
  title: string;
  message: string;
  created_at: number;
  acknowledged_at: number | null;
  snoozed_until: number | null;
  /** Where it was sent away from the desk, oldest first (the `alerts` query; absent in pushes). */
  deliveries?: DeliveryEntry[];
}

/** A channel alerts are sent on, as Settings shows it: secrets only as set or not. */
export interface NotifyChannelView {
  name: string;
  type: 'ntfy' | 'telegram' | 'discord' | 'slack' | 'email' | 'webhook' | 'desktop';
  /** `file`: from `serve --notify-config` (read only here); `settings`: saved in Settings. */
  source: 'file' | 'settings';
  minLevel: AlertLevel;
  rules: Array<AlertRecord['rule']> | null;
  /**
   * On the clock of `zone` (an IANA name): the zone they were set in, else the monitor's machine's,
   * the one they are applied on either way (docs/notify.md#quiet-hours).
   */
  quietHours: { from: string; to: string; zone: string } | null;
  hideAmounts: boolean;
  minIntervalSec: number | null;
  /** Where its waiting alerts go when it has not been reached for `afterMin` minutes, or null. */
  fallback: { channel: string; afterMin: number } | null;
  /** The fields that are not secrets, by path ("chatId", "smtp.host", "to"). */
  fields: Record<string, string | number | boolean | string[] | null>;
  /** Each secret field ("url", "botToken", "smtp.password"): whether it is set. Never the value. */
  secrets: Record<string, boolean>;
  /** How sending goes: messages waiting, the last one taken, and the failure since then if any. */
  status: ChannelStatus;
}

export interface ChannelStatus {
  /** Alerts (and repeats) waiting to be sent on it. */
  pending: number;
  lastSentAt: number | null;
  /**
   * Its latest attempt failed (after `lastSentAt`): since when (the first failure since a message
   * went out), the latest failure, and why in plain words.
   */
  failing: { since: number; at: number; detail: string } | null;
}

export interface NotifyView {
  channels: NotifyChannelView[];
  escalateEveryMin: number;
  blindAfterMin: number;
  /** Whether a heartbeat URL is set (it is a secret: whoever has it can fake the heartbeat). */
  heartbeatSet: boolean;
  heartbeatEveryMin: number;
  linkBase: string | null;
  /** The notify config file's name when one was given on the command line. */
  file: string | null;
  /** Messages waiting to be sent (retries, quiet hours). */
  pending: number;
}

export interface NotifyTestResult {
  channel: string;
  type: NotifyChannelView['type'];
  ok: boolean;
  /** What happened, in plain words (never a URL or a secret). */
  message: string;
  ms: number;
}

/** One attempt to send an alert on a channel: the Alerts page's delivery log. */
export interface DeliveryEntry {
  channel: string;
  /** 0: the alert; 1…: the escalation's repeats. */
  repeat: number;
  at: number;
  /**
   * `queued`: waiting for its channel (its minimum interval, a backoff), not tried yet; `at` is when
   * it is due. `undelivered`: still waiting on a channel not reached for a minute or more (`at`:
   * now). `rerouted`: its channel failed long enough and it went to the channel's fallback too;
   * `fallback`: on the fallback, carried for that channel.
   */
  result: 'sent' | 'failed' | 'held' | 'dropped' | 'queued' | 'undelivered' | 'rerouted' | 'fallback';
  /** Why it failed or waits, in plain words (never a URL or a secret). */
  detail: string | null;
}

/**
 * The groups a watched wallet is in, one each: `mine`, the trader's own wallets (alerted as
 * always), and `watched`, others' (whales, funds), whose alerts follow their group's rule
 * (Settings `groupRules`: by default info and the digest only).
 */
export const WATCH_GROUPS = ['mine', 'watched'] as const;
/** A group's rule (settings.ts GroupRule). */
export const GROUP_RULES = ['alert', 'info'] as const satisfies readonly GroupRule[];
export type WatchGroup = (typeof WATCH_GROUPS)[number];

export interface WatchEntry {
  owner: string;
  label: string | null;
  /** `mine` unless set: every wallet watched before groups existed is the trader's own. */
  group: WatchGroup;
  added_at: number;
}

export interface Thresholds {
  warning: number;
  critical: number;
}

export interface PoolPush {
  pool: string;
  trades: Trade[];
  depth: Depth | null;
}

export interface RiskPush {
  readings: RiskReading[];
  /** The Portfolio after this refresh. */
  portfolio?: PortfolioSummary;
}

export type Topic = 'status' | 'margin' | 'alerts' | 'risk' | `pool:${string}`;

export interface TopicPayload {
  status: StatusSnapshot;
  margin: StoredMarginEvent[];
  alerts: AlertRecord[];
  risk: RiskPush;
  pool: PoolPush;
}

export type PayloadOf<T extends Topic> = T extends `pool:${string}`
  ? TopicPayload['pool']
  : T extends keyof TopicPayload
    ? TopicPayload[T]
    : never;

// ---- arguments, validated where they enter main -------------------------------------------

export const CONTRACT_ARGS = {
  walletNfts: v.object({ owner: Address, page: PageArg, perPage: PerPageArg, collections: v.optional(v.array(Name)) }),
  kiosk: v.object({ kioskId: Address, page: PageArg, perPage: PerPageArg, collections: v.optional(v.array(Name)) }),
  collection: v.object({ type: Name, page: PageArg, perPage: PerPageArg, fields: v.optional(Fields) }),
  holders: v.object({ type: Name, page: PageArg, perPage: PerPageArg }),
  pools: v.object({}),
  depth: v.object({
    pool: PoolName,
    limit: v.optional(v.pipe(v.number(), v.finite(), v.integer(), v.minValue(1), v.maxValue(20))),
  }),
  trades: v.pipe(
    v.object({ pool: PoolName, from: UnixSeconds, to: UnixSeconds }),
    v.check((a) => ordered(a), ORDERED),
    v.check((a) => notFuture(a), NOT_FUTURE),
    v.check((a) => a.to - a.from <= TRADES_MAX_SPAN_SEC, TOO_LONG),
  ),
  candles: v.pipe(
    v.object({ pool: PoolName, timeframe: v.picklist(TIMEFRAMES), from: UnixSeconds, to: UnixSeconds }),
    v.check((a) => ordered(a), ORDERED),
    v.check((a) => notFuture(a), NOT_FUTURE),
    v.check((a) => a.to - a.from <= TIMEFRAME_SECONDS[a.timeframe] * CANDLES_MAX_PERIODS, TOO_LONG),
  ),
  supplyReferral: v.object({ id: Address }),
  supplyReferrals: v.object({ owner: v.optional(Address), marginPoolId: OptId, page: PageArg, perPage: PerPageArg }),
  supplierCap: v.object({ id: Address }),
  nft: v.object({ objectId: Address }),
  supplierCaps: v.object({ owner: v.optional(Address), page: PageArg, perPage: PerPageArg }),
  marginManagers: v.object({
    owner: v.optional(Address),
    balanceManagerId: OptId,
    dexPoolId: OptId,
    page: PageArg,
    perPage: PerPageArg,
  }),
  liquidations: v.object({
    owner: v.optional(Address),
    marginManagerId: OptId,
    marginPoolId: OptId,
    balanceManagerId: OptId,
    fromCheckpoint: v.optional(Checkpoint),
    toCheckpoint: v.optional(Checkpoint),
    page: PageArg,
    perPage: PerPageArg,
  }),
  activeSupplies: v.object({
    owner: v.optional(Address),
    marginPoolId: OptId,
    supplierCapId: OptId,
    assetType: OptId,
    page: PageArg,
    perPage: PerPageArg,
  }),
  activeLoans: v.object({
    owner: v.optional(Address),
    marginManagerId: OptId,
    marginPoolId: OptId,
    balanceManagerId: OptId,
    page: PageArg,
    perPage: PerPageArg,
  }),
  marginEvents: v.object({
    type: v.optional(Name),
    managerId: OptId,
    owner: v.optional(Address),
    fromMs: v.optional(UnixMs),
    toMs: v.optional(UnixMs),
    /** Page backwards: events strictly older than this id. */
    beforeId: OptId,
    limit: v.optional(v.pipe(v.number(), v.finite(), v.integer(), v.minValue(1), v.maxValue(1000))),
  }),
  /** Every column of these stored events, in the order asked (ids not stored are left out). */
  marginEventsByIds: v.object({ ids: v.pipe(v.array(Name), v.minLength(1), v.maxLength(1000)) }),
  riskHistory: v.object({ managerId: Name, fromMs: v.optional(UnixMs), toMs: v.optional(UnixMs) }),
  poolHealth: v.object({ fromMs: v.optional(UnixMs) }),
  /** A pool's liquidation map: every active manager's liquidation price there, in buckets and clusters. */
  liquidationMap: v.object({ pool: PoolName }),
  /** Every watched wallet in money, riskiest first: one call for what the Portfolio shows first. */
  portfolio: v.object({}),
  manager: v.object({ managerId: Address }),
  alerts: v.object({
    includeAcknowledged: v.optional(v.boolean()),
    limit: v.optional(v.pipe(v.number(), v.finite(), v.integer(), v.minValue(1), v.maxValue(1000))),
  }),
  settings: v.object({}),
  streamStatus: v.object({}),
  /**
   * Credits a day at the current settings, and where they go; with `preview`, at those settings
   * instead, without saving them (a plan picked in Settings, before Save).
   */
  creditForecast: v.object({
    preview: v.optional(
      v.object({
        plan: v.optional(v.picklist(['free', 'builder', 'scale', 'pro', 'custom'])),
        monthlyCreditBudget: v.optional(
          v.nullable(v.pipe(v.number(), v.finite(), v.integer(), v.minValue(1), v.maxValue(1e12))),
        ),
        recordsRefreshSec: v.optional(v.pipe(v.number(), v.finite(), v.integer(), v.minValue(60), v.maxValue(86_400))),
      }),
    ),
  }),
  watchList: v.object({}),
  thresholds: v.object({}),
  updateSettings: v.object({
    network: v.optional(v.picklist(['demo', 'custom'])),
    // Empty means "not set" (the Demo network needs none; the stream URL defaults to the base URL).
    baseUrl: v.optional(v.union([v.literal(''), HttpUrl('baseUrl')], 'baseUrl must be an http(s) URL')),
    streamUrl: v.optional(v.union([v.literal(''), HttpUrl('streamUrl')], 'streamUrl must be an http(s) URL')),
    naming: v.optional(v.picklist(['spec', 'deepbook'])),
    requestsPerSecond: v.optional(v.pipe(v.number(), v.finite(), v.minValue(0.1), v.maxValue(1000))),
    concurrency: v.optional(v.pipe(v.number(), v.finite(), v.integer(), v.minValue(1), v.maxValue(64))),
    streamBudget: v.optional(v.pipe(v.number(), v.finite(), v.integer(), v.minValue(1), v.maxValue(100))),
    plan: v.optional(v.picklist(['free', 'builder', 'scale', 'pro', 'custom'])),
    recordsRefreshSec: v.optional(v.pipe(v.number(), v.finite(), v.integer(), v.minValue(60), v.maxValue(86_400))),
    warningRatio: v.optional(Ratio),
    criticalRatio: v.optional(Ratio),
    nearLiquidationPct: v.optional(v.nullable(v.pipe(v.number(), v.finite(), v.minValue(0.1), v.maxValue(50)))),
    interestAlertDays: v.optional(
      v.nullable(v.pipe(v.number(), v.finite(), v.integer(), v.minValue(1), v.maxValue(365))),
    ),
    rateAlertPct: v.optional(v.nullable(v.pipe(v.number(), v.finite(), v.minValue(1), v.maxValue(1000)))),
    dustDebtUsd: v.optional(v.nullable(v.pipe(v.number(), v.finite(), v.minValue(0), v.maxValue(1e9)))),
    alertCooldownSec: v.optional(v.pipe(v.number(), v.finite(), v.integer(), v.minValue(0), v.maxValue(86_400))),
    groupRules: v.optional(v.object({ mine: v.picklist(GROUP_RULES), watched: v.picklist(GROUP_RULES) })),
    digestAt: v.optional(
      v.nullable(v.pipe(v.string(), v.regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'digestAt must be a time like 08:00'))),
    ),
    digestZone: v.optional(
      v.nullable(
        v.pipe(
          v.string(),
          v.maxLength(60),
          v.check(isTimeZone, 'digestZone must be a time zone such as America/New_York'),
        ),
      ),
    ),
    digestChannels: v.optional(v.pipe(v.array(v.pipe(v.string(), v.minLength(1), v.maxLength(60))), v.maxLength(20))),
    largeLiquidationUsd: v.optional(v.nullable(v.pipe(v.number(), v.finite(), v.minValue(0), v.maxValue(1e12)))),
    monthlyCreditBudget: v.optional(
      v.nullable(v.pipe(v.number(), v.finite(), v.integer(), v.minValue(1), v.maxValue(1e12))),
    ),
    ipfsGateway: v.optional(HttpUrl('ipfsGateway')),
    privacyMode: v.optional(v.boolean()),
    alertSound: v.optional(v.boolean()),
    startAtLogin: v.optional(v.boolean()),
  }),
  setApiKey: v.object({ apiKey: v.nullable(v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(512))) }),
  /** The stream key (`pool` null) or one pool's own; `streamKey` null removes it. */
  setStreamKey: v.object({
    pool: v.nullable(PoolName),
    streamKey: v.nullable(
      v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(512), v.regex(/^\S+$/, 'the key alone, without spaces')),
    ),
  }),
  addWatch: v.object({
    owner: Address,
    label: v.optional(v.pipe(v.string(), v.maxLength(100))),
    group: v.optional(v.picklist(WATCH_GROUPS)),
  }),
  /** Label a watched wallet (null or empty: no label) or move it to another group. */
  updateWatch: v.object({
    owner: Address,
    label: v.optional(v.nullable(v.pipe(v.string(), v.trim(), v.maxLength(100)))),
    group: v.optional(v.picklist(WATCH_GROUPS)),
  }),
  removeWatch: v.object({ owner: Address }),
  /** Refused too for a manager of no watched wallet (watch-commands.ts): nothing is saved then. */
  setThreshold: v.pipe(
    v.object({ managerId: ManagerId, warning: Ratio, critical: Ratio }),
    v.check((a) => a.warning > a.critical, 'the warning ratio must be above the critical ratio'),
  ),
  /** Any stored id, so thresholds saved before ids were checked can still be removed. */
  clearThreshold: v.object({ managerId: Name }),
  acknowledgeAlert: v.object({ id: v.pipe(v.number(), v.finite(), v.integer(), v.minValue(1)) }),
  snoozeAlert: v.object({ id: v.pipe(v.number(), v.finite(), v.integer(), v.minValue(1)), untilMs: UnixMs }),
  acknowledgeAllAlerts: v.object({}),
  /** The channels alerts are sent on, secrets only as set or not. */
  notifyChannels: v.object({}),
  /** Add or change a channel saved in Settings (the notify config's shape); a secret left out keeps its saved value. */
  saveNotifyChannel: v.object({
    channel: v.record(v.string(), v.unknown()),
    replaces: v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(60))),
  }),
  removeNotifyChannel: v.object({ name: v.pipe(v.string(), v.minLength(1), v.maxLength(60)) }),
  updateNotifyOptions: v.object({
    escalateEveryMin: v.optional(v.pipe(v.number(), v.finite(), v.minValue(0), v.maxValue(1440))),
    blindAfterMin: v.optional(v.pipe(v.number(), v.finite(), v.minValue(0.5), v.maxValue(1440))),
    heartbeatUrl: v.optional(v.nullable(HttpUrl('heartbeatUrl'))),
    heartbeatEveryMin: v.optional(v.pipe(v.number(), v.finite(), v.minValue(0.5), v.maxValue(1440))),
    linkBase: v.optional(v.nullable(HttpUrl('linkBase'))),
  }),
  /** Send a test message on every channel, or on one; each result in plain words. */
  notifyTest: v.object({ channel: v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(60))) }),
  /** Reconnect every stream now: after a rejected key, or to skip a backoff wait. */
  retryStreams: v.object({}),
  /** Owners to try on the Demo network (empty elsewhere: a real service has no such list). */
  demoHints: v.object({}),
} as const;

export type ContractMethod = keyof typeof CONTRACT_ARGS;
export type ArgsOf<M extends ContractMethod> = v.InferOutput<(typeof CONTRACT_ARGS)[M]>;

/** What each method answers. */
export interface ContractResults {
  walletNfts: QueryResult<Page<NftObject>>;
  kiosk: QueryResult<KioskNftsPage>;
  collection: QueryResult<Page<NftObject>>;
  holders: QueryResult<Page<Holder>>;
  pools: QueryResult<Pool[]>;
  depth: QueryResult<Depth>;
  trades: QueryResult<Trade[]>;
  candles: QueryResult<Candle[]>;
  supplyReferral: QueryResult<SupplyReferral>;
  supplyReferrals: QueryResult<Page<SupplyReferral>>;
  supplierCap: QueryResult<SupplierCap>;
  nft: QueryResult<NftObject>;
  supplierCaps: QueryResult<Page<SupplierCap>>;
  marginManagers: QueryResult<Page<MarginManager>>;
  liquidations: QueryResult<Page<Liquidation>>;
  activeSupplies: QueryResult<Page<ActiveSupply>>;
  activeLoans: QueryResult<Page<ActiveLoan>>;
  marginEvents: QueryResult<MarginEventRow[]>;
  marginEventsByIds: QueryResult<StoredMarginEvent[]>;
  riskHistory: QueryResult<RiskReading[]>;
  poolHealth: QueryResult<PoolHealthView>;
  liquidationMap: QueryResult<LiquidationMapView>;
  portfolio: QueryResult<PortfolioSummary>;
  manager: QueryResult<ManagerDetail>;
  alerts: QueryResult<AlertRecord[]>;
  settings: Settings;
  streamStatus: StatusSnapshot;
  creditForecast: CreditForecast;
  watchList: WatchEntry[];
  thresholds: { defaults: Thresholds; perManager: Record<string, Thresholds> };
  updateSettings: Settings;
  setApiKey: Settings;
  setStreamKey: Settings;
  addWatch: WatchEntry[];
  updateWatch: WatchEntry[];
  removeWatch: WatchEntry[];
  setThreshold: { defaults: Thresholds; perManager: Record<string, Thresholds> };
  clearThreshold: { defaults: Thresholds; perManager: Record<string, Thresholds> };
  acknowledgeAlert: AlertRecord;
  snoozeAlert: AlertRecord;
  acknowledgeAllAlerts: { acknowledged: number };
  notifyChannels: NotifyView;
  saveNotifyChannel: NotifyView;
  removeNotifyChannel: NotifyView;
  updateNotifyOptions: NotifyView;
  notifyTest: { results: NotifyTestResult[] };
  retryStreams: StatusSnapshot;
  demoHints: { owners: DemoOwnerHint[] };
}

export type ContractInput<M extends ContractMethod> = v.InferInput<(typeof CONTRACT_ARGS)[M]>;

/** The contract as both shells and the renderer see it: one invoke, one subscribe. */
export interface TidewatchApi {
  invoke<M extends ContractMethod>(
    method: M,
    args: ContractInput<M>,
    options?: InvokeOptions,
  ): Promise<ContractResults[M]>;
  subscribe<T extends Topic>(topic: T, listener: (payload: PayloadOf<T>) => void): () => void;
}

export const CONTRACT_METHODS = Object.keys(CONTRACT_ARGS) as ContractMethod[];

/** A bad argument, with the path of the field at fault. */
export class ContractArgumentError extends Error {
  override readonly name = 'ContractArgumentError';

  /** `advice`: what to do, where it is more than correcting the argument. */
  constructor(
    message: string,
    readonly advice?: string,
  ) {
    super(message);
  }

  /** As the page is told it (a ToldError of shared/wire.ts). */
  toWire(): { kind: 'bad-argument'; message: string; advice?: string } {
    return this.advice === undefined
      ? { kind: 'bad-argument', message: this.message }
      : { kind: 'bad-argument', message: this.message, advice: this.advice };
  }
}

export function isContractMethod(name: string): name is ContractMethod {
  return Object.prototype.hasOwnProperty.call(CONTRACT_ARGS, name);
}

/** Validate `args` for `method`; throws ContractArgumentError naming the field. */
export function parseArgs<M extends ContractMethod>(method: M, args: unknown): ArgsOf<M> {
  const bad = malformed(args);
  if (bad) throw new ContractArgumentError(`${method}: ${bad.path ? `${bad.path}: ` : ''}${bad.problem}`);
  const r = v.safeParse(CONTRACT_ARGS[method], args ?? {});
  if (!r.success) {
    const issue = r.issues[0];
    const path = v.getDotPath(issue);
    throw new ContractArgumentError(`${method}: ${path ? `${path}: ` : ''}${issue.message}`);
  }
  return r.output as ArgsOf<M>;
}

export function isTopic(name: string): name is Topic {
  return (
    name === 'status' ||
    name === 'margin' ||
    name === 'alerts' ||
    name === 'risk' ||
    /^pool:[A-Za-z0-9_]{1,64}$/.test(name)
  );
}
