import { EVENT_TYPES, type Depth, type Trade } from '../../shared/api';
import { checkpointAt } from '../clock';
import { parseStreamId } from '../event-log';
import type { World } from '../chain/world';
import { marketOf } from './dex-routes';
import { badParameter, HttpError } from './errors';
import { route, type Route, type RouteContext } from './route';
import { openSse, type SseConnection } from './sse';

export interface StreamHub {
  heartbeatMs: number;
  /** Open streams per api-key, for the optional per-key stream budget. */
  openPerKey: Map<string, number>;
  maxStreamsPerKey: number | undefined;
  connections: Set<SseConnection>;
}

function admit(hub: StreamHub, key: string): void {
  const open = hub.openPerKey.get(key) ?? 0;
  if (hub.maxStreamsPerKey !== undefined && open >= hub.maxStreamsPerKey) {
    throw new HttpError(429, 'too_many_streams', `this api-key may keep ${hub.maxStreamsPerKey} streams open at once; close one and retry`, {
      'retry-after': '5',
    });
  }
  hub.openPerKey.set(key, open + 1);
}

function openTracked(hub: StreamHub, ctx: RouteContext, onClose: () => void): SseConnection {
  admit(hub, ctx.apiKey);
  const conn = openSse(ctx.req, ctx.res, hub.heartbeatMs, () => {
    hub.openPerKey.set(ctx.apiKey, (hub.openPerKey.get(ctx.apiKey) ?? 1) - 1);
    hub.connections.delete(conn);
    onClose();
  });
  hub.connections.add(conn);
  return conn;
}

/** Streams 21 and 22. */
export function streamRoutes(world: World, hub: StreamHub): Route[] {
  return [
    route('/dex/:pool/live-trades', (ctx) => {
      const market = marketOf(world, ctx.params['pool']!);
      const name = market.pool.pool_name;
      // Stream #21 has no resume: `last-id` is ignored (decisions.md).
      const envelope = (type: string, ms: number, txHash: string, data: unknown): string =>
        JSON.stringify({ type, timestamp_ms: ms, checkpoint_id: checkpointAt(ms), tx_hash: txHash, data });
      const onTrade = (t: Trade): void =>
        conn.send(envelope(EVENT_TYPES.liveTrade, t.checkpoint_timestamp_ms, t.digest, t));
      const onDepth = (d: Depth): void => conn.send(envelope(EVENT_TYPES.depth, world.now, '', d));
      const conn = openTracked(hub, ctx, () => {
        world.poolBus.off(`trade:${name}`, onTrade);
        world.poolBus.off(`depth:${name}`, onDepth);
      });
      world.poolBus.on(`trade:${name}`, onTrade);
      world.poolBus.on(`depth:${name}`, onDepth);
      // A snapshot at once, so a new subscriber has a book before the next change.
      onDepth(market.depth(20));
      return undefined;
    }),
    route('/dex-margin/manager-updates', (ctx) => {
      const lastId = ctx.query.str('last-id') ?? '$';
      let replay: ReturnType<typeof world.log.since> = [];
      if (lastId === '0') replay = world.log.since('all');
      else if (lastId !== '$') {
        const id = parseStreamId(lastId);
        if (!id) throw badParameter(`last-id must be an event id like 1732270000000-0, 0 or $ (got "${lastId}")`);
        replay = world.log.since(id);
      }
      // Replay and subscription happen in the same tick, so no event falls between them.
      let unsubscribe = (): void => {};
      const conn = openTracked(hub, ctx, () => unsubscribe());
      for (const e of replay) conn.send(e.json, e.id);
      unsubscribe = world.log.subscribe((e) => conn.send(e.json, e.id));
      return undefined;
    }),
  ];
}
