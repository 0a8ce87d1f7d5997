import type { EventSourceMessage } from 'eventsource-parser';
import * as v from 'valibot';
import { DepthSchema, EVENT_TYPES, TradeSchema, type Depth, type Trade } from '../../../shared/api';
import type { NamingProfile } from '../client/naming';
import type { MarketRepo } from '../store/market-repo';
import { describeStoreError } from '../store/store-errors';
import { GroupCommit } from './group-commit';
import { REPLAY_WAIT_MS, resumeVerdict, type ResumeVerdict } from './pool-resume';
import type { StreamSpec } from './supervisor';

export interface PoolStreamOptions {
  pool: string;
  priority: number;
  repo: MarketRepo;
  naming: () => NamingProfile;
  /** The stream's URL, resuming after `lastId` (the newest stored trade's stream id) when there is one. */
  url(lastId: string | undefined): string;
  /** Trades of [fromSec, toSec] from REST, to fill the gap after a reconnect. */
  backfill(fromSec: number, toSec: number): Promise<Trade[]>;
  /** How a reconnect's gap was filled (tests, logs). */
  onResume?(verdict: ResumeVerdict): void;
  onData(trades: Trade[], depth: Depth | null): void;
  /** The bytes of a book's event as received (the credit plan counts them apart: credits/stream-volume.ts). */
  onBookBytes?(bytes: number): void;
  onError?(err: unknown): void;
  /**
   * The store refused a commit (`reason`, e.g. "cannot write to the store: disk full"), or
   * accepts writes again (null). The stream should be interrupted on a failure: it then stays
   * stopped (`blocked`) until the failed write goes in, and reconnects from the stored cursor.
   */
  onStoreState?(reason: string | null, err?: unknown): void;
}

/**
 * The pool stream of one pool: trades stored (deduped by event_digest) with the newest one's stream id,
 * depth kept as the latest snapshot only. Every (re)connect sends `last-id`; when the service
 * replays the gap nothing is read over REST, otherwise the gap is backfilled from
 * GET /dex/{pool}/trades starting at the last stored trade's second (streams/pool-resume.ts).
 * A commit the store refuses (a full disk) stops the stream, as the margin stream's does: nothing more is
 * written or shown until that write goes in (`blocked`, asked before every connect), then the
 * reconnect from the stored cursor brings the trades read meanwhile again (replayed or backfilled).
 */
export function poolStream(opts: PoolStreamOptions): { spec: StreamSpec; flush(): void } {
  let latestDepth: Depth | null = null;
  /** Stream id of the newest trade handed to the group commit (the cursor it commits with). */
  let lastStreamId: string | undefined;
  /** A reconnect waiting for its first trade to tell a replay from live trades. */
  let resume: { lastMs: number; openedAt: number; timer: NodeJS.Timeout } | undefined;
  /** A write the store refused, kept to be tried again before the next connect. */
  let failed: { trades: Trade[]; streamId: string | undefined; depth: Depth | null; reason: string } | null = null;
  /**
   * Flushed: the stream was removed, or the app is closing and the store closes next. What comes
   * after (an event parsed from a chunk already read, a backfill answering late) is not written: a
   * write then failed with "The database connection is not open" at every shutdown. The next
   * stream of the pool reads it again from the stored cursor.
   */
  let ended = false;
  const store = (trades: Trade[], streamId: string | undefined, depth: Depth | null): void => {
    if (trades.length > 0) opts.repo.addTrades(opts.pool, trades, streamId);
    if (depth) opts.repo.setDepth(opts.pool, depth);
  };
  const write = (trades: Trade[], depth: Depth | null): void => {
    if (failed !== null || ended) return; // read after the failure: it comes again after the reconnect
    try {
      store(trades, lastStreamId, depth);
    } catch (err) {
      failed = { trades, streamId: lastStreamId, depth, reason: describeStoreError(err) };
      opts.onStoreState?.(failed.reason, err);
      return;
    }
    opts.onData(trades, depth);
  };
  const commit = new GroupCommit<Trade>({
    commitBatch: (trades) => {
      const depth = latestDepth;
      latestDepth = null;
      write(trades, depth);
    },
  });
  const flushDepthOnly = (): void => {
    if (commit.size === 0 && latestDepth) {
      const depth = latestDepth;
      latestDepth = null;
      write([], depth);
    }
  };
  let depthTimer: NodeJS.Timeout | undefined;
  const flush = (): void => {
    if (depthTimer) clearTimeout(depthTimer);
    depthTimer = undefined;
    if (resume) clearTimeout(resume.timer);
    resume = undefined;
    commit.flush();
    flushDepthOnly();
    ended = true;
  };
  const backfill = (fromSec: number, toSec: number): void => {
    opts
      .backfill(fromSec, toSec)
      .then((trades) => {
        if (ended) return;
        const added = opts.repo.addTrades(opts.pool, trades);
        if (added > 0) opts.onData(trades, null);
      })
      .catch((err: unknown) => {
        if (!ended) opts.onError?.(err);
      });
  };
  const settle = (firstTradeMs: number | undefined): void => {
    if (!resume) return;
    clearTimeout(resume.timer);
    const verdict = resumeVerdict(resume.lastMs, resume.openedAt, firstTradeMs, Date.now());
    resume = undefined;
    opts.onResume?.(verdict);
    if (verdict.kind === 'backfill') backfill(verdict.fromSec, verdict.toSec);
  };
  const spec: StreamSpec = {
    id: `pool:${opts.pool}`,
    priority: opts.priority,
    url: () => opts.url(opts.repo.lastTradeStreamId(opts.pool)),
    onOpen: () => {
      if (resume) clearTimeout(resume.timer);
      resume = undefined;
      const last = opts.repo.lastTradeMs(opts.pool);
      if (last === undefined) return;
      const openedAt = Date.now();
      // Nothing to resume from (trades only from REST, or a service without ids): backfill at once.
      if (opts.repo.lastTradeStreamId(opts.pool) === undefined)
        return backfill(Math.floor(last / 1000), Math.floor(openedAt / 1000));
      resume = { lastMs: last, openedAt, timer: setTimeout(() => settle(undefined), REPLAY_WAIT_MS) };
    },
    blocked: () => {
      if (failed === null) return null;
      try {
        store(failed.trades, failed.streamId, failed.depth);
      } catch (err) {
        return (failed.reason = describeStoreError(err));
      }
      failed = null;
      opts.onStoreState?.(null);
      return null;
    },
    onEvent: (m: EventSourceMessage) => {
      if (failed !== null || ended) return;
      let msg: unknown;
      try {
        msg = opts.naming().toSpec(JSON.parse(m.data));
      } catch {
        return;
      }
      const env = msg as { type?: unknown; data?: unknown };
      if (env.type === EVENT_TYPES.liveTrade) {
        const t = v.safeParse(TradeSchema, env.data);
        if (t.success) {
          if (resume) settle(t.output.checkpoint_timestamp_ms);
          if (m.id) lastStreamId = m.id;
          commit.push(t.output);
        }
      } else if (env.type === EVENT_TYPES.depth) {
        opts.onBookBytes?.(Buffer.byteLength(m.data));
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
