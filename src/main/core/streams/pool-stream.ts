import type { EventSourceMessage } from 'eventsource-parser';
import * as v from 'valibot';
import { DepthSchema, EVENT_TYPES, TradeSchema, type Depth, type Trade } from '../../../shared/api';
import type { NamingProfile } from '../client/naming';
import type { MarketRepo } from '../store/market-repo';
import { GroupCommit } from './group-commit';
import type { StreamSpec } from './supervisor';

export interface PoolStreamOptions {
  pool: string;
  priority: number;
  repo: MarketRepo;
  naming: () => NamingProfile;
  url(): string;
  /** Trades of [fromSec, toSec] from REST, to fill the gap after a reconnect. */
  backfill(fromSec: number, toSec: number): Promise<Trade[]>;
  onData(trades: Trade[], depth: Depth | null): void;
  onError?(err: unknown): void;
}

/**
 * Stream #21 of one pool: trades stored (deduped by event_digest), depth kept as the latest
 * snapshot only. There is no resume on #21, so after every (re)connect the gap is backfilled
 * from GET /dex/{pool}/trades starting at the last stored trade's second.
 */
export function poolStream(opts: PoolStreamOptions): { spec: StreamSpec; flush(): void } {
  let latestDepth: Depth | null = null;
  const commit = new GroupCommit<Trade>((trades) => {
    try {
      opts.repo.addTrades(opts.pool, trades);
      const depth = latestDepth;
      if (depth) opts.repo.setDepth(opts.pool, depth);
      latestDepth = null;
      opts.onData(trades, depth);
    } catch (err) {
      opts.onError?.(err);
    }
  });
  const flushDepthOnly = (): void => {
    if (commit.size === 0 && latestDepth) {
      const depth = latestDepth;
      latestDepth = null;
      try {
        opts.repo.setDepth(opts.pool, depth);
      } catch (err) {
        opts.onError?.(err);
      }
      opts.onData([], depth);
    }
  };
  let depthTimer: NodeJS.Timeout | undefined;
  const flush = (): void => {
    if (depthTimer) clearTimeout(depthTimer);
    depthTimer = undefined;
    commit.flush();
    flushDepthOnly();
  };
  const spec: StreamSpec = {
    id: `pool:${opts.pool}`,
    priority: opts.priority,
    url: opts.url,
    onOpen: () => {
      const last = opts.repo.lastTradeMs(opts.pool);
      if (last === undefined) return;
      const from = Math.floor(last / 1000);
      const to = Math.floor(Date.now() / 1000);
      opts
        .backfill(from, to)
        .then((trades) => {
          const added = opts.repo.addTrades(opts.pool, trades);
          if (added > 0) opts.onData(trades, null);
        })
        .catch((err: unknown) => opts.onError?.(err));
    },
    onEvent: (m: EventSourceMessage) => {
      let msg: unknown;
      try {
        msg = opts.naming().toSpec(JSON.parse(m.data));
      } catch {
        return;
      }
      const env = msg as { type?: unknown; data?: unknown };
      if (env.type === EVENT_TYPES.liveTrade) {
        const t = v.safeParse(TradeSchema, env.data);
        if (t.success) commit.push(t.output);
      } else if (env.type === EVENT_TYPES.depth) {
        const d = v.safeParse(DepthSchema, env.data);
        if (d.success) {
          latestDepth = d.output;
          // Depth alone (no trades) is still pushed, at most every 100 ms.
          depthTimer ??= setTimeout(() => {
            depthTimer = undefined;
            flushDepthOnly();
          }, 100);
        }
      }
    },
  };
  return { spec, flush };
}
