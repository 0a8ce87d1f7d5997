import { EventEmitter } from 'node:events';
import type { Depth, Trade } from '../../shared/api';
import { EVENT_TYPES } from '../../shared/api';
import { checkpointAt, DAY_MS } from '../clock';
import { MarginEventLog } from '../event-log';
import { objectId, Rng } from '../rng';
import { POOL_SPECS } from './assets';
import { MarginEngine } from './margin';
import { EPOCH_MS, Market, MAX_TAKERS_PER_WALL_SECOND, type TradeRecord } from './market';
import { buildNfts, type NftWorld } from './nfts';
import { PriceOracle, PricePath } from './prices';
import { tradeStreamId, tradeToWire } from './series';

export interface WorldOptions {
  seed: number;
  /** Wall time the history ends at (the sim's start); defaults to now. */
  nowMs?: number;
  /** Days of history generated before `nowMs`. */
  historyDays?: number;
  /** Retained events of the margin stream (for `last-id=0`). */
  retention?: number;
  /**
   * Leave the history to `buildSlice` (the sim generates it in slices while it already listens,
   * so nothing else in the process waits for it). Default: generated in the constructor.
   */
  gradual?: boolean;
  /**
   * Owners of margin managers (default 36, `DEFAULT_MARGIN_OWNERS`): a desk of many wallets. More
   * owners make a chain of their own (its draws differ from the first), with about as many loans
   * per owner: 100 owners hold about 1,100.
   */
  marginOwners?: number;
}

/** Market time per step while generating history (live ticks use smaller steps). */
const HISTORY_STEP_SEC = 10;
/** A long-running demo keeps this much trade history per pool. */
const TRADE_RETENTION_MS = 8 * DAY_MS;
const MAX_TRADES_PER_POOL = 400_000;
const MAX_CATCH_UP_MS = 60_000;

export interface PoolEvents {
  trade: (trade: Trade, envelope: { checkpoint_id: number; tx_hash: string }) => void;
  depth: (depth: Depth) => void;
}

/**
 * The whole synthetic chain: prices, order books and trades, NFTs and Kiosks, the margin
 * protocol and its event log. Built deterministically from a seed; `advanceTo` moves it
 * forward in wall time, `speed` times faster in market activity.
 */
export class World {
  readonly seed: number;
  readonly startMs: number;
  readonly packageId: string;
  readonly oracle: PriceOracle;
  readonly markets: Market[];
  readonly marketsByName = new Map<string, Market>();
  readonly nfts: NftWorld;
  readonly margin: MarginEngine;
  readonly log: MarginEventLog;
  /** Per pool name: 'trade' and 'depth' events for the pool streams. */
  readonly poolBus = new EventEmitter();
  private clockMs: number;
  private readonly warmupEnd: number;
  /**
   * How far the history is (see `buildSlice`): 'margin' (prices and the margin protocol, step by
   * step), 'current' (each pool's current epoch, replayed on the recorded prices), 'past' (the
   * older epochs' trades), 'done'.
   */
  private phase: 'margin' | 'current' | 'past' | 'done' = 'margin';
  private path: PricePath | null;
  private readonly historyStartMs: number;
  /** Where 'current' and 'past' are: the pool, the epoch being replayed and its next step. */
  private replay: {
    pool: number;
    epoch: number;
    step: number;
    market: Market | null;
    older: Array<Array<readonly TradeRecord[]>>;
  } = { pool: 0, epoch: 0, step: 0, market: null, older: [] };

  constructor(opts: WorldOptions) {
    this.seed = opts.seed;
    this.startMs = opts.nowMs ?? Date.now();
    const historyMs = Math.round((opts.historyDays ?? 3.25) * DAY_MS);
    const rng = new Rng(opts.seed);
    this.packageId = objectId(rng.fork('package'));
    this.oracle = new PriceOracle(rng.fork('prices'));
    const marketRng = rng.fork('markets');
    this.historyStartMs = this.startMs - historyMs;
    this.path = new PricePath(this.oracle, Math.ceil(historyMs / (HISTORY_STEP_SEC * 1000)));
    const current = this.epochOf(this.startMs);
    this.markets = POOL_SPECS.map((spec) => new Market(spec, marketRng.fork(spec.name), this.path!, current));
    for (const m of this.markets) this.marketsByName.set(m.pool.pool_name, m);
    this.poolBus.setMaxListeners(0);
    this.log = new MarginEventLog(opts.retention ?? 10_000);
    this.nfts = buildNfts(rng.fork('nfts'), this.startMs);
    this.clockMs = this.startMs - historyMs;
    const marginRng = rng.fork('margin');
    this.margin = new MarginEngine(
      marginRng,
      this.oracle,
      this.markets,
      (type, ms, data, digest) => {
        this.log.append(ms, {
          type,
          timestamp_ms: ms,
          checkpoint_id: checkpointAt(ms),
          tx_hash: digest,
          data,
        });
      },
      this.clockMs,
      opts.seed,
      opts.marginOwners,
    );
    this.warmupEnd = this.clockMs + 12 * 3_600_000;
    if (!opts.gradual) this.buildSlice(Number.POSITIVE_INFINITY);
  }

  /** Advance every part by one step of history or live time (`live`: trades go out on the pool streams). */
  private stepAll(dtSec: number, ms: number, live: boolean): void {
    this.oracle.step(dtSec);
    for (const m of this.markets) {
      const made = m.step(dtSec, ms);
      if (live && made.length > 0) {
        const channel = `trade:${m.pool.pool_name}`;
        if (this.poolBus.listenerCount(channel) > 0) {
          const first = m.trades.length - made.length;
          made.forEach((rec, j) =>
            this.poolBus.emit(channel, tradeToWire(m, rec, this.packageId), tradeStreamId(m.trades, first + j)),
          );
        }
      }
    }
    this.margin.step(dtSec, ms, false);
  }

  /**
   * True once the world as of `startMs` exists: margin history, prices and every pool's current
   * book (at once unless built `gradual`). Older trades may still be coming: see `historyBuilt`.
   */
  get built(): boolean {
    return this.phase === 'past' || this.phase === 'done';
  }

  /** True once every trade of the history exists too. */
  get historyBuilt(): boolean {
    return this.phase === 'done';
  }

  /**
   * Every trade after this time (ms) exists: today's epoch's once the world is `built` (the older
   * epochs, replayed after it, only add trades at or before its start), every one once the history
   * is; none before.
   */
  get tradesCompleteAfter(): number {
    if (this.historyBuilt) return Number.NEGATIVE_INFINITY;
    return this.built ? this.epochStart(this.epochOf(this.startMs)) : Number.POSITIVE_INFINITY;
  }

  /** True once prices and the margin protocol reach `startMs` (books may still be replayed). */
  get marginBuilt(): boolean {
    return this.phase !== 'margin';
  }

  /**
   * Generate history for at most `budgetMs` of CPU; returns `historyBuilt`. First prices and the
   * margin protocol step by step over the whole history (prices recorded), then each pool's
   * current epoch replayed on those prices (`built`: everything of today answers), then the older
   * epochs, which only add trades in front. History runs at speed 1, so timestamps and market
   * time agree; slices only cut the same steps at other places, so the chain is the same whether
   * it is built at once or in slices.
   */
  buildSlice(budgetMs: number): boolean {
    const until = performance.now() + budgetMs;
    let n = 0;
    const path = this.path!;
    while (this.phase === 'margin' && this.clockMs < this.startMs) {
      const ms = Math.min(this.startMs, this.clockMs + HISTORY_STEP_SEC * 1000);
      const dt = (ms - this.clockMs) / 1000;
      this.oracle.step(dt);
      path.record(dt, ms);
      this.margin.step(dt, ms, ms < this.warmupEnd);
      this.clockMs = ms;
      if (++n % 64 === 0 && performance.now() >= until) return false;
    }
    if (this.phase === 'margin') this.startReplay('current', this.epochOf(this.startMs));
    while (this.phase === 'current' || this.phase === 'past') {
      const r = this.replay;
      const market = (r.market ??= this.openEpoch(r.pool, r.epoch));
      // The epoch's steps: those ending after its start, up to its end (or the history's).
      while (r.step <= path.steps && path.msAt(r.step) <= this.epochStart(r.epoch + 1)) {
        path.row = r.step;
        market.step(path.dtAt(r.step), path.msAt(r.step));
        r.step++;
        if (++n % 64 === 0 && performance.now() >= until) return false;
      }
      this.epochDone();
    }
    return this.historyBuilt;
  }

  /** Epoch of the step ending at `ms` (steps ending exactly on a boundary belong to the epoch before). */
  private epochOf(ms: number): number {
    return Math.max(0, Math.floor((ms - 1 - this.historyStartMs) / EPOCH_MS));
  }

  private epochStart(epoch: number): number {
    return this.historyStartMs + epoch * EPOCH_MS;
  }

  private startReplay(phase: 'current' | 'past', epoch: number): void {
    this.phase = phase;
    this.replay = { pool: 0, epoch, step: this.firstStepOf(epoch), market: null, older: this.markets.map(() => []) };
  }

  /** The first step ending after the epoch's start (row 0 is the prices before any step). */
  private firstStepOf(epoch: number): number {
    const start = this.epochStart(epoch);
    let step = Math.max(1, Math.floor((start - this.historyStartMs) / (HISTORY_STEP_SEC * 1000)));
    while (step > 1 && this.path!.msAt(step - 1) > start) step--;
    while (step <= this.path!.steps && this.path!.msAt(step) <= start) step++;
    return step;
  }

  /** The market that replays the epoch: the live one for the current epoch, a scratch one before. */
  private openEpoch(pool: number, epoch: number): Market {
    const market =
      this.phase === 'current'
        ? this.markets[pool]!
        : new Market(POOL_SPECS[pool]!, this.markets[pool]!, this.path!, epoch);
    this.path!.row = this.replay.step - 1;
    market.open();
    return market;
  }

  private epochDone(): void {
    const r = this.replay;
    if (this.phase === 'past') r.older[r.pool]!.push(r.market!.trades);
    r.market = null;
    if (++r.pool < this.markets.length) {
      r.step = this.firstStepOf(r.epoch);
      return;
    }
    if (this.phase === 'current') {
      // Today's books exist: live steps read the live oracle (the path's last row) from here on.
      for (const m of this.markets) m.usePrices(this.oracle);
      const past = this.epochOf(this.startMs) - 1;
      if (past >= 0) this.startReplay('past', past);
      else this.finish();
      return;
    }
    r.pool = 0;
    if (--r.epoch >= 0) {
      r.step = this.firstStepOf(r.epoch);
      return;
    }
    // Older epochs were replayed newest first: put them in time order in front of each pool's trades.
    this.markets.forEach((m, i) => m.prependHistory(r.older[i]!.reverse().flat()));
    this.finish();
  }

  private finish(): void {
    this.phase = 'done';
    this.path = null;
  }

  get now(): number {
    return this.clockMs;
  }

  /**
   * Move the clock `ms` ahead with prices held and nobody trading: only interest accrues, in
   * steps of `stepSec` as live time accrues it (tests check the client's projection against it).
   * Live time resumes once the wall clock passes the new time.
   */
  accrueFor(ms: number, stepSec = 10): void {
    const steps = Math.max(1, Math.ceil(ms / 1000 / stepSec));
    for (let i = 0; i < steps; i++) this.margin.book.accrue(ms / 1000 / steps);
    this.clockMs += ms;
  }

  /**
   * Bring the `symbol` margin pool to `utilization` as its suppliers would, withdrawing or
   * supplying (a test's control: a pool driven across its interest curve's kink;
   * MarginPools.driveUtilization). Its borrow rate follows at once, on the curve.
   */
  driveUtilization(symbol: string, utilization: number): void {
    this.margin.book.driveUtilization(symbol, utilization, this.clockMs);
  }

  /**
   * Move wall time forward to `ms`; market activity covers (ms - now) x speed of market time,
   * cut into steps of at most `maxStepSec`.
   */
  advanceTo(ms: number, speed: number, maxStepSec = 10): void {
    if (ms <= this.clockMs || !this.built) return;
    // After a long pause (a suspended laptop, a debugger) catch up at most MAX_CATCH_UP_MS of activity.
    const from = Math.max(this.clockMs, ms - MAX_CATCH_UP_MS);
    const marketSec = ((ms - from) / 1000) * speed;
    const steps = Math.max(1, Math.ceil(marketSec / maxStepSec));
    const budget = Math.max(1, Math.round(((ms - from) / 1000) * MAX_TAKERS_PER_WALL_SECOND));
    for (const m of this.markets) m.takerBudget = budget;
    for (let i = 1; i <= steps; i++) {
      const at = Math.round(from + ((ms - from) * i) / steps);
      this.stepAll(marketSec / steps, at, true);
    }
    this.clockMs = ms;
    for (const m of this.markets) {
      m.takerBudget = Number.POSITIVE_INFINITY;
      if (m.takeDepthChange() && this.poolBus.listenerCount(`depth:${m.pool.pool_name}`) > 0) {
        this.poolBus.emit(`depth:${m.pool.pool_name}`, m.depth(20));
      }
      const trades = m.trades;
      if (trades.length > MAX_TRADES_PER_POOL) m.forgetBefore(trades[trades.length - MAX_TRADES_PER_POOL]!.ms);
      else if (trades.length > 0 && trades[0]!.ms < ms - TRADE_RETENTION_MS) m.forgetBefore(ms - TRADE_RETENTION_MS);
    }
  }

  /** What the API alone cannot discover (for `sim --describe`). */
  describe(): {
    wallets: string[];
    kiosks: string[];
    collections: string[];
    pools: string[];
    marginOwners: string[];
    /** Every owner worth a look, with what it holds: NFTs, Kiosks, margin managers and open loans. */
    owners: DemoOwner[];
  } {
    const holders = new Set<string>();
    for (const n of this.nfts.nfts) holders.add(n.owner ?? n.kiosk?.owner ?? '');
    holders.delete('');
    const withKiosk = new Set(this.nfts.kiosks.map((k) => k.item.owner));
    // Wallets with Kiosks first: they show both ways of holding an NFT.
    const wallets = [...holders].sort((a, b) => Number(withKiosk.has(b)) - Number(withKiosk.has(a)));
    return {
      wallets,
      kiosks: this.nfts.kiosks.map((k) => k.item.object_id),
      collections: this.nfts.collections,
      pools: this.markets.map((m) => m.pool.pool_name),
      marginOwners: [...new Set(this.margin.managers.map((m) => m.owner))],
      owners: this.owners(),
    };
  }

  /** Owners with their NFT, Kiosk, manager and loan counts, the richest in both first. */
  owners(): DemoOwner[] {
    const by = new Map<string, DemoOwner>();
    const get = (owner: string): DemoOwner => {
      let o = by.get(owner);
      if (!o) by.set(owner, (o = { owner, nfts: 0, kiosks: 0, managers: 0, loans: 0 }));
      return o;
    };
    for (const n of this.nfts.nfts) {
      const owner = n.owner ?? n.kiosk?.owner;
      if (owner) get(owner).nfts++;
    }
    for (const k of this.nfts.kiosks) get(k.item.owner).kiosks++;
    for (const m of this.margin.managers) {
      if (m.closed) continue;
      const o = get(m.owner);
      o.managers++;
      if (m.debt) o.loans++;
    }
    const score = (o: DemoOwner): number =>
      Math.min(o.nfts, 50) / 50 + Math.min(o.kiosks, 2) / 2 + Math.min(o.loans, 5) / 5;
    return [...by.values()].sort((a, b) => score(b) - score(a) || b.nfts - a.nfts);
  }
}

export { EVENT_TYPES };

export interface DemoOwner {
  owner: string;
  nfts: number;
  kiosks: number;
  managers: number;
  loans: number;
}
