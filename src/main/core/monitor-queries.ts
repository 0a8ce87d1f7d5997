import { NotifyConfigError } from './notify/config';
import type { Candle } from '../../shared/api';
import { candleTimeMs } from '../../shared/units';
import type { ArgsOf, ContractMethod, ContractResults, QueryResult } from '../../shared/contract';
import { ContractArgumentError } from '../../shared/contract';
import { ServiceError } from './client/errors';
import type { Monitor } from './monitor';
import { readManager } from './risk/portfolio';
import { learnStoredManagers } from './streams/margin-dispatch';

/** Errors for which a cached copy is better than nothing (the network, not the request, failed). */
function cacheWorthy(err: unknown): err is ServiceError {
  return (
    err instanceof ServiceError && err.kind !== 'bad-request' && err.kind !== 'not-found' && err.kind !== 'cancelled'
  );
}

/**
 * Network first; on success the answer is cached. When the network fails and a cached copy
 * exists, that copy is returned with `stale: true` and the reason.
 */
async function cached<T>(m: Monitor, key: string, fetcher: () => Promise<T>): Promise<QueryResult<T>> {
  try {
    const data = await fetcher();
    const fetchedAt = Date.now();
    saveQuietly(m, key, data, fetchedAt);
    m.noteNetwork();
    return { data, source: 'network', fetchedAt, stale: false };
  } catch (err) {
    m.noteNetwork(err);
    if (cacheWorthy(err)) {
      const hit = m.store.cache.load<T>(key);
      if (hit) {
        return {
          data: hit.data,
          source: 'cache',
          fetchedAt: hit.fetchedAt,
          stale: true,
          error: { kind: err.kind, message: err.message, advice: err.advice },
        };
      }
    }
    throw err;
  }
}

/** Candles kept per pool and timeframe for offline charts. */
const CANDLES_CACHED = 5_000;

/** A cache write that fails (disk full) must not fail the answer the network gave: the monitor is told instead. */
function saveQuietly(m: Monitor, key: string, data: unknown, fetchedAt: number): void {
  try {
    m.store.cache.save(key, data, fetchedAt);
    m.storeHealth.noteOk();
  } catch (err) {
    m.storeHealth.noteError(err);
  }
}

/** Local data (the store): fresh while the stream that feeds it is open. */
function local<T>(m: Monitor, data: T, streamId: string): QueryResult<T> {
  const s = m.supervisor.statuses().find((x) => x.id === streamId);
  const live = s?.state === 'open';
  return { data, source: live ? 'network' : 'cache', fetchedAt: s?.lastEventAt ?? Date.now(), stale: !live };
}

const key = (method: string, args: unknown): string => `${method}:${JSON.stringify(args)}`;

type Handlers = {
  [M in ContractMethod]: (
    m: Monitor,
    a: ArgsOf<M>,
    signal?: AbortSignal,
  ) => Promise<ContractResults[M]> | ContractResults[M];
};

const thresholds = (m: Monitor): ContractResults['thresholds'] => {
  const s = m.effective();
  return {
    defaults: { warning: s.warningRatio, critical: s.criticalRatio },
    perManager: m.store.settings.thresholds(),
  };
};

const HANDLERS: Handlers = {
  walletNfts: (m, a, s) => cached(m, key('walletNfts', a), () => m.client.addressNfts(a.owner, a, s)),
  kiosk: (m, a, s) => cached(m, key('kiosk', a), () => m.client.kioskNfts(a.kioskId, a, s)),
  collection: (m, a, s) => cached(m, key('collection', a), () => m.client.collection(a.type, a, s)),
  holders: (m, a, s) => cached(m, key('holders', a), () => m.client.holders(a.type, a, s)),
  pools: (m, _a, s) => cached(m, 'pools', () => m.client.pools(s)),
  depth: async (m, a, s) => {
    try {
      return await cached(m, key('depth', a), () => m.client.depth(a.pool, a.limit, s));
    } catch (err) {
      const stored = m.store.market.depth(a.pool);
      if (!stored || !cacheWorthy(err)) throw err;
      return {
        data: stored.depth,
        source: 'cache',
        fetchedAt: stored.updatedAt,
        stale: true,
        error: { kind: err.kind, message: err.message, advice: err.advice },
      };
    }
  },
  trades: async (m, a, s) => {
    try {
      const { trades, truncated } = await m.client.tradesRange(a.pool, a.from, a.to, { signal: s });
      m.store.market.addTrades(a.pool, trades);
      m.noteNetwork();
      return { data: trades, source: 'network', fetchedAt: Date.now(), stale: false, truncated };
    } catch (err) {
      m.noteNetwork(err);
      if (!cacheWorthy(err)) throw err;
      const data = m.store.market.trades(a.pool, a.from * 1000, a.to * 1000 + 999);
      return {
        data,
        source: 'cache',
        fetchedAt: Date.now(),
        stale: true,
        error: { kind: err.kind, message: err.message, advice: err.advice },
      };
    }
  },
  candles: async (m, a, s) => {
    // Cached by pool and timeframe (not by range), so a chart opened offline shows what was seen.
    const k = `candles:${a.pool}:${a.timeframe}`;
    const inRange = (c: Candle): boolean => {
      const t = candleTimeMs(c.timestamp) / 1000;
      return t >= a.from && t <= a.to;
    };
    try {
      const { candles, truncated } = await m.client.candlesRange(a.pool, a.timeframe, a.from, a.to, { signal: s });
      const fetchedAt = Date.now();
      const before = m.store.cache.load<Candle[]>(k)?.data ?? [];
      const merged = new Map([...before, ...candles].map((c) => [c.timestamp, c]));
      const kept = [...merged.values()].sort((x, y) => (x.timestamp < y.timestamp ? -1 : 1)).slice(-CANDLES_CACHED);
      saveQuietly(m, k, kept, fetchedAt);
      m.noteNetwork();
      return { data: candles, source: 'network', fetchedAt, stale: false, truncated };
    } catch (err) {
      m.noteNetwork(err);
      const hit = cacheWorthy(err) ? m.store.cache.load<Candle[]>(k) : undefined;
      if (!hit || !cacheWorthy(err)) throw err;
      return {
        data: hit.data.filter(inRange),
        source: 'cache',
        fetchedAt: hit.fetchedAt,
        stale: true,
        error: { kind: err.kind, message: err.message, advice: err.advice },
      };
    }
  },
  supplyReferral: (m, a, s) => cached(m, key('supplyReferral', a), () => m.client.supplyReferral(a.id, s)),
  supplyReferrals: (m, a, s) => cached(m, key('supplyReferrals', a), () => m.client.supplyReferrals(a, s)),
  supplierCap: (m, a, s) => cached(m, key('supplierCap', a), () => m.client.supplierCap(a.id, s)),
  nft: (m, a, s) => cached(m, key('nft', a), () => m.client.nft(a.objectId, s)),
  supplierCaps: (m, a, s) => cached(m, key('supplierCaps', a), () => m.client.supplierCaps(a, s)),
  marginManagers: (m, a, s) => cached(m, key('marginManagers', a), () => m.client.marginManagers(a.owner, a, s)),
  liquidations: (m, a, s) => cached(m, key('liquidations', a), () => m.client.liquidations(a.owner, a, s)),
  activeSupplies: (m, a, s) => cached(m, key('activeSupplies', a), () => m.client.activeSupplies(a.owner, a, s)),
  activeLoans: (m, a, s) => cached(m, key('activeLoans', a), () => m.client.activeLoans(a.owner, a, s)),
  marginEvents: (m, a) => {
    const rows = m.store.margin.list({
      type: a.type,
      managerId: a.managerId,
      owner: a.owner,
      fromMs: a.fromMs,
      toMs: a.toMs,
      beforeId: a.beforeId,
      limit: a.limit,
    });
    const data = m.eventUnits.apply(rows, (id) => m.watchedManagers.has(id));
    return local(m, data, 'margin');
  },
  riskHistory: (m, a) => local(m, m.store.risk.readings(a.managerId, a.fromMs, a.toMs), 'margin'),
  portfolio: async (m) => {
    const owners = m.store.settings
      .watchList()
      .map((w) => w.owner)
      .sort()
      .join();
    const matches = (k: ReturnType<Monitor['risk']['portfolio']>): boolean =>
      k !== undefined &&
      k.portfolio.wallets
        .map((w) => w.owner)
        .sort()
        .join() === owners;
    let kept = m.risk.portfolio();
    // The first call of a run answers from the store at once when it can; the push brings the fresh one.
    if (!matches(kept)) {
      await m.refreshRisk();
      kept = m.risk.portfolio();
    }
    const err = m.risk.lastError;
    if (!kept) {
      if (err) throw err;
      return {
        data: { wallets: [], prices: [], computed_at: Date.now() },
        source: 'network',
        fetchedAt: Date.now(),
        stale: false,
      };
    }
    // Older than a records period: read again in the background (the push brings it).
    if (Date.now() - kept.at > m.effective().recordsRefreshSec * 1000) void m.refreshRisk();
    const stale = err !== undefined || m.offline;
    return {
      data: kept.portfolio,
      source: stale ? 'cache' : 'network',
      fetchedAt: kept.at,
      stale,
      ...(stale && err instanceof ServiceError
        ? { error: { kind: err.kind, message: err.message, advice: err.advice } }
        : {}),
    };
  },
  manager: async (m, a, s) => {
    const known = m.watchedManagers.get(a.managerId) ?? m.store.margin.ownerOfManager(a.managerId);
    const watched = new Set(m.store.settings.watchList().map((w) => w.owner));
    return cached(m, key('manager', a), async () =>
      readManager(m.client, await m.assets.load(), m.risk.valuation(), a.managerId, known, (o) => watched.has(o), s),
    );
  },
  alerts: (m, a) => {
    const list = m.store.risk.alerts(a.includeAcknowledged ?? true, a.limit);
    const log = m.store.risk.outbox.log(list.map((x) => x.id));
    return {
      data: list.map((x) => ({ ...x, deliveries: log.get(x.id) ?? [] })),
      source: 'cache',
      fetchedAt: Date.now(),
      stale: false,
    };
  },
  settings: (m) => m.effective(),
  streamStatus: (m) => m.status(),
  creditForecast: (m) => m.creditForecast(),
  watchList: (m) => m.store.settings.watchList(),
  thresholds: (m) => thresholds(m),
  updateSettings: (m, a) => {
    try {
      m.settings.update(a);
    } catch (err) {
      throw new ContractArgumentError(`updateSettings: ${(err as Error).message}`);
    }
    m.reconfigure();
    return m.effective();
  },
  setApiKey: (m, a) => {
    m.settings.setApiKey(a.apiKey);
    m.reconfigure();
    // Even the same key again: the user says it is valid now (a plan renewed, a key re-enabled).
    m.retryStreamsNow();
    return m.effective();
  },
  setStreamKey: (m, a) => {
    m.settings.setStreamKey(a.pool, a.streamKey);
    m.reconfigure();
    m.retryStreamsNow();
    return m.effective();
  },
  addWatch: (m, a) => {
    m.store.settings.addWatch(a.owner, a.label ?? null);
    learnStoredManagers([a.owner], m.store.margin, m.watchedManagers);
    m.risk.forget();
    void m.refreshRisk();
    return m.store.settings.watchList();
  },
  removeWatch: (m, a) => {
    m.store.settings.removeWatch(a.owner);
    m.risk.forget();
    for (const [id, owner] of m.watchedManagers) {
      if (owner === a.owner) {
        m.watchedManagers.delete(id);
        m.latestReadings.delete(id);
      }
    }
    return m.store.settings.watchList();
  },
  setThreshold: (m, a) => {
    m.store.settings.setThreshold(a.managerId, { warning: a.warning, critical: a.critical });
    return thresholds(m);
  },
  clearThreshold: (m, a) => {
    m.store.settings.clearThreshold(a.managerId);
    return thresholds(m);
  },
  acknowledgeAlert: (m, a) => {
    const r = m.store.risk.acknowledge(a.id);
    if (!r) throw new ContractArgumentError(`acknowledgeAlert: there is no alert ${a.id}`);
    return r;
  },
  snoozeAlert: (m, a) => {
    const r = m.store.risk.snooze(a.id, a.untilMs);
    if (!r) throw new ContractArgumentError(`snoozeAlert: there is no alert ${a.id}`);
    return r;
  },
  acknowledgeAllAlerts: (m) => ({ acknowledged: m.store.risk.acknowledgeAll() }),
  notifyChannels: (m) => m.notify.view(),
  saveNotifyChannel: (m, a) => notifyChange('saveNotifyChannel', () => m.notify.saveChannel(a.channel, a.replaces)),
  removeNotifyChannel: (m, a) => notifyChange('removeNotifyChannel', () => m.notify.removeChannel(a.name)),
  updateNotifyOptions: (m, a) => notifyChange('updateNotifyOptions', () => m.notify.updateOptions(a)),
  notifyTest: async (m, a) => ({ results: await notifyChange('notifyTest', () => m.notify.test(a.channel)) }),
  demoHints: (m) => ({ owners: m.demoHints().slice(0, 12) }),
  retryStreams: (m) => {
    m.retryStreamsNow();
    return m.status();
  },
};

/** A channel setting that cannot be used answers as a bad argument, in the config's words. */
function notifyChange<T>(method: string, change: () => T): T {
  const asArgument = (err: unknown): unknown =>
    err instanceof RangeError || err instanceof NotifyConfigError
      ? new ContractArgumentError(`${method}: ${err.message}`)
      : err;
  try {
    const r = change();
    return (r instanceof Promise ? r.catch((err: unknown) => Promise.reject(asArgument(err))) : r) as T;
  } catch (err) {
    throw asArgument(err);
  }
}

export async function dispatch<M extends ContractMethod>(
  m: Monitor,
  method: M,
  args: ArgsOf<M>,
  signal?: AbortSignal,
): Promise<ContractResults[M]> {
  const handler = HANDLERS[method] as (
    m: Monitor,
    a: ArgsOf<M>,
    s?: AbortSignal,
  ) => Promise<ContractResults[M]> | ContractResults[M];
  return handler(m, args, signal);
}
