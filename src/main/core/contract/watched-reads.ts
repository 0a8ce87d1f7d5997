import type { ContractResults, ManagerDetail, QueryResult, StoredMarginEvent } from '../../../shared/contract';
import { humanPrice } from '../../../shared/units';
import { ServiceError } from '../client/errors';
import { ownerOfManager, readManager } from '../risk/portfolio';
import type { ValuationSnapshot } from '../risk/risk-refresh';
import { settledOrAfter } from '../wait';
import type { ContractContext, Handlers } from './context';
import { toEventRow } from './event-rows';
import { keyOf, local, readThrough, staleBecause, type ReadThroughContext } from './read-through';

type WatchedReads =
  | 'marginEvents'
  | 'marginEventsByIds'
  | 'riskHistory'
  | 'poolHealth'
  | 'liquidationMap'
  | 'portfolio'
  | 'manager'
  | 'alerts';

/** How long the Portfolio's first call waits for the first reading of the watched wallets (one answer's timeout). */
const FIRST_READING_WAIT_MS = 30_000;
const slowFirstReading = (): ServiceError =>
  new ServiceError(
    'timeout',
    'The service is slow to answer: the watched wallets are still being read. The Portfolio appears as soon as they are.',
  );

/** The pool-health history a view gets unless it asks another span: a week. */
const POOL_HISTORY_MS = 7 * 86_400_000;

/** How long a first look at a pool's map waits for the first read of the loans (about 10 pages). */
const LIQUIDATION_MAP_WAIT_MS = 20_000;

/** How long Live events waits for what its rows' units need (a manager's pool, the asset book); later, they are pushed again. */
const UNITS_WAIT_MS = 2_000;

/**
 * What Tidewatch knows of the watched wallets: Live events and risk history from the store (fresh
 * while the margin stream is open), the Portfolio the risk loop keeps, a manager's page, and the
 * alerts with where each was sent.
 */
export function watchedReads(
  c: ReadThroughContext &
    Pick<
      ContractContext,
      | 'client'
      | 'margin'
      | 'alerts'
      | 'pools'
      | 'poolsEveryMs'
      | 'liquidationMap'
      | 'notify'
      | 'watch'
      | 'eventUnits'
      | 'lateUnits'
      | 'risk'
      | 'assets'
      | 'settings'
      | 'offline'
    >,
): Handlers<WatchedReads> {
  /** Stored events with their amounts in units, the watched wallets' marked as the user's own. */
  const withUnits = (rows: StoredMarginEvent[]): StoredMarginEvent[] =>
    c.eventUnits.apply(rows, (id) => c.watch.managers.has(id));
  const ownersNow = (): string => c.watch.owners().sort().join();
  /**
   * The risk loop's latest snapshot, the one every view of a watched position answers. When none
   * holds the watched wallets yet (a first start, the watch list changed), the first call waits
   * for the risk loop's reading, as long as one answer may take (the reading goes on); a kept one
   * of the same wallets answers from the store at once and the push brings the fresh one.
   */
  const snapshot = async (): Promise<ValuationSnapshot | undefined> => {
    const matches = (k: ValuationSnapshot | undefined): boolean =>
      k !== undefined &&
      k.portfolio.wallets
        .map((w) => w.owner)
        .sort()
        .join() === ownersNow();
    let kept = c.risk.portfolio();
    if (!matches(kept)) {
      await settledOrAfter(c.risk.refresh(), FIRST_READING_WAIT_MS);
      kept = c.risk.portfolio();
    }
    if (!kept && c.risk.lastError) throw c.risk.lastError;
    // Older than a records period: read again in the background (the push brings it).
    if (kept && Date.now() - kept.at > c.settings.effective().recordsRefreshSec * 1000) void c.risk.refresh();
    return kept;
  };
  /** An answer from a snapshot: its time, and stale while the service fails or is unreachable. */
  const answerOf = <T>(kept: ValuationSnapshot, data: T): QueryResult<T> => {
    const err = c.risk.lastError;
    const stale = err !== undefined || c.offline();
    return {
      data,
      source: stale ? 'cache' : 'network',
      fetchedAt: kept.at,
      stale,
      ...(stale && err instanceof ServiceError ? { error: staleBecause(err) } : {}),
    };
  };
  /**
   * A watched manager's page: the very position the Portfolio lists, from the same snapshot. A
   * manager no snapshot holds yet (just opened) makes the risk loop read its owner's records and
   * value everything again; the answer is that valuation, so both views agree afterwards.
   */
  const watchedManager = async (id: string, owner: string): Promise<QueryResult<ManagerDetail>> => {
    let kept = await snapshot();
    if (!kept?.managers.has(id) && !c.offline()) {
      await settledOrAfter(c.risk.refreshOwner(owner), FIRST_READING_WAIT_MS);
      kept = c.risk.portfolio() ?? kept;
    }
    if (!kept) throw slowFirstReading();
    const v = kept.managers.get(id);
    return answerOf(kept, {
      manager_id: id,
      owner,
      pool_name: v?.position.pool_name ?? null,
      created_at: v?.created_at ?? null,
      position: v?.position ?? null,
      watched: true,
    });
  };
  return {
    marginEvents: async (a, signal) => {
      const rows = c.margin.list({
        type: a.type,
        managerId: a.managerId,
        owner: a.owner,
        fromMs: a.fromMs,
        toMs: a.toMs,
        beforeId: a.beforeId,
        limit: a.limit,
      });
      // A manager whose events name no pool (created before the stored history) is looked up first,
      // and the asset book read if it is not yet (a first start), for no longer than the page can
      // wait: rows still without units then are pushed again once they have them.
      const learnt = c.offline() ? undefined : c.lateUnits.lookUp(rows, signal);
      const inTime = learnt === undefined || (await settledOrAfter(learnt, UNITS_WAIT_MS));
      const shown = withUnits(rows);
      if (!inTime && !signal?.aborted) c.lateUnits.pushWhenLearnt(shown, learnt!);
      return local(c, shown.map(toEventRow), 'margin');
    },
    marginEventsByIds: (a) => local(c, withUnits(c.margin.byIds(a.ids)), 'margin'),
    riskHistory: (a) => local(c, c.alerts.readings(a.managerId, a.fromMs, a.toMs), 'margin'),
    // From the store: the reads the pool-health timer made (risk/pool-health.ts), a week by default.
    poolHealth: (a) => {
      const pools = c.pools.latest();
      const at = Math.max(0, ...pools.map((p) => p.ts_ms));
      const every = c.poolsEveryMs();
      return {
        data: { pools, history: c.pools.history(a.fromMs ?? Date.now() - POOL_HISTORY_MS), everyMs: every },
        source: c.offline() || pools.length === 0 ? 'cache' : 'network',
        fetchedAt: at || Date.now(),
        // Stale once a read is missed: older than two intervals, or kept while offline.
        stale: c.offline() || pools.length === 0 || (every !== null && Date.now() - at > 2 * every),
      };
    },
    // From the store: the protocol's loans as the map's timer read them (risk/liquidation-map.ts);
    // read at once when none were ever read, so a first look at a pool shows its map.
    liquidationMap: async (a, s) => {
      const book = c.assets.peek() ?? (c.offline() ? undefined : await c.assets.load().catch(() => undefined));
      const pool = book ? [...book.poolsById.values()].find((p) => p.pool_name === a.pool) : undefined;
      if (book && !pool)
        throw new ServiceError('not-found', `There is no pool named ${a.pool}: pick one from Markets.`, 404);
      if (c.liquidationMap.view(a.pool, null).readAt === null && !c.offline()) {
        await settledOrAfter(c.liquidationMap.read(), LIQUIDATION_MAP_WAIT_MS);
        if (s?.aborted) throw new ServiceError('cancelled', 'The liquidation map was no longer asked for.');
      }
      const view = c.liquidationMap.view(a.pool, pool ? humanPrice(pool.tick_size, pool) : null);
      const every = view.everyMs;
      const at = view.readAt;
      return {
        data: view,
        source: c.offline() || at === null ? 'cache' : 'network',
        fetchedAt: at ?? Date.now(),
        // Stale once a read is missed: older than two intervals, never read, or kept while offline.
        stale: c.offline() || at === null || (every !== null && Date.now() - at > 2 * every),
      };
    },
    portfolio: async () => {
      const kept = await snapshot();
      if (!kept) {
        if (c.watch.owners().length > 0) throw slowFirstReading();
        const empty: ContractResults['portfolio']['data'] = { wallets: [], prices: [], computed_at: Date.now() };
        return { data: empty, source: 'network', fetchedAt: Date.now(), stale: false };
      }
      return answerOf(kept, kept.portfolio);
    },
    manager: async (a, s) => {
      const id = a.managerId;
      const watched = new Set(c.watch.owners());
      const isWatched = (o: string | undefined): o is string => o !== undefined && watched.has(o);
      let owner = c.watch.managers.get(id) ?? c.margin.ownerOfManager(id);
      // Asked of the service only when nothing known names the owner (a failure is asked again below, cache-backed).
      if (owner === undefined && !c.offline()) owner = await ownerOfManager(c.client, id, s).catch(() => undefined);
      if (isWatched(owner)) return watchedManager(id, owner);
      // Not watched: valued on demand by the same code, at its own time (docs/valuation.md).
      return readThrough(
        c,
        keyOf('manager', a),
        async () => readManager(c.client, await c.assets.load(), c.risk.valuation(), id, owner, isWatched, s),
        s,
      );
    },
    alerts: (a) => {
      const list = c.alerts.alerts(a.includeAcknowledged ?? true, a.limit);
      const log = c.notify.deliveryLog(list.map((x) => x.id));
      return {
        data: list.map((x) => ({ ...x, deliveries: log.get(x.id) ?? [] })),
        source: 'cache',
        fetchedAt: Date.now(),
        stale: false,
      };
    },
  };
}
