import { EVENT_TYPES, type Depth, type PriceLevel, type Trade } from '../../shared/api';
import { checkpointAt } from '../clock';
import { parseStreamId } from '../event-log';
import type { Market, TradeRecord } from '../chain/market';
import { tradeIndexAfter, tradeStreamId, tradeToWire } from '../chain/series';
import type { World } from '../chain/world';
import type { Billing } from './billing';
import { marketOf } from './dex-routes';
import { badParameter, HttpError } from './errors';
import { route, type Route, type RouteContext } from './route';
import { openSse, type SseConnection } from './sse';

export interface StreamHub {
  heartbeatMs: number;
  /** Open streams per api-key, for the optional per-key stream budget. */
  openPerKey: Map<string, number>;
  maxStreamsPerKey: number | undefined;
  /** Whether a refused stream's 429 carries `Retry-After`. */
  retryAfter?: boolean;
  connections: Set<SseConnection>;
  /** Every byte a stream writes is billed to the key that opened it. */
  billing: Billing;
  /** Load for benchmarks: this pool's stream also carries synthetic depth and trades at these rates. */
  flood?: PoolFlood;
  /**
   * The pool stream replays the pool's retained trades after `last-id` (the real service documents
   * it; off by default, as in the service contract).
   */
  poolResume?: boolean;
}

export interface PoolFlood {
  pool: string;
  depthPerSecond: number;
  tradesPerSecond: number;
}

/**
 * A stream beyond the key's budget is a 429 (code `too_many_streams`, `Retry-After` unless
 * switched off) that says the limit, in its message and in `X-Stream-Limit`: a client learns its
 * plan's stream budget from the first refusal instead of probing for it.
 */
function admit(hub: StreamHub, key: string): void {
  const open = hub.openPerKey.get(key) ?? 0;
  const limit = hub.maxStreamsPerKey;
  if (limit !== undefined && open >= limit) {
    const message = `stream limit reached: this key's plan allows ${limit} ${limit === 1 ? 'stream' : 'streams'} at a time; close one and retry`;
    throw new HttpError(429, 'too_many_streams', message, {
      'x-stream-limit': String(limit),
      ...(hub.retryAfter === false ? {} : { 'retry-after': '5' }),
    });
  }
  hub.openPerKey.set(key, open + 1);
}

function openTracked(hub: StreamHub, ctx: RouteContext, onClose: () => void): SseConnection {
  admit(hub, ctx.apiKey);
  const meter = hub.billing.stream(ctx.apiKey);
  const conn = openSse(
    ctx.req,
    ctx.res,
    hub.heartbeatMs,
    () => {
      hub.openPerKey.set(ctx.apiKey, (hub.openPerKey.get(ctx.apiKey) ?? 1) - 1);
      hub.connections.delete(conn);
      meter.closed();
      onClose();
    },
    (bytes) => meter.bytes(bytes),
  );
  hub.connections.add(conn);
  return conn;
}

/** The pool stream and the margin stream (docs/service.md, Streams). */
export function streamRoutes(world: World, hub: StreamHub): Route[] {
  return [
    route(
      '/dex/:pool/live-trades',
      (ctx) => {
        const market = marketOf(world, ctx.params['pool']!);
        const name = market.pool.pool_name;
        // Every trade carries its stream id. Resume (`last-id`, or the Last-Event-ID header) is
        // honoured only when switched on: the service contract shows none on the pool stream, the
        // real service documents it.
        const from = hub.poolResume ? resumePoint(ctx) : null;
        const envelope = (type: string, ms: number, txHash: string, data: unknown): string =>
          JSON.stringify({ type, timestamp_ms: ms, checkpoint_id: checkpointAt(ms), tx_hash: txHash, data });
        const onTrade = (t: Trade, id?: string): void =>
          conn.send(envelope(EVENT_TYPES.liveTrade, t.checkpoint_timestamp_ms, t.digest, t), id);
        const onDepth = (d: Depth): void => conn.send(envelope(EVENT_TYPES.depth, world.now, '', d));
        let stopFlood = (): void => {};
        const conn = openTracked(hub, ctx, () => {
          world.poolBus.off(`trade:${name}`, onTrade);
          world.poolBus.off(`depth:${name}`, onDepth);
          stopFlood();
        });
        // Replay and subscription in the same tick, so no trade falls between them.
        if (from) {
          const trades = market.trades;
          for (let i = tradeIndexAfter(trades, from.ms, from.seq); i < trades.length; i++) {
            onTrade(tradeToWire(market, trades[i]!, world.packageId), tradeStreamId(trades, i));
          }
        }
        world.poolBus.on(`trade:${name}`, onTrade);
        world.poolBus.on(`depth:${name}`, onDepth);
        if (hub.flood?.pool === name) stopFlood = floodPool(world, market, hub.flood, onTrade, onDepth);
        // A snapshot at once, so a new subscriber has a book before the next change.
        onDepth(market.depth(20));
        return undefined;
      },
      'stream',
    ),
    route(
      '/dex-margin/manager-updates',
      (ctx) => {
        const lastId = lastIdOf(ctx);
        let replay: ReturnType<typeof world.log.since> = [];
        if (lastId === '0') replay = world.log.since('all');
        else if (lastId !== '$') replay = world.log.since(streamIdOf(lastId));
        // Replay and subscription happen in the same tick, so no event falls between them.
        let unsubscribe = (): void => {};
        const conn = openTracked(hub, ctx, () => unsubscribe());
        for (const e of replay) conn.send(e.json, e.id);
        unsubscribe = world.log.subscribe((e) => conn.send(e.json, e.id));
        return undefined;
      },
      'stream',
    ),
  ];
}

/**
 * Where a stream resumes: `last-id` in the query wins; a generic SSE client (browsers, the SDK)
 * resumes with the standard Last-Event-ID header instead, honoured the same way. Default `$`.
 */
function lastIdOf(ctx: RouteContext): string {
  const header = ctx.req.headers['last-event-id'];
  return ctx.query.str('last-id') ?? (typeof header === 'string' && header !== '' ? header : '$');
}

function streamIdOf(text: string): { ms: number; seq: number } {
  const id = parseStreamId(text);
  if (!id) throw badParameter(`last-id must be an event id like 1732270000000-0, 0 or $ (got "${text}")`);
  return id;
}

/** The pool stream's resume point: null for `$` (new trades only), the start for `0`. */
function resumePoint(ctx: RouteContext): { ms: number; seq: number } | null {
  const lastId = lastIdOf(ctx);
  if (lastId === '$') return null;
  return lastId === '0' ? { ms: -1, seq: 0 } : streamIdOf(lastId);
}

/**
 * Synthetic load on one pool's stream (benchmarks of a busy pool): every 10 ms the depth
 * and trade events due at the given rates. Trades fill at the book's best prices with sizes of a
 * few lots and digests of their own; depth is the pool's book with its inner sizes moving.
 */
function floodPool(
  world: World,
  market: Market,
  flood: PoolFlood,
  onTrade: (t: Trade) => void,
  onDepth: (d: Depth) => void,
): () => void {
  const started = performance.now();
  let trades = 0;
  let depths = 0;
  let tx = 1_000_000_000;
  let seq = 2_000_000_000;
  const timer = setInterval(() => {
    const s = (performance.now() - started) / 1000;
    const book = market.depth(20);
    for (; depths < Math.floor(s * flood.depthPerSecond); depths++) {
      const wobble = (l: PriceLevel, i: number): PriceLevel => ({
        ...l,
        total_quantity: l.total_quantity + market.spec.lotSize * ((depths + i) % 7),
      });
      onDepth({ ...book, bids: book.bids.map(wobble), asks: book.asks.map(wobble) });
    }
    const ms = Date.now();
    for (; trades < Math.floor(s * flood.tradesPerSecond); trades++) {
      const takerIsBid = trades % 2 === 0;
      const level = (takerIsBid ? book.asks : book.bids)[0];
      if (!level) continue;
      const rec: TradeRecord = {
        ms,
        price: level.price,
        baseQty: market.spec.minSize * (1 + (trades % 5)),
        takerIsBid,
        tx: ++tx,
        fill: 0,
        maker: trades,
        taker: trades + 1,
        makerSeq: ++seq,
        takerSeq: ++seq,
        feeInToken: trades % 3 === 0,
      };
      onTrade(tradeToWire(market, rec, world.packageId));
    }
  }, 10);
  return () => clearInterval(timer);
}
