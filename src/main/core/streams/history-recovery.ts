import { EVENT_TYPES, type Liquidation } from '../../../shared/api';
import type { HistoryGap } from '../../../shared/contract';
import { riskRatioToStream } from '../../../shared/units';
import { allItems } from '../client/paging';
import type { ServiceClient } from '../client/service-client';
import type { GapRepo } from '../store/gap-repo';
import type { IncomingMarginEvent, MarginEventRepo } from '../store/margin-events';

/** Without the margin stream for longer than this, a reconnect checks what the replay missed. */
export const GAP_CHECK_AFTER_MS = 60_000;
/** The replay of retained events comes first: the check runs this long after the reconnect. */
export const CATCH_UP_MS = 5_000;
/** How often "the stream is alive" is noted (and kept in the store, for the next start). */
const ALIVE_EVERY_MS = 15_000;
/** Pages of 50 liquidations read per recovery, protocol-wide and per watched owner. */
const MAX_PAGES = 20;

export interface HistoryRecoveryDeps {
  client: () => ServiceClient;
  repo: MarginEventRepo;
  gaps: GapRepo;
  /** The margin stream is open right now. */
  isOpen(): boolean;
  watchedOwners(): string[];
  /** Persisted "alive at" (ms), so a start after a night asleep knows how long it was away. */
  loadAliveAt(): number | undefined;
  saveAliveAt(ms: number): void;
  /** Liquidations that were stored by the recovery: alert, push, refresh risk. */
  onRecovered(events: IncomingMarginEvent[]): void;
  refreshRisk(): Promise<unknown>;
  onGap(gap: HistoryGap): void;
  log(line: string): void;
}

/** A liquidation from `GET /dex-margin/liquidations` as the stream would have carried it. */
export function liquidationAsEvent(l: Liquidation, owner?: string): IncomingMarginEvent {
  return {
    id: `rest-${l.digest}-${l.margin_manager_id}`,
    type: EVENT_TYPES.liquidation,
    timestamp_ms: l.checkpoint_timestamp_ms,
    checkpoint_id: l.checkpoint,
    tx_hash: l.digest,
    margin_manager_id: l.margin_manager_id,
    data: JSON.stringify({
      margin_manager_id: l.margin_manager_id,
      margin_pool_id: l.margin_pool_id,
      liquidation_amount: l.liquidation_amount,
      pool_reward: l.pool_reward,
      pool_default: l.pool_default,
      // The stream scales the ratio by 1,000,000; stored rows keep the stream's form.
      risk_ratio: riskRatioToStream(l.risk_ratio),
      remaining_base_asset: l.remaining_base_asset,
      remaining_quote_asset: l.remaining_quote_asset,
      timestamp: l.onchain_timestamp,
      // Not in the stream's form: who owns the manager, so its alert does not wait for a risk refresh.
      ...((owner ?? l.margin_manager?.owner) ? { owner: owner ?? l.margin_manager?.owner } : {}),
    }),
    valid: true,
    problem: null,
    recovered: true,
  };
}

/**
 * Gaps beyond the stream's retention (a laptop asleep overnight, a long outage): after a start
 * or a reconnect that followed more than a minute without the margin stream, and once the replay has
 * caught up, liquidations since the cursor's checkpoint are read over REST (protocol-wide and
 * per watched owner), those the replay did not bring are stored (deduplicated by transaction
 * and manager) and alerted, watched loans are refreshed, and the user is told which span of
 * stream history could not be replayed.
 */
export class HistoryRecovery {
  private aliveAt: number | undefined;
  private lastSaved = 0;
  private readonly timer: NodeJS.Timeout;
  private pending: NodeJS.Timeout | undefined;
  private running: Promise<HistoryGap | null> | undefined;
  private closed = false;

  constructor(private readonly deps: HistoryRecoveryDeps) {
    this.aliveAt = deps.loadAliveAt();
    this.timer = setInterval(() => this.noteAlive(), ALIVE_EVERY_MS);
    this.timer.unref();
  }

  /** The stream carried something or is open: it is alive now. */
  noteAlive(now = Date.now()): void {
    if (!this.deps.isOpen()) return;
    this.aliveAt = now;
    if (now - this.lastSaved >= ALIVE_EVERY_MS) {
      this.lastSaved = now;
      try {
        this.deps.saveAliveAt(now);
      } catch {
        // the store refuses writes: the stream reports that itself
      }
    }
  }

  /** The margin stream (re)opened: if it was away long enough, check what the replay missed. */
  onOpen(now = Date.now()): void {
    const since = this.aliveAt;
    this.aliveAt = now;
    if (since === undefined || now - since <= GAP_CHECK_AFTER_MS || this.closed) return;
    const from = this.deps.repo.lastCheckpoint();
    if (this.pending) clearTimeout(this.pending);
    this.pending = setTimeout(() => {
      this.pending = undefined;
      void this.recover(since, now, from);
    }, CATCH_UP_MS);
  }

  /** Read liquidations since `fromCheckpoint`, store those the stream did not bring. */
  recover(fromMs: number, toMs: number, fromCheckpoint: number | null): Promise<HistoryGap | null> {
    this.running ??= this.run(fromMs, toMs, fromCheckpoint).finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  private async run(fromMs: number, toMs: number, fromCheckpoint: number | null): Promise<HistoryGap | null> {
    const refresh = this.deps.refreshRisk().catch(() => undefined);
    if (fromCheckpoint === null) {
      await refresh;
      return null;
    }
    const client = this.deps.client();
    const seen = new Map<string, { l: Liquidation; owner?: string }>();
    try {
      for (const owner of [undefined, ...this.deps.watchedOwners()]) {
        const pages = allItems((page, perPage) => client.liquidations(owner, { fromCheckpoint, page, perPage }), {
          maxPages: MAX_PAGES,
          prefetch: 0,
        });
        for await (const l of pages)
          seen.set(`${l.digest}|${l.margin_manager_id}`, {
            l,
            owner: owner ?? seen.get(`${l.digest}|${l.margin_manager_id}`)?.owner,
          });
      }
    } catch (err) {
      this.deps.log(
        `could not check for liquidations missed between ${new Date(fromMs).toISOString()} and ${new Date(toMs).toISOString()}: ${(err as Error).message}`,
      );
      await refresh;
      return null;
    }
    if (this.closed) return null;
    const events = [...seen.values()]
      .sort((a, b) => a.l.checkpoint_timestamp_ms - b.l.checkpoint_timestamp_ms)
      .map((x) => liquidationAsEvent(x.l, x.owner));
    const fresh = this.deps.repo.addRecovered(events);
    await refresh;
    if (fresh.length === 0) return null;
    const gap: HistoryGap = {
      fromMs,
      toMs,
      recoveredLiquidations: fresh.length,
      message: `The service could no longer replay stream history for this span. ${fresh.length} liquidation${fresh.length === 1 ? ' was' : 's were'} fetched from the service instead; deposits and withdrawals of that span are missing from Live events.`,
    };
    this.deps.gaps.add(gap);
    this.deps.onRecovered(fresh);
    this.deps.onGap(gap);
    return gap;
  }

  close(): void {
    this.closed = true;
    clearInterval(this.timer);
    if (this.pending) clearTimeout(this.pending);
  }
}
