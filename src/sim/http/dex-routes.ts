import { DEPTH_LIMIT_MAX, SERIES_LIMIT_MAX, TIMEFRAMES, type Timeframe } from '../../shared/api';
import type { Market, TradeRecord } from '../chain/market';
import { candlesInRange, tradesInRange, tradeToWire } from '../chain/series';
import type { World } from '../chain/world';
import { badParameter, notFound } from './errors';
import type { Query } from './query';
import { route, type Route } from './route';

export function marketOf(world: World, name: string): Market {
  const market = world.marketsByName.get(name);
  if (!market) {
    throw notFound(`pool ${name} was not found; known pools: ${[...world.marketsByName.keys()].join(', ')}`);
  }
  return market;
}

/** `from`/`to` in UNIX seconds; as the service contract says, `from` defaults to one day before now and `to` to now. */
function timeRange(query: Query): { from: number; to: number } {
  const nowSec = Math.floor(Date.now() / 1000);
  const to = query.num('to') ?? nowSec;
  const given = query.num('from');
  const from = given ?? nowSec - 86_400;
  if (from > to) {
    throw badParameter(
      `from (${from}${given === undefined ? ', the default: one day before now' : ''}) must not be after to (${to})`,
    );
  }
  return { from, to };
}

/** What a `/dex/:pool/trades` request asks for, and the trades of the world that answer it. */
function tradesAsked(
  world: World,
  params: Record<string, string>,
  query: Query,
): { market: Market; limit: number; from: number; trades: TradeRecord[] } {
  const market = marketOf(world, params['pool']!);
  const limit = query.int('limit', SERIES_LIMIT_MAX, 1, SERIES_LIMIT_MAX);
  const { from, to } = timeRange(query);
  return { market, limit, from, trades: tradesInRange(market.trades, from, to, limit) };
}

/** The exchange endpoints (docs/service.md, Exchange endpoints). */
export function dexRoutes(world: World): Route[] {
  const pools = world.markets.map((m) => m.pool);
  return [
    route('/dex/get_pools', () => pools),
    route('/dex/:pool/order-book-depth', ({ params, query }) => {
      const market = marketOf(world, params['pool']!);
      return market.depth(query.int('limit', DEPTH_LIMIT_MAX, 1, DEPTH_LIMIT_MAX));
    }),
    {
      ...route('/dex/:pool/trades', ({ params, query }) => {
        const { market, trades } = tradesAsked(world, params, query);
        return trades.map((t) => tradeToWire(market, t, world.packageId));
      }),
      // The newest trades (a last price) exist once today's epoch does: the older epochs only add
      // trades before it, so the answer is final when it is full, or asks only for today's.
      answersEarly: ({ params, query }) => {
        const complete = world.tradesCompleteAfter;
        const { trades, limit, from } = tradesAsked(world, params, query);
        return from * 1000 > complete || (trades.length === limit && trades[limit - 1]!.ms > complete);
      },
    },
    route('/dex/:pool/ohlcv/:timeframe', ({ params, query }) => {
      const market = marketOf(world, params['pool']!);
      const tf = params['timeframe']!;
      if (!(TIMEFRAMES as readonly string[]).includes(tf)) {
        throw badParameter(`timeframe must be one of ${TIMEFRAMES.join(', ')} (got "${tf}")`);
      }
      const limit = query.int('limit', SERIES_LIMIT_MAX, 1, SERIES_LIMIT_MAX);
      const { from, to } = timeRange(query);
      return candlesInRange(market.trades, tf as Timeframe, from, to, limit);
    }),
  ];
}
