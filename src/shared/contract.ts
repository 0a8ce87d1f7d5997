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

export interface Settings {
  /** `demo`: the built-in Demo network; `custom`: baseUrl + streamUrl + API key. */
  network: 'demo' | 'custom';
  baseUrl: string;
  streamUrl: string;
  naming: 'spec' | 'deepbook';
  requestsPerSecond: number;
  concurrency: number;
  /** Streams open at once (the service's plans limit it). */
  streamBudget: number;
  riskRefreshSec: number;
  warningRatio: number;
  criticalRatio: number;
  alertCooldownSec: number;
  /** Protocol-wide large-liquidation alert above this USD amount; null: off. */
  largeLiquidationUsd: number | null;
  ipfsGateway: string;
  privacyMode: boolean;
  startAtLogin: boolean;
  /** Read only: whether an API key is stored. The key itself never leaves main. */
  readonly hasApiKey: boolean;
  /**
   * Read only: how the key is kept at rest. `os-keyring`: encrypted with the OS key store;
   * `plain-text`: encrypted with a fixed key (Linux without a keyring: safeStorage's basic_text);
   * `memory`: given for this run only, never written.
   */
  readonly keyProtection: 'os-keyring' | 'plain-text' | 'memory';
}

export type SettingsPatch = Partial<Omit<Settings, 'hasApiKey' | 'keyProtection'>>;

/**
 * `stopped-auth`: the key was rejected (retried every few minutes, and at once when a key is set);
 * `stopped-store`: the store refused a write (disk full): reconnects once it accepts writes again.
 */
export type StreamState = 'idle' | 'connecting' | 'open' | 'backoff' | 'stopped-auth' | 'stopped-store' | 'waiting-budget' | 'stopped';

export interface StreamStatus {
  /** `margin` or `pool:<name>`. */
  id: string;
  state: StreamState;
  lastEventAt: number | null;
  lastByteAt: number | null;
  nextTryAt: number | null;
  reconnects: number;
  events: number;
  lastError: string | null;
}

export interface StatusSnapshot {
  network: 'demo' | 'custom';
  online: boolean;
  /** Since when the service has been unreachable (ms), or null. */
  offlineSince: number | null;
  streams: StreamStatus[];
  /** A store that could not be opened was moved aside: tell the user once. */
  storeNotice: string | null;
  /** The store refuses writes ("cannot write to the store: disk full"); null when it accepts them. */
  storeError: string | null;
  /** Spans of stream #22 history the service could no longer replay, newest first (at most 5). */
  historyGaps: HistoryGap[];
  /** An unexpected internal error that was caught and survived, the latest one. */
  internalError: { at: number; message: string } | null;
}

export interface HistoryGap {
  /** The stream was last known to be complete at this time (ms). */
  fromMs: number;
  /** The stream was back at this time (ms). */
  toMs: number;
  /** Liquidations fetched over REST for this span because the stream could not replay them. */
  recoveredLiquidations: number;
  /** Plain words for the status bar and the Live events view. */
  message: string;
}

export interface StoredMarginEvent {
  id: string;
  type: string;
  timestamp_ms: number | null;
  checkpoint_id: number | null;
  tx_hash: string | null;
  margin_manager_id: string | null;
  data: unknown;
  valid: boolean;
  problem: string | null;
  received_at: number;
  /** Fetched over REST for a span the stream could not replay (its id is `rest-<tx>-<manager>`). */
  recovered?: boolean;
  /** Its amounts with their units, when main knows them (views format them; raw values stay in `data`). */
  amounts?: EventAmount[];
  /** The manager belongs to a watched wallet: the user's own amounts, masked in privacy mode. */
  own?: boolean;
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
}

/**
 * An asset's price in USD and where it came from (README "Pricing"): a stablecoin is $1; any
 * other asset takes the fresher of the oracle price recorded with a margin deposit and the
 * exchange's mid price through a stablecoin pool (SUI from SUI_USDC). `at` is when the price
 * was true (the deposit's time, or when the mid price was read).
 */
export interface UsdPrice {
  symbol: string;
  usd: number;
  source: 'stablecoin' | 'oracle' | 'exchange';
  at: number;
}

/** A margin manager's position in money: what it holds, what it owes, and the price that liquidates it. */
export interface PositionSummary {
  manager_id: string;
  owner: string;
  /** The exchange pool the manager trades (null when the pool is not known). */
  pool_name: string | null;
  base_symbol: string | null;
  quote_symbol: string | null;
  /** What the manager holds, in human units. */
  base_amount: number;
  quote_amount: number;
  /** Its debts, one per loan, in human units of the borrowed asset. */
  debts: Array<{ margin_pool_id: string; symbol: string; amount: number; usd: number | null }>;
  /** Assets held (collateral and borrowed funds), debt, and their difference, in USD. */
  collateral_usd: number | null;
  debt_usd: number | null;
  equity_usd: number | null;
  /** Assets / equity: 1 without debt; null when equity is not positive. */
  leverage: number | null;
  /** The service's risk ratio (assets / debt) of the riskiest loan; null without debt. */
  risk_ratio: number | null;
  /** Below this ratio the position is liquidated. */
  liquidation_ratio: number;
  /** The asset whose price moves the ratio (the pool's base asset), and its price now. */
  moving_symbol: string | null;
  price: UsdPrice | null;
  /** The moving asset's USD price at which the ratio reaches `liquidation_ratio`. */
  liquidation_price: number | null;
  /** The move from `price` to `liquidation_price`, in percent (negative: a fall liquidates). */
  distance_pct: number | null;
  /** When the position last changed on chain (ms). */
  updated_ms: number | null;
}

export interface SupplySummary {
  supplier_cap_id: string;
  margin_pool_id: string;
  symbol: string;
  amount: number;
  usd: number | null;
}

export interface WalletSummary {
  owner: string;
  label: string | null;
  /** Riskiest first (lowest distance to liquidation, then lowest ratio). */
  positions: PositionSummary[];
  supplies: SupplySummary[];
  totals: { collateral_usd: number; debt_usd: number; equity_usd: number; supplied_usd: number; unpriced: number };
  /** Set when this wallet's positions could not be read this time (the rest is from the last good read). */
  error?: string;
}

export interface PortfolioSummary {
  /** Riskiest wallet first. */
  wallets: WalletSummary[];
  /** The prices used, by symbol. */
  prices: UsdPrice[];
  computed_at: number;
}

/** One margin manager, for its page. */
export interface ManagerDetail {
  manager_id: string;
  owner: string | null;
  pool_name: string | null;
  created_at: string | null;
  /** Null when the manager is not found on the service. */
  position: PositionSummary | null;
  /** Whether its owner is on the watch list (risk history is recorded only then). */
  watched: boolean;
}

/** On the Demo network: owners worth a look, with what they hold (the empty states suggest them). */
export interface DemoOwnerHint {
  owner: string;
  nfts: number;
  kiosks: number;
  managers: number;
  loans: number;
}

export type AlertLevel = 'info' | 'warning' | 'critical';

export interface AlertRecord {
  id: number;
  rule: 'risk-threshold' | 'liquidation' | 'large-liquidation' | 'stream-auth' | 'store-write' | 'history-gap';
  level: AlertLevel;
  manager_id: string | null;
  owner: string | null;
  event_id: string | null;
  title: string;
  message: string;
  created_at: number;
  acknowledged_at: number | null;
  snoozed_until: number | null;
}

export interface WatchEntry {
  owner: string;
  label: string | null;
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

export type PayloadOf<T extends Topic> = T extends `pool:${string}` ? TopicPayload['pool'] : T extends keyof TopicPayload ? TopicPayload[T] : never;

// ---- arguments, validated where they enter main -------------------------------------------

/** An address or object id: 0x and up to 64 hex digits; a short form is expanded (0x2 is 0x00…02), as the chain reads it. */
const Address = v.pipe(
  v.string(),
  v.trim(),
  v.regex(/^0x[0-9a-fA-F]{1,64}$/, 'not an address: expected 0x followed by 64 hex digits'),
  v.transform((a) => `0x${a.slice(2).toLowerCase().padStart(64, '0')}`),
);
const PageArg = v.optional(v.pipe(v.number(), v.finite(), v.integer(), v.minValue(0)));
const PerPageArg = v.optional(v.pipe(v.number(), v.finite(), v.integer(), v.minValue(1), v.maxValue(50)));
const Name = v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(200));
const OptId = v.optional(Name);
/** UNIX seconds up to the year 2286: far beyond any real time, far below 2^53. */
const UnixSeconds = v.pipe(v.number(), v.finite(), v.integer(), v.minValue(0), v.maxValue(9_999_999_999, 'expected UNIX seconds (a time before the year 2286)'));
const UnixMs = v.pipe(v.number(), v.finite(), v.integer(), v.minValue(0), v.maxValue(9_999_999_999_999, 'expected UNIX milliseconds (a time before the year 2286)'));
const Checkpoint = v.pipe(v.number(), v.finite(), v.integer(), v.minValue(0), v.maxValue(Number.MAX_SAFE_INTEGER));

/** Longest span one `trades` call covers (7 days: at most a few dozen requests of 100 trades on a busy pool). */
export const TRADES_MAX_SPAN_SEC = 7 * 86_400;
/** Longest span one `candles` call covers: 10,000 periods (100 requests of 100 candles). */
export const CANDLES_MAX_PERIODS = 10_000;
/** How far into the future a range may end (clocks differ; the service answers nothing there). */
const FUTURE_SLACK_SEC = 86_400;

type Range = { from: number; to: number };
const ORDERED = 'from must not be after to';
const NOT_FUTURE = 'to must not be more than a day in the future';
const TOO_LONG = 'the range is too long for one request; ask for a shorter one';
const ordered = (a: Range): boolean => a.from <= a.to;
const notFuture = (a: Range): boolean => a.to <= Date.now() / 1000 + FUTURE_SLACK_SEC;
const Ratio = v.pipe(v.number(), v.finite(), v.minValue(1), v.maxValue(1000));

/** An http(s) URL of at most 2,000 characters: no `javascript:`, `file:` or `data:` service. */
const HttpUrl = (name: string) =>
  v.pipe(
    v.string(),
    v.maxLength(2000, `${name} is too long`),
    v.url(`${name} must be an http(s) URL`),
    v.check((u) => /^https?:\/\/[^/]/i.test(u), `${name} must be an http(s) URL`),
  );

/** Most keys a `fields` filter may have, and how deep it may nest (the service matches flat paths). */
export const FIELDS_MAX_KEYS = 50;
export const FIELDS_MAX_DEPTH = 4;
const Fields = v.pipe(
  v.record(v.pipe(v.string(), v.maxLength(200)), v.unknown()),
  v.check((f) => Object.keys(f).length <= FIELDS_MAX_KEYS, `fields may have at most ${FIELDS_MAX_KEYS} keys`),
  v.check((f) => depthOf(f) <= FIELDS_MAX_DEPTH, `fields may nest at most ${FIELDS_MAX_DEPTH} levels`),
  v.check((f) => JSON.stringify(f).length <= 8_192, 'fields is larger than 8 KB'),
);

export const CONTRACT_ARGS = {
  walletNfts: v.object({ owner: Address, page: PageArg, perPage: PerPageArg, collections: v.optional(v.array(Name)) }),
  kiosk: v.object({ kioskId: Address, page: PageArg, perPage: PerPageArg, collections: v.optional(v.array(Name)) }),
  collection: v.object({ type: Name, page: PageArg, perPage: PerPageArg, fields: v.optional(Fields) }),
  holders: v.object({ type: Name, page: PageArg, perPage: PerPageArg }),
  pools: v.object({}),
  depth: v.object({ pool: Name, limit: v.optional(v.pipe(v.number(), v.finite(), v.integer(), v.minValue(1), v.maxValue(20))) }),
  trades: v.pipe(
    v.object({ pool: Name, from: UnixSeconds, to: UnixSeconds }),
    v.check((a) => ordered(a), ORDERED),
    v.check((a) => notFuture(a), NOT_FUTURE),
    v.check((a) => a.to - a.from <= TRADES_MAX_SPAN_SEC, TOO_LONG),
  ),
  candles: v.pipe(
    v.object({ pool: Name, timeframe: v.picklist(TIMEFRAMES), from: UnixSeconds, to: UnixSeconds }),
    v.check((a) => ordered(a), ORDERED),
    v.check((a) => notFuture(a), NOT_FUTURE),
    v.check((a) => a.to - a.from <= TIMEFRAME_SECONDS[a.timeframe] * CANDLES_MAX_PERIODS, TOO_LONG),
  ),
  supplyReferral: v.object({ id: Address }),
  supplyReferrals: v.object({ owner: v.optional(Address), marginPoolId: OptId, page: PageArg, perPage: PerPageArg }),
  supplierCap: v.object({ id: Address }),
  supplierCaps: v.object({ owner: v.optional(Address), page: PageArg, perPage: PerPageArg }),
  marginManagers: v.object({ owner: v.optional(Address), balanceManagerId: OptId, dexPoolId: OptId, page: PageArg, perPage: PerPageArg }),
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
  activeSupplies: v.object({ owner: v.optional(Address), marginPoolId: OptId, supplierCapId: OptId, assetType: OptId, page: PageArg, perPage: PerPageArg }),
  activeLoans: v.object({ owner: v.optional(Address), marginManagerId: OptId, marginPoolId: OptId, balanceManagerId: OptId, page: PageArg, perPage: PerPageArg }),
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
  riskHistory: v.object({ managerId: Name, fromMs: v.optional(UnixMs), toMs: v.optional(UnixMs) }),
  /** Every watched wallet in money, riskiest first: one call for what the Portfolio shows first. */
  portfolio: v.object({}),
  manager: v.object({ managerId: Address }),
  alerts: v.object({ includeAcknowledged: v.optional(v.boolean()), limit: v.optional(v.pipe(v.number(), v.finite(), v.integer(), v.minValue(1), v.maxValue(1000))) }),
  settings: v.object({}),
  streamStatus: v.object({}),
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
    riskRefreshSec: v.optional(v.pipe(v.number(), v.finite(), v.integer(), v.minValue(5), v.maxValue(3600))),
    warningRatio: v.optional(Ratio),
    criticalRatio: v.optional(Ratio),
    alertCooldownSec: v.optional(v.pipe(v.number(), v.finite(), v.integer(), v.minValue(0), v.maxValue(86_400))),
    largeLiquidationUsd: v.optional(v.nullable(v.pipe(v.number(), v.finite(), v.minValue(0), v.maxValue(1e12)))),
    ipfsGateway: v.optional(HttpUrl('ipfsGateway')),
    privacyMode: v.optional(v.boolean()),
    startAtLogin: v.optional(v.boolean()),
  }),
  setApiKey: v.object({ apiKey: v.nullable(v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(512))) }),
  addWatch: v.object({ owner: Address, label: v.optional(v.pipe(v.string(), v.maxLength(100))) }),
  removeWatch: v.object({ owner: Address }),
  setThreshold: v.pipe(
    v.object({ managerId: Name, warning: Ratio, critical: Ratio }),
    v.check((a) => a.warning > a.critical, 'the warning ratio must be above the critical ratio'),
  ),
  clearThreshold: v.object({ managerId: Name }),
  acknowledgeAlert: v.object({ id: v.pipe(v.number(), v.finite(), v.integer(), v.minValue(1)) }),
  snoozeAlert: v.object({ id: v.pipe(v.number(), v.finite(), v.integer(), v.minValue(1)), untilMs: UnixMs }),
  acknowledgeAllAlerts: v.object({}),
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
  supplierCaps: QueryResult<Page<SupplierCap>>;
  marginManagers: QueryResult<Page<MarginManager>>;
  liquidations: QueryResult<Page<Liquidation>>;
  activeSupplies: QueryResult<Page<ActiveSupply>>;
  activeLoans: QueryResult<Page<ActiveLoan>>;
  marginEvents: QueryResult<StoredMarginEvent[]>;
  riskHistory: QueryResult<RiskReading[]>;
  portfolio: QueryResult<PortfolioSummary>;
  manager: QueryResult<ManagerDetail>;
  alerts: QueryResult<AlertRecord[]>;
  settings: Settings;
  streamStatus: StatusSnapshot;
  watchList: WatchEntry[];
  thresholds: { defaults: Thresholds; perManager: Record<string, Thresholds> };
  updateSettings: Settings;
  setApiKey: Settings;
  addWatch: WatchEntry[];
  removeWatch: WatchEntry[];
  setThreshold: { defaults: Thresholds; perManager: Record<string, Thresholds> };
  clearThreshold: { defaults: Thresholds; perManager: Record<string, Thresholds> };
  acknowledgeAlert: AlertRecord;
  snoozeAlert: AlertRecord;
  acknowledgeAllAlerts: { acknowledged: number };
  retryStreams: StatusSnapshot;
  demoHints: { owners: DemoOwnerHint[] };
}

export type ContractInput<M extends ContractMethod> = v.InferInput<(typeof CONTRACT_ARGS)[M]>;

/** The contract as both shells and the renderer see it: one invoke, one subscribe. */
export interface TidewatchApi {
  invoke<M extends ContractMethod>(method: M, args: ContractInput<M>, options?: InvokeOptions): Promise<ContractResults[M]>;
  subscribe<T extends Topic>(topic: T, listener: (payload: PayloadOf<T>) => void): () => void;
}

export const CONTRACT_METHODS = Object.keys(CONTRACT_ARGS) as ContractMethod[];

/** A bad argument, with the path of the field at fault. */
export class ContractArgumentError extends Error {
  override readonly name = 'ContractArgumentError';
}

export function isContractMethod(name: string): name is ContractMethod {
  return Object.prototype.hasOwnProperty.call(CONTRACT_ARGS, name);
}

/** How deep a JSON value nests (iterative: a hostile value 100,000 levels deep is measured, not recursed into). */
function depthOf(value: unknown, limit = 64): number {
  let max = 0;
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [x, d] = stack.pop()!;
    if (typeof x !== 'object' || x === null) continue;
    if (d + 1 > max) max = d + 1;
    if (max > limit) return max;
    for (const child of Object.values(x)) stack.push([child, d + 1]);
  }
  return max;
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
/** Arguments nest this deep at most (the deepest schema, `fields`, needs 1 + 4). */
const ARGS_MAX_DEPTH = 8;

/** The path of the first string (key or value) with a lone surrogate, or of a value nested too deep. */
function malformed(args: unknown): { path: string; problem: string } | undefined {
  const stack: Array<[unknown, string, number]> = [[args, '', 0]];
  while (stack.length > 0) {
    const [x, path, d] = stack.pop()!;
    if (typeof x === 'string') {
      if (LONE_SURROGATE.test(x)) return { path, problem: 'contains a broken character (a lone UTF-16 surrogate)' };
      continue;
    }
    if (typeof x !== 'object' || x === null) continue;
    if (d >= ARGS_MAX_DEPTH) return { path, problem: 'is nested too deeply' };
    for (const [k, child] of Object.entries(x)) {
      const at = path ? `${path}.${k}` : k;
      if (LONE_SURROGATE.test(k)) return { path: at, problem: 'has a key with a broken character (a lone UTF-16 surrogate)' };
      stack.push([child, at, d + 1]);
    }
  }
  return undefined;
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
  return name === 'status' || name === 'margin' || name === 'alerts' || name === 'risk' || /^pool:[A-Za-z0-9_]{1,64}$/.test(name);
}
