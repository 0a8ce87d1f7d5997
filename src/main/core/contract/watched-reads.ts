import type { ContractResults, StoredMarginEvent } from '../../../shared/contract';
import { ServiceError } from '../client/errors';
import { readManager } from '../risk/portfolio';
import { settledOrAfter } from '../wait';
import type { ContractContext, Handlers } from './context';
import { toEventRow } from './event-rows';
import { keyOf, local, readThrough, staleBecause, type ReadThroughContext } from './read-through';

type WatchedReads = 'marginEvents' | 'marginEventsByIds' | 'riskHistory' | 'portfolio' | 'manager' | 'alerts';

/** How long the Portfolio's first call waits for the first reading of the watched wallets (one answer's timeout). */
const FIRST_READING_WAIT_MS = 30_000;
const slowFirstReading = (): ServiceError =>
  new ServiceError(
    'timeout',
    'The service is slow to answer: the watched wallets are still being read. The Portfolio appears as soon as they are.',
  );

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
    portfolio: async () => {
      const owners = c.watch.owners().sort().join();
      const matches = (k: ReturnType<typeof c.risk.portfolio>): boolean =>
        k !== undefined &&
        k.portfolio.wallets
          .map((w) => w.owner)
          .sort()
          .join() === owners;
      let kept = c.risk.portfolio();
      // The first call of a run answers from the store at once when it can; the push brings the fresh one.
      // Otherwise it waits for the first reading, as long as one answer may take: the reading goes on.
      if (!matches(kept)) {
        await settledOrAfter(c.risk.refresh(), FIRST_READING_WAIT_MS);
        kept = c.risk.portfolio();
      }
      const err = c.risk.lastError;
      if (!kept) {
        if (err) throw err;
        if (c.watch.owners().length > 0) throw slowFirstReading();
        const empty: ContractResults['portfolio']['data'] = { wallets: [], prices: [], computed_at: Date.now() };
        return { data: empty, source: 'network', fetchedAt: Date.now(), stale: false };
      }
      // Older than a records period: read again in the background (the push brings it).
      if (Date.now() - kept.at > c.settings.effective().recordsRefreshSec * 1000) void c.risk.refresh();
      const stale = err !== undefined || c.offline();
      return {
        data: kept.portfolio,
        source: stale ? 'cache' : 'network',
        fetchedAt: kept.at,
        stale,
        ...(stale && err instanceof ServiceError ? { error: staleBecause(err) } : {}),
      };
    },
    manager: async (a, s) => {
      const known = c.watch.managers.get(a.managerId) ?? c.margin.ownerOfManager(a.managerId);
      const watched = new Set(c.watch.owners());
      return readThrough(c, keyOf('manager', a), async () =>
        readManager(c.client, await c.assets.load(), c.risk.valuation(), a.managerId, known, (o) => watched.has(o), s),
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
