import type { Trade } from '../../../shared/api';
import { describeForLog } from '../client/errors';
import type { CoreBus } from '../events';
import type { PushHub } from '../push-hub';
import type { ServiceLink } from '../service-link';
import type { MarketRepo } from '../store/market-repo';
import type { StoreHealth } from '../store/store-health';
import { poolStream } from './pool-stream';
import type { StreamSupervisor } from './supervisor';

export interface PoolStreamsDeps {
  supervisor: StreamSupervisor;
  repo: MarketRepo;
  /** The service's client, and whether streams may open now (a service is configured, the monitor is open). */
  link: Pick<ServiceLink, 'client' | 'mayAsk'>;
  /** How many views subscribe to a pool now (`pool:<name>`). */
  hub: Pick<PushHub, 'count'>;
  /** Publishes what each pool stream read (`poolStreamRead`: the page's push; the guard prices a pool in danger from its trades). */
  events: Pick<CoreBus, 'emit'>;
  /** Whether a pool's write worked again or failed, under the source `pool:<name>`. */
  storeHealth: Pick<StoreHealth, 'note'>;
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
    for (const pool of before) if (!this.guarded.has(pool) && this.d.hub.count(`pool:${pool}`) === 0) this.remove(pool);
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
    if (!this.d.link.mayAsk()) return;
    const client = (): ServiceLink['client'] => this.d.link.client;
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
      onData: (trades: Trade[], depth) => this.d.events.emit('poolStreamRead', { pool, trades, depth }),
      onBookBytes: (bytes) => this.d.events.emit('streamPacedBytes', { streamId: `pool:${pool}`, bytes }),
      onResume: (v) => {
        if (v.kind === 'backfill' && v.why === 'replay-starts-late')
          this.d.log(`pool ${pool}: the service's replay starts after the gap; reading the gap's start over REST`);
      },
      onError: (err) => this.d.log(`pool ${pool}: ${describeForLog(err)}`),
      onStoreState: (reason, err) => {
        if (reason !== null) {
          this.d.log(`pool ${pool}: ${reason}; its stream stops until writes work again`);
          this.d.supervisor.interrupt(`pool:${pool}`);
          this.d.storeHealth.note(err, `pool:${pool}`);
        } else {
          this.d.log(`pool ${pool}: writes work again; its stream resumes from its cursor`);
          this.d.storeHealth.note(undefined, `pool:${pool}`);
        }
      },
    });
    if (!this.d.supervisor.has(`pool:${pool}`)) this.flushers.set(pool, stream.flush);
    this.d.supervisor.add(stream.spec);
  }
}
