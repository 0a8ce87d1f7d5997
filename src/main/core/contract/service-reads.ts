import type { Candle } from '../../../shared/api';
import { candleTimeMs } from '../../../shared/units';
import type { ContractContext, Handlers } from './context';
import { cacheWorthy, keepQuietly, keyOf, readThrough, staleBecause, type ReadThroughContext } from './read-through';

type ServiceReads =
  | 'walletNfts'
  | 'kiosk'
  | 'collection'
  | 'holders'
  | 'pools'
  | 'depth'
  | 'trades'
  | 'candles'
  | 'supplyReferral'
  | 'supplyReferrals'
  | 'supplierCap'
  | 'nft'
  | 'supplierCaps'
  | 'marginManagers'
  | 'liquidations'
  | 'activeSupplies'
  | 'activeLoans';

/**
 * A book the pool stream stored this recently is the stream's latest (an active pool's book changes
 * several times a second): a depth read takes it instead of the network's.
 */
const STREAMED_DEPTH_MS = 5_000;

/** Candles kept per pool and timeframe for offline charts. */
const CANDLES_CACHED = 5_000;

/**
 * What the page reads of the service itself: each read goes to the network first and is kept, so
 * that offline the last answer is shown, marked stale, with the reason. A pool's depth and trades
 * fall back on what its stream stored; candles are kept per pool and timeframe, not per range.
 */
export function serviceReads(
  c: ReadThroughContext & Pick<ContractContext, 'client' | 'market'>,
): Handlers<ServiceReads> {
  const through = <T>(key: string, fetcher: () => Promise<T>, signal: AbortSignal | undefined) =>
    readThrough(c, key, fetcher, signal);
  return {
    walletNfts: (a, s) => through(keyOf('walletNfts', a), () => c.client.addressNfts(a.owner, a, s), s),
    kiosk: (a, s) => through(keyOf('kiosk', a), () => c.client.kioskNfts(a.kioskId, a, s), s),
    collection: (a, s) => through(keyOf('collection', a), () => c.client.collection(a.type, a, s), s),
    holders: (a, s) => through(keyOf('holders', a), () => c.client.holders(a.type, a, s), s),
    pools: (_a, s) => through('pools', () => c.client.pools(s), s),
    depth: async (a, s) => {
      // The pool's stream open (its page on screen, or the guard's): its book, the one the page's
      // header shows, for nothing; a read of the service would be another moment's book.
      const streamed = c.market.depth(a.pool);
      if (streamed && Date.now() - streamed.updatedAt <= STREAMED_DEPTH_MS) {
        const limit = a.limit ?? Infinity;
        const data = {
          ...streamed.depth,
          bids: streamed.depth.bids.slice(0, limit),
          asks: streamed.depth.asks.slice(0, limit),
        };
        return { data, source: 'network', fetchedAt: streamed.updatedAt, stale: false };
      }
      try {
        return await through(keyOf('depth', a), () => c.client.depth(a.pool, a.limit, s), s);
      } catch (err) {
        const stored = c.market.depth(a.pool);
        if (!stored || !cacheWorthy(err)) throw err;
        return {
          data: stored.depth,
          source: 'cache',
          fetchedAt: stored.updatedAt,
          stale: true,
          error: staleBecause(err),
        };
      }
    },
    trades: async (a, s) => {
      try {
        const { trades, truncated } = await c.client.tradesRange(a.pool, a.from, a.to, { signal: s });
        c.market.addTrades(a.pool, trades);
        c.noteNetwork();
        return { data: trades, source: 'network', fetchedAt: Date.now(), stale: false, truncated };
      } catch (err) {
        c.noteNetwork(err);
        if (!cacheWorthy(err)) throw err;
        const data = c.market.trades(a.pool, a.from * 1000, a.to * 1000 + 999);
        return { data, source: 'cache', fetchedAt: Date.now(), stale: true, error: staleBecause(err) };
      }
    },
    candles: async (a, s) => {
      // Kept by pool and timeframe (not by range), so a chart opened offline shows what was seen.
      const k = `candles:${a.pool}:${a.timeframe}`;
      const inRange = (x: Candle): boolean => {
        const t = candleTimeMs(x.timestamp) / 1000;
        return t >= a.from && t <= a.to;
      };
      try {
        const { candles, truncated } = await c.client.candlesRange(a.pool, a.timeframe, a.from, a.to, { signal: s });
        const fetchedAt = Date.now();
        const before = c.cache.load<Candle[]>(k)?.data ?? [];
        const merged = new Map([...before, ...candles].map((x) => [x.timestamp, x]));
        const kept = [...merged.values()].sort((x, y) => (x.timestamp < y.timestamp ? -1 : 1)).slice(-CANDLES_CACHED);
        keepQuietly(c, k, kept, fetchedAt);
        c.noteNetwork();
        return { data: candles, source: 'network', fetchedAt, stale: false, truncated };
      } catch (err) {
        c.noteNetwork(err);
        const hit = cacheWorthy(err) ? c.cache.load<Candle[]>(k) : undefined;
        if (!hit || !cacheWorthy(err)) throw err;
        return {
          data: hit.data.filter(inRange),
          source: 'cache',
          fetchedAt: hit.fetchedAt,
          stale: true,
          error: staleBecause(err),
        };
      }
    },
    supplyReferral: (a, s) => through(keyOf('supplyReferral', a), () => c.client.supplyReferral(a.id, s), s),
    supplyReferrals: (a, s) => through(keyOf('supplyReferrals', a), () => c.client.supplyReferrals(a, s), s),
    supplierCap: (a, s) => through(keyOf('supplierCap', a), () => c.client.supplierCap(a.id, s), s),
    nft: (a, s) => through(keyOf('nft', a), () => c.client.nft(a.objectId, s), s),
    supplierCaps: (a, s) => through(keyOf('supplierCaps', a), () => c.client.supplierCaps(a, s), s),
    marginManagers: (a, s) => through(keyOf('marginManagers', a), () => c.client.marginManagers(a.owner, a, s), s),
    liquidations: (a, s) => through(keyOf('liquidations', a), () => c.client.liquidations(a.owner, a, s), s),
    activeSupplies: (a, s) => through(keyOf('activeSupplies', a), () => c.client.activeSupplies(a.owner, a, s), s),
    activeLoans: (a, s) => through(keyOf('activeLoans', a), () => c.client.activeLoans(a.owner, a, s), s),
  };
}
