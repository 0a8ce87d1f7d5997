import type { PortfolioSummary, PositionSummary, RiskReading } from '../../../shared/contract';
import type { RiskThresholds } from '../../../shared/risk-model';
import type { AlertEngine } from '../alerts/alert-engine';
import type { EscalationRules } from '../alerts/escalation';
import { describeForLog, ServiceError } from '../client/errors';
import type { CoreBus } from '../events';
import type { ServiceLink } from '../service-link';
import type { SettingsService } from '../settings';
import type { Store } from '../store/store';
import type { StoreHealth } from '../store/store-health';
import type { WatchRegistry } from '../watch-registry';

/** After a quota error the loop waits this long before it asks the service again. */
const QUOTA_PAUSE_MS = 15 * 60_000;
/** setTimeout's longest wait; a longer one fires at once (and warns). */
const MAX_TIMER_MS = 2 ** 31 - 1;
import type { AssetBook, AssetBookCache } from './asset-book';
import type { EventUnits } from './event-amounts';
import { managerHistory } from './manager-history';
import {
  assetsOf,
  readAndValue,
  valuePortfolio,
  readRecords,
  type PortfolioRead,
  type ValuationDeps,
  type ValuedManager,
  type WalletRecords,
} from './portfolio';
import { describePosition, interestWords } from '../alerts/position-text';
import { interestRepairOf } from './positions';
import type { OracleBook } from './oracle-book';
import type { PriceBook } from './prices';
import { DEFAULT_RISK_PARAMS } from './risk-params';
import type { PositionPnl } from '../../../shared/portfolio';
import type { GuardedPosition } from './price-schedule';
import { EventReads } from './event-reads';
import { RecordsSource } from './records-source';
import { thresholdsFrom } from './thresholds';
import { recordsReadCredits } from '../budget/cost-model';
import type { PacedRead } from '../budget/budget-pacer';

export interface RiskRefreshDeps {
  /** The service: its client, whether it may be asked, and what each read says of its reachability. */
  link: Pick<ServiceLink, 'client' | 'mayAsk' | 'noteNetwork'>;
  /** Readings and the kept Portfolio are written here; managers' owners and histories are read. */
  store: Pick<Store, 'cache' | 'risk' | 'margin' | 'settings'>;
  storeHealth: Pick<StoreHealth, 'note' | 'guard'>;
  /** The thresholds, the interest warning's days, the alerts' cooldown, the records' interval. */
  settings: Pick<SettingsService, 'effective'>;
  /** Whom to read, and where what was read is kept: managers and the latest valuation. */
  watch: Pick<WatchRegistry, 'list' | 'noteManagers' | 'noteSnapshot'>;
  alerts: AlertEngine;
  assets: AssetBookCache;
  prices: PriceBook;
  /** The oracle's prices as learnt from the records (the valuation's one price set). */
  oracle: OracleBook;
  /** The pools of managers, learnt from each read (an event's units, a liquidation's alert). */
  eventUnits: Pick<EventUnits, 'notePool'>;
  /** How often the margin records are read again (besides events of watched managers): the read schedule's. */
  intervalMs: () => number;
  /** The least time between two event reads of an owner's records (the budget's pacing; 0: none). */
  eventGapMs: (owner: string) => number;
  /**
   * Whether an event read should read this asset's price too: the price schedule's own read of it
   * is due (or it has none). Prices are the schedule's to read within the budget; an owner's
   * event changes its records, not the market.
   */
  priceDue: (asset: string, now: number) => boolean;
  /** Publishes each valuation (`positionsValued`: the page; `valuationDone`: the schedule, the guard, the status). */
  events: Pick<CoreBus, 'emit'>;
  log: (line: string) => void;
}

/** Where the last Portfolio is kept in the store's response cache (offline starts, doctor's forecast). */
export const PORTFOLIO_CACHE_KEY = 'portfolio';

/**
 * A Portfolio kept by a version that named the break-even price `entry_price`: the same figure
 * where no liquidation took part (its note then says nothing of one), else left unknown until the
 * next valuation, which counts the liquidation's rewards in it (docs/valuation.md).
 */
export function upgradeKept(portfolio: PortfolioSummary): PortfolioSummary {
  for (const w of portfolio.wallets)
    for (const p of w.positions) {
      const pnl = p.pnl as PositionPnl & { entry_price?: number | null };
      if (pnl.break_even_price !== undefined) continue;
      pnl.break_even_price = pnl.note?.includes('liquidation') ? null : (pnl.entry_price ?? null);
      pnl.break_even_moved_at = null;
      delete pnl.entry_price;
    }
  return portfolio;
}

/**
 * One valuation of every watched position: one set of prices and records, valued at `at`. The
 * Portfolio, each watched manager's page, the pool pages' lines, the tray, the alerts, the CSV and
 * `tidewatch risk` all show this one (docs/valuation.md "One snapshot for every view").
 */
export interface ValuationSnapshot {
  portfolio: PortfolioSummary;
  /** When it was valued (the Portfolio's `computed_at`, each position's `valued_at`). */
  at: number;
  /** Every manager of the watched owners it valued, listed in the Portfolio or not: the very position objects. */
  managers: ReadonlyMap<string, ValuedManager>;
}

/** A snapshot of a kept Portfolio (an offline start): its listed positions, without their opening time. */
function snapshotOf(portfolio: PortfolioSummary, at: number): ValuationSnapshot {
  const managers = new Map<string, ValuedManager>();
  for (const w of portfolio.wallets) for (const p of w.positions) managers.set(p.manager_id, listed(p));
  return { portfolio, at, managers };
}

const listed = (position: PositionSummary): ValuedManager => ({ position, created_at: null });

/**
 * The risk loop. The margin records of every watched wallet (managers, loans, supplies) are read
 * every `intervalMs` (a slow timer for interest drift) and soon after an event of a watched
 * manager, with the prices of their assets; between record reads the positions are valued again
 * whenever the price schedule read new prices (`revalue`: no request for the records). Each
 * valuation stores a reading per manager with debt, evaluates thresholds and keeps the Portfolio
 * (in memory and in the store, for offline starts). One read or valuation at a time: a caller
 * during a record read gets that read's result.
 */
export class RiskRefresh {
  private timer: NodeJS.Timeout | undefined;
  /** When the records' timer was armed, and for how long: an interval the budget moves re-arms it. */
  private armed: { at: number; ms: number } | undefined;
  private soon: NodeJS.Timeout | undefined;
  private running: Promise<RiskReading[]> | undefined;
  private revaluing: Promise<void> | undefined;
  private revalueAgain = false;
  private latest: ValuationSnapshot | undefined;
  private records: WalletRecords[] | undefined;
  /** Counts the watch list's changes (`forget`): a read of an older list is not taken. */
  private generation = 0;
  private guarded: GuardedPosition[] = [];
  private closed = false;
  /** Owners whose records an event asks to read again, and when. */
  private readonly soonOwners = new Map<string, number>();
  private readonly reads = new EventReads();
  /** The owners' event reads, one after another. */
  private ownerReads: Promise<unknown> = Promise.resolve();
  /** Per owner or protocol-wide, whichever takes fewer pages. */
  private readonly source = new RecordsSource();
  /** Why the last refresh failed; undefined after a good one. */
  lastError: unknown;
  private failedAt = 0;

  constructor(private readonly d: RiskRefreshDeps) {}

  restartTimer(): void {
    this.arm(Date.now(), this.d.intervalMs());
  }

  /**
   * The records' interval may have moved (the budget paces it with the prices): the timer waits
   * the new one from when it was armed, so the records are read when the plan shown says.
   */
  retime(): void {
    const ms = this.d.intervalMs();
    if (this.armed && this.timer && ms !== this.armed.ms) this.arm(this.armed.at, ms);
  }

  private arm(from: number, ms: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.closed) return;
    this.armed = { at: from, ms };
    this.timer = setTimeout(
      () => {
        this.timer = undefined;
        void this.refresh().finally(() => this.restartTimer());
      },
      Math.min(Math.max(0, from + ms - Date.now()), MAX_TIMER_MS),
    );
    this.timer.unref?.();
  }

  /**
   * Watched managers of these owners changed: read those owners' records shortly (events come in
   * bursts), with the prices the schedule has due, not every wallet's; when the budget paces the reads,
   * no sooner than its gap after the owner's last read (EventReads). Only `live` owners' events
   * (of now, not history replayed) count toward how often an owner's events come.
   */
  refreshSoon(owners: ReadonlySet<string>, live: ReadonlySet<string> = owners): void {
    for (const o of owners) {
      if (live.has(o)) this.reads.noteEvent(o);
      const due = this.reads.dueAt(o, this.d.eventGapMs(o));
      this.soonOwners.set(o, Math.min(this.soonOwners.get(o) ?? Infinity, due));
    }
    this.armSoon();
  }

  /** Credits of one read of every watched wallet's records. */
  recordsCredits(): number {
    return this.source.readCredits(this.d.watch.list().length);
  }

  /**
   * Each owner's event reads as measured, and what one costs (the budget paces them): its lists
   * alone, since the prices they value with are the schedule's reads (`priceDue`).
   */
  eventReads(): PacedRead[] {
    return this.reads.reads(() => recordsReadCredits(1));
  }

  private armSoon(): void {
    if (this.soon) clearTimeout(this.soon);
    this.soon = undefined;
    if (this.soonOwners.size === 0 || this.closed) return;
    const first = Math.min(...this.soonOwners.values());
    this.soon = setTimeout(
      () => {
        this.soon = undefined;
        const now = Date.now();
        const due = new Set([...this.soonOwners].filter(([, at]) => at <= now + 50).map(([o]) => o));
        for (const o of due) this.soonOwners.delete(o);
        if (due.size > 0) void (this.records ? this.refreshOwners(due) : this.refresh());
        this.armSoon();
      },
      Math.min(Math.max(0, first - Date.now()), MAX_TIMER_MS),
    );
    this.soon.unref?.();
  }

  /** Read these owners' records and their assets' prices, and value everything again. */
  private refreshOwners(owners: ReadonlySet<string>): Promise<unknown> {
    const run = async (): Promise<void> => {
      const kept = this.records;
      if (!kept || this.closed || !this.d.link.mayAsk()) return;
      const watch = this.d.watch.list().filter((w) => owners.has(w.owner));
      if (watch.length === 0) return;
      try {
        const now = Date.now();
        const [book, fresh] = await Promise.all([
          this.d.assets.load(),
          readRecords(this.d.link.client, watch, this.source, now),
        ]);
        await Promise.all(
          [...assetsOf(fresh, book)]
            .filter((a) => this.d.prices.readable(a) && this.d.priceDue(a, now))
            .map((a) => this.d.prices.read(a, now)),
        );
        if (this.closed || this.records !== kept) return;
        const read = fresh.filter((r) => r.managers);
        const records = kept.map((r) => read.find((x) => x.w.owner === r.w.owner) ?? r);
        for (const r of read) if (!records.includes(r)) records.push(r);
        const value = await valuePortfolio(
          records,
          book,
          this.valuation(),
          this.portfolio()?.portfolio,
          new Set(read.map((r) => r.w.owner)),
          now,
        );
        if (this.closed || this.records !== kept) return;
        this.records = records;
        for (const r of read) this.reads.noteRead(r.w.owner, now);
        this.learn(value.managers);
        this.take(value, book, now);
      } catch (err) {
        if (!this.closed) this.d.log(`risk refresh failed: ${describeForLog(err)}`);
      }
    };
    // One after another (each builds on the records the one before kept), and after a read of
    // every wallet under way (which may make this one moot: `records` changes).
    this.ownerReads = this.ownerReads.then(() => this.running).then(run, run);
    return this.ownerReads;
  }

  /** Read the records (and their prices) now and value them. */
  refresh(): Promise<RiskReading[]> {
    this.running ??= this.once().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  /**
   * New prices were read: value the kept records again (no request for them). Before any
   * records were read, this reads them.
   */
  revalue(): Promise<void> {
    if (!this.records) return this.refresh().then(() => {});
    if (this.running || this.revaluing) {
      this.revalueAgain = true;
      return this.revaluing ?? this.running!.then(() => {});
    }
    this.revaluing = this.valueKept().finally(() => {
      this.revaluing = undefined;
      if (this.revalueAgain) {
        this.revalueAgain = false;
        void this.revalue();
      }
    });
    return this.revaluing;
  }

  /** The watched positions with debt of the last valuation. */
  positions(): readonly GuardedPosition[] {
    return this.guarded;
  }

  /**
   * The latest valuation snapshot, from memory or (its Portfolio) the store; undefined when none
   * was ever made. Every view of a watched position answers from it.
   */
  portfolio(): ValuationSnapshot | undefined {
    if (this.latest) return this.latest;
    const hit = this.d.store.cache.load<PortfolioSummary>(PORTFOLIO_CACHE_KEY);
    return hit ? snapshotOf(upgradeKept(hit.data), hit.fetchedAt) : undefined;
  }

  /**
   * Read this watched owner's records now and value everything again (a manager no snapshot holds
   * yet: just opened, or a first start); before any records were read, every wallet's.
   */
  refreshOwner(owner: string): Promise<unknown> {
    return this.records ? this.refreshOwners(new Set([owner])) : this.refresh();
  }

  /** The watch list changed: the kept Portfolio no longer matches it. */
  forget(): void {
    this.generation++;
    this.latest = undefined;
    this.records = undefined;
    this.guarded = [];
  }

  /** Another service: what was learnt of the old one (its list sizes, its ratios) is forgotten. */
  resetService(): void {
    this.source.reset();
    this.d.oracle.reset();
    this.forget();
  }

  close(): void {
    this.closed = true;
    for (const t of [this.timer, this.soon]) if (t) clearTimeout(t);
  }

  /** Value the kept records at the prices known now. */
  private async valueKept(): Promise<void> {
    const records = this.records;
    if (!records || this.closed || !this.d.link.mayAsk()) return;
    try {
      const now = Date.now();
      const book = await this.d.assets.load();
      const read = await valuePortfolio(records, book, this.valuation(), this.portfolio()?.portfolio, false, now);
      if (this.closed || this.records !== records) return;
      this.take(read, book, now);
    } catch (err) {
      if (!this.closed) this.d.log(`risk valuation failed: ${describeForLog(err)}`);
    }
  }

  /** Store, alert on and publish one valuation. */
  private take(read: PortfolioRead, book: AssetBook, now: number): void {
    // A wallet that could not be read keeps its positions of the snapshot before (valuePortfolio).
    const managers = new Map(read.valued);
    const before = this.latest?.managers;
    for (const w of read.portfolio.wallets)
      for (const p of w.positions)
        if (!managers.has(p.manager_id)) managers.set(p.manager_id, before?.get(p.manager_id) ?? listed(p));
    this.latest = { portfolio: read.portfolio, at: now, managers };
    this.d.alerts.tracker.setCooldown(this.d.settings.effective().alertCooldownSec * 1000);
    const byId = new Map(read.portfolio.wallets.flatMap((w) => w.positions.map((p) => [p.manager_id, p])));
    const thresholdsOf = this.thresholdsOf();
    const thresholds = (id: string): RiskThresholds =>
      byId.get(id)?.thresholds ?? thresholdsOf(id, DEFAULT_RISK_PARAMS);
    const rules = (id: string): EscalationRules => ({
      ...thresholds(id),
      liquidation: byId.get(id)?.liquidation_ratio ?? DEFAULT_RISK_PARAMS.liquidation,
    });
    this.d.alerts.onReadings(read.readings, rules, now, (id) => {
      const p = byId.get(id);
      return p ? describePosition(p) : undefined;
    });
    // One judgement: every view and the tray show the level the alerts hold, hysteresis and all
    // (a row does not flap between warning and critical while the alerts stay critical).
    for (const p of byId.values()) p.level = this.d.alerts.tracker.held(p.manager_id) ?? p.level;
    // The history keeps each reading with that level, as the Portfolio's row shows it.
    for (const r of read.readings) r.level = byId.get(r.manager_id)?.level ?? r.level;
    try {
      this.d.store.risk.addReadings(read.readings);
      this.d.store.cache.save(PORTFOLIO_CACHE_KEY, read.portfolio, now);
      this.d.storeHealth.note();
    } catch (err) {
      this.d.storeHealth.note(err);
    }
    this.alertInterest(read, now);
    const pools = [...book.poolsById.values()];
    this.guarded = [];
    for (const r of read.readings) {
      const p = byId.get(r.manager_id);
      const pool = p && pools.find((x) => x.pool_name === p.pool_name);
      if (p && pool)
        this.guarded.push({
          position: p,
          thresholds: thresholds(p.manager_id),
          baseAsset: pool.base_asset_id,
          quoteAsset: pool.quote_asset_id,
        });
    }
    this.d.watch.noteSnapshot(read.portfolio);
    this.d.events.emit('positionsValued', { readings: read.readings, portfolio: read.portfolio });
    this.d.events.emit('valuationDone');
  }

  /** Every manager of a watched owner, after each good read: their owners kept, watched, their pools learnt. */
  private learn(managers: ReadonlyArray<{ id: string; owner: string; dexPoolId: string }>): void {
    this.d.storeHealth.guard(() =>
      this.d.store.margin.noteOwners(managers.map((m) => ({ id: m.id, owner: m.owner, dexPoolId: m.dexPoolId }))),
    );
    this.d.watch.noteManagers(managers);
    for (const m of managers) this.d.eventUnits.notePool(m.id, m.dexPoolId);
  }

  /** A manager's thresholds: its own, else the defaults moved to its pool's liquidation ratio (risk-params.ts). */
  private thresholdsOf(): ValuationDeps['thresholds'] {
    return thresholdsFrom(this.d.settings.effective(), this.d.store.settings.thresholds());
  }

  /** What a valuation prices with (portfolio.ts ValuationDeps). */
  valuation(): ValuationDeps {
    return {
      prices: this.d.prices,
      oracle: this.d.oracle,
      thresholds: this.thresholdsOf(),
      history: (id) => managerHistory(this.d.store.margin, id),
    };
  }

  /**
   * Positions that interest alone liquidates within the days set (a warning a day each), with the
   * day and the repair that puts it past them. A critical position is told too: its threshold
   * alerts speak of the price, and the day interest takes it whatever the price does is news.
   */
  private alertInterest(read: PortfolioRead, now: number): void {
    const days = this.d.settings.effective().interestAlertDays;
    if (days === null) return;
    for (const w of read.portfolio.wallets) {
      for (const p of w.positions) {
        const ms = p.interest.liquidation_in_ms;
        if (ms === null || p.interest.apr === null || p.level === 'liquidatable') continue;
        const inMs = Math.max(0, ms - (now - p.valued_at));
        if (inMs > days * 86_400_000) continue;
        this.d.alerts.onInterestDrift(
          p.manager_id,
          p.owner,
          interestWords(p, inMs, interestRepairOf(p, days)),
          now,
          p.debt_usd,
        );
      }
    }
  }

  private async once(): Promise<RiskReading[]> {
    if (this.closed || !this.d.link.mayAsk()) return [];
    // A used-up plan: every request would cost (or be refused); ask again only every 15 minutes.
    if (
      this.lastError instanceof ServiceError &&
      this.lastError.kind === 'quota' &&
      Date.now() - this.failedAt < QUOTA_PAUSE_MS
    )
      return [];
    const watch = this.d.watch.list();
    const generation = this.generation;
    if (watch.length === 0) {
      const at = Date.now();
      this.latest = { portfolio: { wallets: [], prices: [], computed_at: at }, at, managers: new Map() };
      this.guarded = [];
      this.d.events.emit('valuationDone');
      return [];
    }
    try {
      const now = Date.now();
      const { read, records, book } = await readAndValue(
        this.d.link.client,
        this.d.assets.load(),
        this.valuation(),
        watch,
        this.portfolio()?.portfolio,
        this.source,
        now,
      );
      this.d.link.noteNetwork();
      this.lastError = undefined;
      if (this.closed) return [];
      // The watch list changed while it read (a wallet removed: its positions must not be judged
      // again, nor its managers watched): read the list as it is now instead.
      if (generation !== this.generation) return this.once();
      this.records = records;
      for (const w of watch) this.reads.noteRead(w.owner, now);
      this.learn(read.managers);
      this.take(read, book, now);
      return read.readings;
    } catch (err) {
      // Closed while it was in flight (the app is quitting and the service went first): nothing to say.
      if (this.closed) return [];
      this.lastError = err;
      this.failedAt = Date.now();
      this.d.link.noteNetwork(err);
      this.d.log(`risk refresh failed: ${describeForLog(err)}`);
      return [];
    }
  }
}
