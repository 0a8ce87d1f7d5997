import type {
  AlertRecord,
  CreditUsage,
  PortfolioSummary,
  PositionSummary,
  RiskReading,
  WatchEntry,
} from '../../../shared/contract';
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
  credits(): CreditUsage | null;
}

/** The sources as the store keeps them, the credits from the caller (the meter, or its kept counts). */
export function storeDigestSources(
  store: Pick<Store, 'settings' | 'cache' | 'risk'>,
  credits: () => CreditUsage | null,
): DigestSources {
  return {
    watchList: () => store.settings.watchList(),
    portfolio: () => store.cache.load<PortfolioSummary>(PORTFOLIO_CACHE_KEY)?.data,
    readings: (id, from, to) => store.risk.readings(id, from, to),
    alerts: (limit) => store.risk.alerts(true, limit),
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
  return {
    at,
    since,
    valuedAt: portfolio?.computed_at ?? null,
    positions,
    liquidations: day.filter((a) => ofGroup(a) === 'mine' && a.rule === 'liquidation'),
    own: day.filter((a) => ofGroup(a) === 'mine' && a.rule !== 'liquidation'),
    watched: day.filter((a) => ofGroup(a) === 'watched'),
    other: day.filter((a) => ofGroup(a) === null),
    labels,
    credits: src.credits(),
  };
}
