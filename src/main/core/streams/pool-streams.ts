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
  /** Trades each pool stream received (the guard prices a pool in danger from them). */
  onTrades?: (pool: string, trades: Trade[]) => void;
  /** Whether a pool's write worked again (undefined) or failed (store/store-health.ts). */
  noteStore: (pool: string, err?: unknown) => void;
  log: (line: string) => void;
}

/** Under the stream budget: the margin stream 0, pools on screen 1, pools the guard wants live 2. */
const ON_SCREEN = 1;
const GUARD = 2;

/**
 * A pool stream per pool: open while a view shows the pool (a pool page or chart), or while the
 * guard wants it live because a watched position priced there is in danger (risk/danger-pricing.ts)
 * and a slot is free, when the plan allows one more stream beside the margin stream; closed,
 * committing what it holds, when neither wants it. Otherwise watched positions are priced by the
 * price schedule (risk/price-schedule.ts), at a small fraction of a pool stream's cost
 * (docs/credits.md).
 */
export class PoolStreams {
  private readonly flushers = new Map<string, () => void>();
  private guarded = new Set<string>();

  constructor(private readonly d: PoolStreamsDeps) {}

  /** A view subscribed to or left a pool. */
  onSubscribers(pool: string, count: number): void {
    if (count > 0) this.ensure(pool, ON_SCREEN);
    else if (this.guarded.has(pool)) this.ensure(pool, GUARD);
    else this.remove(pool);
  }

  /**
   * The pools the guard wants live now. One opens only in a free slot (it never waits for one,
   * nor takes a page's); one no longer wanted closes unless a view shows it.
   */
  guard(pools: ReadonlySet<string>): void {
    const before = this.guarded;
    this.guarded = new Set();
    for (const pool of pools) {
      const open = this.d.supervisor.has(`pool:${pool}`);
      if (!open && this.d.supervisor.statuses().length >= this.d.supervisor.limit()) continue;
      this.guarded.add(pool);
      if (!open) this.ensure(pool, GUARD);
    }
    for (const pool of before) if (!this.guarded.has(pool) && this.d.subscribers(pool) === 0) this.remove(pool);
  }

  /** Whether the guard holds a pool's stream open. */
  isGuarded(pool: string): boolean {
    return this.guarded.has(pool);
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
      url: (lastId) =>
        client().http.url(
          `/dex/${encodeURIComponent(pool)}/live-trades`,
          lastId ? { 'last-id': lastId } : {},
          'stream',
          pool,
        ),
      backfill: async (from, to) => (await client().tradesRange(pool, from, to)).trades,
      onData: (trades: Trade[], depth) => {
        this.d.publish(pool, { pool, trades, depth });
        if (trades.length > 0) this.d.onTrades?.(pool, trades);
      },
      onResume: (v) => {
        if (v.kind === 'backfill' && v.why === 'replay-starts-late')
          this.d.log(`pool ${pool}: the service's replay starts after the gap; reading the gap's start over REST`);
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
