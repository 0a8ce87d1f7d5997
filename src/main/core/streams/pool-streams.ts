import type { Trade } from '../../../shared/api';
import type { PoolPush } from '../../../shared/contract';
import { describeForLog } from '../client/errors';
import type { ServiceClient } from '../client/service-client';
import type { MarketRepo } from '../store/market-repo';
import { poolStream } from './pool-stream';
import type { StreamSupervisor } from './supervisor';

export interface PoolStreamsDeps {
  supervisor: StreamSupervisor;
  repo: MarketRepo;
  client: () => ServiceClient;
  /** Whether streams may open now (a service is configured, the monitor is open). */
  canOpen: () => boolean;
  /** How many views subscribe to a pool now. */
  subscribers: (pool: string) => number;
  publish: (pool: string, push: PoolPush) => void;
  /** Whether a pool's write worked again (undefined) or failed (store/store-health.ts). */
  noteStore: (pool: string, err?: unknown) => void;
  log: (line: string) => void;
}

/**
 * Stream #21 per pool: open while a view shows the pool (priority 1) or while a watched position
 * trades on it (priority 2, so the tray's risk follows the market); closed otherwise, committing
 * what it holds.
 */
export class PoolStreams {
  private watched = new Set<string>();
  private readonly flushers = new Map<string, () => void>();

  constructor(private readonly d: PoolStreamsDeps) {}

  /** A view subscribed to or left a pool. */
  onSubscribers(pool: string, count: number): void {
    if (count > 0) this.ensure(pool, 1);
    else if (this.watched.has(pool)) this.ensure(pool, 2);
    else this.remove(pool);
  }

  /** The pools watched positions trade on, after a risk refresh. */
  setWatched(pools: Set<string>): void {
    for (const old of this.watched) {
      if (!pools.has(old) && this.d.subscribers(old) === 0) this.remove(old);
    }
    this.watched = pools;
    for (const p of pools) if (this.d.subscribers(p) === 0) this.ensure(p, 2);
  }

  /** Commit what every pool stream holds (shutdown). */
  flushAll(): void {
    for (const flush of this.flushers.values()) flush();
  }

  private remove(pool: string): void {
    this.d.supervisor.remove(`pool:${pool}`);
    this.flushers.get(pool)?.();
    this.flushers.delete(pool);
  }

  private ensure(pool: string, priority: number): void {
    if (!this.d.canOpen()) return;
    const client = this.d.client;
    const stream = poolStream({
      pool,
      priority,
      repo: this.d.repo,
      naming: () => client().http.profile,
      url: (lastId) => client().http.url(`/dex/${encodeURIComponent(pool)}/live-trades`, lastId ? { 'last-id': lastId } : {}, 'stream', pool),
      backfill: async (from, to) => (await client().tradesRange(pool, from, to)).trades,
      onData: (trades: Trade[], depth) => this.d.publish(pool, { pool, trades, depth }),
      onResume: (v) => {
        if (v.kind === 'backfill' && v.why === 'replay-starts-late') this.d.log(`pool ${pool}: the service's replay starts after the gap; reading the gap's start over REST`);
      },
      onError: (err) => this.d.log(`pool ${pool}: ${describeForLog(err)}`),
      onStoreState: (reason, err) => {
        if (reason !== null) {
          this.d.log(`pool ${pool}: ${reason}; its stream stops until writes work again`);
          this.d.supervisor.interrupt(`pool:${pool}`);
          this.d.noteStore(pool, err);
        } else {
          this.d.log(`pool ${pool}: writes work again; its stream resumes from its cursor`);
          this.d.noteStore(pool);
        }
      },
    });
    if (!this.d.supervisor.has(`pool:${pool}`)) this.flushers.set(pool, stream.flush);
    this.d.supervisor.add(stream.spec);
  }
}
