import { PacedTimer } from './paced-timer';
import type { ActiveLoan, MarginManager } from '../../../shared/api';
import { ESTIMATED_CREDITS } from '../../../shared/credit-prices';
import type { PositionSummary } from '../../../shared/contract';
import type { LiquidationMapView } from '../../../shared/liquidation-map';
import {
  bucketsOf,
  bucketWidth,
  clustersOf,
  mapEntryOf,
  type LiquidationParams,
  type MapEntry,
} from '../../../shared/risk-model';
import { describeForLog } from '../client/errors';
import type { ServiceClient } from '../client/service-client';
import type { LiquidationMapRead, LiquidationMapRepo } from '../store/liquidation-map-repo';
import type { StoreHealth } from '../store/store-health';
import type { AssetBook } from './asset-book';
import { holdingsOf } from './oracle-book';
import { paramsOf } from './risk-params';

/** How often every loan is read for the map, before the budget's pacing (docs/credits.md "What is read"). */
export const LIQUIDATION_MAP_INTERVAL_MS = 60 * 60_000;
/** The longest the budget may stretch it: the map is read at least once a day while anything is. */
export const LIQUIDATION_MAP_MAX_MS = 24 * 3_600_000;
/** Pages a read is taken to cost until one is made: 500 loans (the Demo network has 380 to 470). */
export const LIQUIDATION_MAP_PRIOR_PAGES = 10;
/**
 * How soon a read the store could not take (disk full) is written again, as the streams' failed
 * batches are (docs/operations.md "A failed commit"): the read is kept, not made again.
 */
export const LIQUIDATION_MAP_STORE_RETRY_MS = 5_000;
/** The map's writes in the store health: its failure stands until the map itself is written. */
export const LIQUIDATION_MAP_STORE_SOURCE = 'liquidation map';
/** At most this many pages of each list a read (25,000 loans). */
const MAX_PAGES = 500;
const PER_PAGE = 50;

export interface LiquidationMapDeps {
  client: () => ServiceClient;
  book: () => Promise<AssetBook>;
  repo: () => Pick<LiquidationMapRepo, 'replace' | 'entries' | 'lastRead' | 'markLiquidated' | 'liquidatedSince'>;
  storeHealth: Pick<StoreHealth, 'note'>;
  /** The trader's own managers (the watched wallets'): marked on the map. */
  own: () => ReadonlyMap<string, string>;
  /**
   * The watched positions with debt as last valued (risk-refresh.ts): on the map at their
   * liquidation price now, in place of the last read's (a partial liquidation since moved it, or
   * left it out until the next read while the position is still open).
   */
  valued?: () => readonly PositionSummary[];
  /** How often to read now: the plan in force (paced by the budget); null: not planned yet. */
  intervalMs: () => number | null;
  canRun: () => boolean;
  log: (line: string) => void;
  now?: () => number;
}

/**
 * The liquidation map (docs/valuation.md "The liquidation map"): every active loan of the protocol,
 * read from the protocol-wide `/dex-margin/active-loans` on the plan's interval (hourly, stretched
 * by the budget to a day), each with its manager's details; a manager whose details lack its pool
 * or holdings is looked up in the protocol-wide `/dex-margin/margin-managers`. Each manager's
 * liquidation price, debt and what its liquidation repays and trades (risk-model/liquidation-map.ts)
 * is kept per pool in the store, for the pool and manager pages and offline use.
 */
export class LiquidationMapWatch {
  /** A read the store could not take, to be written again (until it goes in, or a newer read replaces it). */
  private saveTimer: NodeJS.Timeout | undefined;
  private reading: Promise<void> | undefined;
  private readonly now: () => number;
  /** Managers reported liquidated, and when: marked again on a read saved that began before it. */
  private readonly liquidated = new Map<string, number>();
  /** When the next read is due. */
  private readonly pace: PacedTimer;

  constructor(private readonly d: LiquidationMapDeps) {
    this.now = d.now ?? Date.now;
    this.pace = new PacedTimer(
      () => this.every(),
      () => void this.read(),
      this.now,
    );
  }

  /** Read at once unless a read from the store is recent, then on the plan's interval. */
  start(): void {
    const kept = this.d.repo().lastRead();
    if (kept && this.now() - kept.readAt < this.every()) {
      this.pace.lastReadAt = kept.readAt;
      this.pace.arm();
      return;
    }
    void this.read();
  }

  /** The plan changed: the next read follows its interval from the last one. */
  retime(): void {
    if (this.pace.closed || this.reading) return;
    this.pace.arm();
  }

  /** Read every loan now (one request a page), and keep the map. */
  read(): Promise<void> {
    this.reading ??= this.once().finally(() => {
      this.reading = undefined;
      this.pace.arm();
    });
    return this.reading;
  }

  close(): void {
    this.pace.close();
    if (this.saveTimer) clearTimeout(this.saveTimer);
    this.saveTimer = undefined;
  }

  /** How often the loans are read now (the plan in force, as paced); null: not read, for the budget. */
  everyMs(): number | null {
    const every = this.every();
    return Number.isFinite(every) ? every : null;
  }

  /** Credits one read costs: its pages at the margin lists' estimate, as last read (or the prior). */
  readCredits(): number {
    return (this.d.repo().lastRead()?.pages ?? LIQUIDATION_MAP_PRIOR_PAGES) * ESTIMATED_CREDITS;
  }

  /**
   * Managers the margin stream reports liquidated (risk-services.ts, from the bus's
   * `managersLiquidated`): those liquidated at or after the last read are marked in the store and
   * left out of the map until the next read. Those liquidated since a read in flight began are
   * kept here and marked again once it is saved (its loans may have been listed before).
   */
  onLiquidated(liquidations: ReadonlyArray<{ manager_id: string; at: number }>): void {
    for (const l of liquidations)
      this.liquidated.set(l.manager_id, Math.max(l.at, this.liquidated.get(l.manager_id) ?? 0));
    try {
      this.d.repo().markLiquidated(liquidations);
    } catch (err) {
      // The store refused: the marks are kept here and made with the next save.
      this.d.log(`liquidation map: ${describeForLog(err)}`);
    }
  }

  /** The pool's map as last read, its own managers marked (null: the pool has none, or never read). */
  view(pool: string, tick: number | null): LiquidationMapView {
    const read = this.d.repo().lastRead();
    const own = this.d.own();
    const fresh = new Map<string, MapEntry>();
    for (const p of this.d.valued?.() ?? []) {
      if (p.pool_name !== pool) continue;
      const h = { base: p.base_amount, quote: p.quote_amount, debtBase: p.debt_base, debtQuote: p.debt_quote };
      const e = mapEntryOf(p.manager_id, h, p.risk_params, own.has(p.manager_id));
      if (e) fresh.set(p.manager_id, e);
    }
    const stored = this.d.repo().entries(pool);
    const kept = new Set(stored.map((e) => e.manager_id));
    const entries = [
      ...stored.filter((e) => !fresh.has(e.manager_id)).map((e) => ({ ...e, own: own.has(e.manager_id) })),
      ...fresh.values(),
    ].sort((a, b) => a.price - b.price);
    // A watched position the last read has not (liquidated since, in part) is on the map again.
    const back = [...fresh.keys()].filter((id) => !kept.has(id)).length;
    const left = Math.max(0, this.d.repo().liquidatedSince(pool) - back);
    return viewOf(pool, entries, tick, read, this.everyMs(), left);
  }

  private every(): number {
    return this.d.intervalMs() ?? LIQUIDATION_MAP_INTERVAL_MS;
  }

  /**
   * Keep a read in the store; if the store cannot take it, keep it here and write it again soon
   * (the read paid for is not thrown away, nor is the status left saying the store fails until the
   * next read, an hour or a day away).
   */
  private save(read: LiquidationMapRead, byPool: Map<string, MapEntry[]>): void {
    if (this.saveTimer) clearTimeout(this.saveTimer);
    this.saveTimer = undefined;
    try {
      this.d.repo().replace(read, byPool);
      // A liquidation since the read began is not known to it; one before it is.
      for (const [id, at] of this.liquidated) if (at < read.readAt) this.liquidated.delete(id);
      this.d.repo().markLiquidated([...this.liquidated].map(([manager_id, at]) => ({ manager_id, at })));
      this.d.storeHealth.note(undefined, LIQUIDATION_MAP_STORE_SOURCE);
    } catch (err) {
      this.d.storeHealth.note(err, LIQUIDATION_MAP_STORE_SOURCE);
      if (this.pace.closed) return;
      this.saveTimer = setTimeout(() => this.save(read, byPool), LIQUIDATION_MAP_STORE_RETRY_MS);
      this.saveTimer.unref?.();
    }
  }

  private async once(): Promise<void> {
    if (this.pace.closed || !this.d.canRun()) return;
    const at = this.now();
    try {
      const client = this.d.client();
      const [loans, book] = await Promise.all([pagesOf((page) => client.activeLoans(undefined, page)), this.d.book()]);
      const managers = new Map<string, MarginManager>();
      let pages = loans.pages;
      // A service whose nested details leave out the pool or the holdings: the managers' own list.
      if (loans.items.some((l) => !placed(l))) {
        const listed = await pagesOf((page) => client.marginManagers(undefined, page));
        pages += listed.pages;
        for (const m of listed.items) managers.set(m.margin_manager_id, m);
      }
      this.pace.lastReadAt = at;
      if (this.pace.closed) return;
      const { byPool, unplaced } = mapOf(loans.items, managers, book);
      const read: LiquidationMapRead = { readAt: at, pages, loans: loans.items.length, unplaced };
      this.save(read, byPool);
    } catch (err) {
      // Tried: the next read waits its interval; the map kept answers meanwhile.
      this.pace.lastReadAt = at;
      if (!this.pace.closed) this.d.log(`liquidation map: ${describeForLog(err)}`);
    }
  }
}

/** Every item of a protocol-wide list, one page at a time (a page asked ahead costs as much as a full one). */
async function pagesOf<T>(
  fetch: (p: { page: number; perPage: number }) => Promise<{ items: T[]; isLastPage: boolean }>,
): Promise<{ items: T[]; pages: number }> {
  const items: T[] = [];
  let pages = 0;
  for (let page = 0; page < MAX_PAGES; page++) {
    const r = await fetch({ page, perPage: PER_PAGE });
    pages++;
    items.push(...r.items);
    if (r.isLastPage || r.items.length === 0) break;
  }
  return { items, pages };
}

/** Whether a loan's nested manager carries what the map needs: its pool and its holdings. */
const placed = (l: ActiveLoan): boolean => Boolean(l.margin_manager?.dex_pool_id && l.margin_manager.deposit);

/**
 * The map of every pool from the protocol's loans: each manager's loans gathered, its holdings
 * from its details (nested, or the managers' list), its entry at its pool's parameters.
 */
export function mapOf(
  loans: readonly ActiveLoan[],
  managers: ReadonlyMap<string, MarginManager>,
  book: AssetBook,
): { byPool: Map<string, MapEntry[]>; unplaced: Record<string, number> } {
  const byManager = new Map<string, ActiveLoan[]>();
  for (const l of loans) {
    const list = byManager.get(l.margin_manager_id);
    if (list) list.push(l);
    else byManager.set(l.margin_manager_id, [l]);
  }
  const byPool = new Map<string, MapEntry[]>();
  const unplaced: Record<string, number> = {};
  for (const [id, its] of byManager) {
    const nested = its[0]!.margin_manager;
    const listed = managers.get(id);
    const poolId = nested?.dex_pool_id ?? listed?.dex_pool_id;
    const pool = poolId ? book.poolsById.get(poolId) : undefined;
    if (!pool) continue;
    const deposit = nested?.deposit ?? listed?.deposit;
    const h = deposit ? holdingsOf({ dex_pool_id: pool.pool_id, deposit, active_loans: its }, book) : null;
    const params: LiquidationParams = paramsOf(book.risk, pool.pool_id);
    const entry = h ? mapEntryOf(id, h, params) : null;
    if (!entry) {
      if (!h) unplaced[pool.pool_name] = (unplaced[pool.pool_name] ?? 0) + 1;
      continue;
    }
    const list = byPool.get(pool.pool_name);
    if (list) list.push(entry);
    else byPool.set(pool.pool_name, [entry]);
  }
  for (const list of byPool.values()) list.sort((a, b) => a.price - b.price);
  return { byPool, unplaced };
}

/** The view of one pool's entries: its buckets (about 0.5 % of the middle liquidation price, in ticks) and clusters. */
export function viewOf(
  pool: string,
  entries: MapEntry[],
  tick: number | null,
  read: LiquidationMapRead | null,
  everyMs: number | null,
  liquidated = 0,
): LiquidationMapView {
  const middle = entries.length > 0 ? entries[Math.floor(entries.length / 2)]!.price : 0;
  const width = middle > 0 ? bucketWidth(middle, tick ?? 0) : 0;
  const buckets = bucketsOf(entries, width);
  return {
    pool,
    entries,
    buckets,
    width,
    clusters: clustersOf(buckets),
    readAt: read?.readAt ?? null,
    everyMs,
    loans: read?.loans ?? 0,
    pages: read?.pages ?? 0,
    unplaced: read?.unplaced[pool] ?? 0,
    liquidated,
  };
}
