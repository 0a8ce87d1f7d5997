import type { Pool } from '../../../shared/api';
import type {
  AlertRecord,
  CreditUsage,
  EventAmount,
  PortfolioSummary,
  PositionSummary,
  RiskReading,
  StoredMarginEvent,
  WatchEntry,
} from '../../../shared/contract';
import { amountsOf } from '../risk/event-amounts';
import { PORTFOLIO_CACHE_KEY } from '../risk/risk-refresh';
import type { Store } from '../store/store';

/** What the digest covers: the day before it. */
export const DIGEST_SPAN_MS = 24 * 3_600_000;
/**
 * A reading "24 h ago" is the latest at or before that moment, and no older than this before it
 * (a position read every 3 h at least, on the default plan): an older one is not said to be then.
 */
const THEN_WINDOW_MS = 12 * 3_600_000;
/** At most this many alerts are read back for a digest (a day of a busy desk is far fewer). */
const ALERTS_READ = 5_000;

/** One of the trader's own positions: as the kept valuation has it, and its reading 24 h before. */
export interface DigestPosition {
  label: string | null;
  position: PositionSummary;
  then: RiskReading | undefined;
}

/**
 * The liquidations of one of the trader's managers in the day: which position (its manager, side
 * and pool, its wallet's label), how many times, and what they took, their amounts in units.
 */
export interface DigestLiquidation {
  manager_id: string;
  owner: string;
  label: string | null;
  side: 'long' | 'short' | null;
  pool: string | null;
  /** Its liquidation alerts, oldest first (one per event). */
  alerts: AlertRecord[];
  /** Debt repaid, summed over them, and what the last one left; undefined where the units are not known. */
  amounts: EventAmount[] | undefined;
  /** An asset's USD price by symbol, as the kept valuation has it (null: not priced). */
  usdOf: (symbol: string) => number | null;
}

/** Everything a digest says, gathered at `at`: the facts only, in no words yet (digest-text.ts). */
export interface DigestFacts {
  at: number;
  /** The zone whose clock its times are read on (the digest's, Settings `digestZone`); the machine's when absent. */
  zone?: string;
  /** The start of the day it covers (`at` − 24 h). */
  since: number;
  /** When the kept valuation was made, or null when none is kept. */
  valuedAt: number | null;
  /** Each loan of a wallet in the group `mine`, riskiest first. */
  positions: DigestPosition[];
  /** Of the last 24 h, the liquidations of the trader's own wallets, oldest first. */
  liquidations: AlertRecord[];
  /** The same by manager, in the order of their first liquidation (by alert, without amounts, when absent). */
  liquidated?: DigestLiquidation[];
  /** Of the last 24 h, the other alerts of the trader's own wallets' positions. */
  own: AlertRecord[];
  /** Of the last 24 h, every alert of a watched wallet (its group `watched`). */
  watched: AlertRecord[];
  /** Of the last 24 h, the alerts of no wallet (the monitor itself: blind, a channel, the budget…), digests left out. */
  other: AlertRecord[];
  /** Each watched wallet's label, by owner. */
  labels: ReadonlyMap<string, string | null>;
  /** This month's credits and the plan's budget, or null where nothing is billed (the Demo network). */
  credits: CreditUsage | null;
}

/** Where the digest reads its facts: the app's rooms, or the store alone (`tidewatch digest --now`). */
export interface DigestSources {
  watchList(): WatchEntry[];
  /** The valuation every view shows (the Portfolio kept in the store), if one is kept. */
  portfolio(): PortfolioSummary | undefined;
  /** A manager's readings between two times, oldest first (the risk history). */
  readings(managerId: string, fromMs: number, toMs: number): RiskReading[];
  /** The newest alerts first, at most `limit`. */
  alerts(limit: number): AlertRecord[];
  /** The stored margin events of these ids (a liquidation alert's event: its amounts). */
  events?(ids: readonly string[]): StoredMarginEvent[];
  credits(): CreditUsage | null;
}

/** The sources as the store keeps them, the credits from the caller (the meter, or its kept counts). */
export function storeDigestSources(
  store: Pick<Store, 'settings' | 'cache' | 'risk' | 'margin'>,
  credits: () => CreditUsage | null,
): DigestSources {
  return {
    watchList: () => store.settings.watchList(),
    portfolio: () => store.cache.load<PortfolioSummary>(PORTFOLIO_CACHE_KEY)?.data,
    readings: (id, from, to) => store.risk.readings(id, from, to),
    alerts: (limit) => store.risk.alerts(true, limit),
    events: (ids) => store.margin.byIds(ids),
    credits,
  };
}

const POSITION_RULES = new Set<AlertRecord['rule']>(['risk-threshold', 'liquidation', 'interest']);

/** The digest's facts at `at`: the trader's own positions now and 24 h before, the day's alerts, the credits. */
export function gatherDigest(src: DigestSources, at: number): DigestFacts {
  const since = at - DIGEST_SPAN_MS;
  const list = src.watchList();
  const group = new Map(list.map((w) => [w.owner, w.group]));
  const labels = new Map(list.map((w) => [w.owner, w.label]));
  const portfolio = src.portfolio();
  const positions: DigestPosition[] = [];
  for (const w of portfolio?.wallets ?? []) {
    if (group.get(w.owner) !== 'mine') continue;
    for (const p of w.positions) {
      if (p.debts.length === 0) continue;
      const then = src.readings(p.manager_id, since - THEN_WINDOW_MS, since).at(-1);
      positions.push({ label: labels.get(w.owner) ?? null, position: p, then });
    }
  }
  positions.sort((a, b) => (a.position.risk_ratio ?? Infinity) - (b.position.risk_ratio ?? Infinity));
  const day = src
    .alerts(ALERTS_READ)
    .filter((a) => a.created_at >= since && a.created_at <= at && a.rule !== 'digest')
    .reverse();
  const ofGroup = (a: AlertRecord): 'mine' | 'watched' | null =>
    a.owner !== null && POSITION_RULES.has(a.rule) ? (group.get(a.owner) ?? 'mine') : null;
  const liquidations = day.filter((a) => ofGroup(a) === 'mine' && a.rule === 'liquidation');
  return {
    at,
    since,
    valuedAt: portfolio?.computed_at ?? null,
    positions,
    liquidations,
    liquidated: byManager(src, portfolio, labels, liquidations),
    own: day.filter((a) => ofGroup(a) === 'mine' && a.rule !== 'liquidation'),
    watched: day.filter((a) => ofGroup(a) === 'watched'),
    other: day.filter((a) => ofGroup(a) === null),
    labels,
    credits: src.credits(),
  };
}

/**
 * The day's liquidations by manager: the position as the kept valuation has it (its side, pool and
 * units), each event's amounts in those units (risk/event-amounts.ts `amountsOf`, as its alert
 * writes them), the debt repaid summed and what the last left.
 */
function byManager(
  src: DigestSources,
  portfolio: PortfolioSummary | undefined,
  labels: ReadonlyMap<string, string | null>,
  liquidations: readonly AlertRecord[],
): DigestLiquidation[] {
  const held = new Map<string, PositionSummary>();
  for (const w of portfolio?.wallets ?? []) for (const p of w.positions) held.set(p.manager_id, p);
  // The valuation's prices, and its positions' own (a position's asset and its quote).
  const prices = new Map<string, number>();
  for (const p of held.values()) for (const u of [p.price, p.quote_price]) if (u) prices.set(u.symbol, u.usd);
  for (const u of portfolio?.prices ?? []) prices.set(u.symbol, u.usd);
  const usdOf = (symbol: string): number | null => prices.get(symbol) ?? null;
  const ids = liquidations.flatMap((a) => (a.event_id ? [a.event_id] : []));
  const events = new Map((ids.length > 0 ? (src.events?.(ids) ?? []) : []).map((e) => [e.id, e]));
  const out = new Map<string, DigestLiquidation>();
  for (const a of liquidations) {
    const id = a.manager_id ?? '?';
    const p = held.get(id);
    let l = out.get(id);
    if (!l) {
      l = {
        manager_id: id,
        owner: a.owner ?? '',
        label: a.owner === null ? null : (labels.get(a.owner) ?? null),
        side: p?.side ?? null,
        pool: p?.pool_name ?? (a.title.startsWith('Liquidated: ') ? a.title.slice('Liquidated: '.length) : null),
        alerts: [],
        amounts: [],
        usdOf,
      };
      out.set(id, l);
    }
    l.alerts.push(a);
    const e = a.event_id ? events.get(a.event_id) : undefined;
    const amounts = e && p ? amountsOf(e, dataOf(e.data), positionUnits(p)) : undefined;
    l.amounts = amounts && l.amounts ? summed(l.amounts, amounts) : undefined;
  }
  return [...out.values()];
}

/** The units of a kept position's manager: its pool's base and quote assets, its debts' margin pools. */
function positionUnits(p: PositionSummary): Parameters<typeof amountsOf>[2] {
  const pool = {
    base_asset_symbol: p.base_symbol ?? '?',
    base_asset_decimals: p.base_decimals,
    quote_asset_symbol: p.quote_symbol ?? '?',
    quote_asset_decimals: p.quote_decimals,
  } as Pool;
  return {
    poolOfManager: () => (p.base_symbol && p.quote_symbol ? pool : undefined),
    assetOfMarginPool: (id) => {
      const symbol = p.debts.find((d) => d.margin_pool_id === id)?.symbol;
      // A loan repaid whole is no longer among the debts: a long owes its quote, a short its base.
      const base =
        symbol !== undefined ? symbol === p.base_symbol : p.side === 'short' ? true : p.side === 'long' ? false : null;
      if (base === null) return undefined;
      const s = base ? p.base_symbol : p.quote_symbol;
      return s ? { symbol: s, decimals: base ? p.base_decimals : p.quote_decimals } : undefined;
    },
  };
}

/** The debt repaid added up, what was left the latest's. */
function summed(was: readonly EventAmount[], next: readonly EventAmount[]): EventAmount[] {
  const repaid = new Map<string, EventAmount>();
  for (const a of [...was, ...next].filter((x) => x.label === 'repaid')) {
    const key = `${a.symbol}\u0000${a.decimals}`;
    const prev = repaid.get(key);
    repaid.set(key, prev ? { ...a, raw: String(BigInt(prev.raw) + BigInt(a.raw)) } : a);
  }
  return [...repaid.values(), ...next.filter((x) => x.label !== 'repaid')];
}

function dataOf(data: unknown): unknown {
  if (typeof data !== 'string') return data;
  try {
    return JSON.parse(data);
  } catch {
    return undefined;
  }
}
