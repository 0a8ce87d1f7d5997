import type { RiskReading, WatchEntry, WatchGroup } from '../../shared/contract';
import type { PortfolioSummary } from '../../shared/portfolio';
import type { PositionLevel } from '../../shared/risk-model';
import type { MarginEventRepo } from './store/margin-events';
import type { SettingsRepo } from './store/settings-repo';

/** A manager's latest reading with the level the valuation gave it (the tray shows the worst). */
export type LatestReading = RiskReading & { level: PositionLevel };

/** Who is watched, as a margin batch's alerts read it (alerts/alert-engine.ts `onMarginEvents`). */
export interface WatchedLookup {
  /** The owner of a watched manager; undefined when it is not watched. */
  ownerOf(managerId: string): string | undefined;
  /** When `owner` joined the watch list (ms); undefined when it is not on it. */
  since(owner: string): number | undefined;
}

/**
 * What is watched: the owners on the watch list (kept in the store), the margin managers known
 * to be theirs, and each watched manager's latest risk reading. The margin stream's dispatch,
 * the risk loop and the contract's watch commands all learn and forget through here.
 */
export class WatchRegistry implements WatchedLookup {
  /** Watched managers -> owner: from the store at start and on addWatch, the margin stream and the risk loop. */
  readonly managers = new Map<string, string>();
  /** Each watched loan as the latest valuation snapshot has it (the tray shows the worst). */
  readonly latest = new Map<string, LatestReading>();
  /** When that snapshot was valued (ms); null before the first. */
  valuedAt: number | null = null;

  constructor(
    private readonly settings: Pick<
      SettingsRepo,
      'watchList' | 'watchedSince' | 'watchGroup' | 'addWatch' | 'updateWatch' | 'removeWatch'
    >,
    private readonly margin: Pick<MarginEventRepo, 'managersOfOwner'>,
  ) {}

  list(): WatchEntry[] {
    return this.settings.watchList();
  }

  owners(): string[] {
    return this.list().map((w) => w.owner);
  }

  /** When `owner` joined the watch list (ms); undefined when it is not on it. */
  since(owner: string): number | undefined {
    return this.settings.watchedSince(owner);
  }

  /** The owner of a watched manager; undefined when it is not watched. */
  ownerOf(managerId: string): string | undefined {
    return this.managers.get(managerId);
  }

  /**
   * Learn the managers the store already knows for these owners (all watched owners by default):
   * their manager_created events, stored by the protocol-wide stream, and the owners the REST
   * margin managers named. Learnt at start and when an owner is added, so a liquidation read
   * before the risk loop's first answer (right after a restart, or all through an outage of the
   * service's REST while the stream still runs) is alerted. Without them, a restarted app learnt
   * a watched manager only from the REST answer, and a liquidation read before it was neither
   * alerted on receipt nor after its commit.
   */
  learnStored(owners: readonly string[] = this.owners()): void {
    for (const owner of owners)
      for (const id of this.margin.managersOfOwner(owner)) if (!this.managers.has(id)) this.managers.set(id, owner);
  }

  /** The group `owner` is in; undefined when it is not watched. */
  groupOf(owner: string): WatchGroup | undefined {
    return this.settings.watchGroup(owner);
  }

  /** Watch `owner` (in `group`, `mine` by default); its managers the store knows are watched at once. */
  add(owner: string, label: string | null, group: WatchGroup | null = null): WatchEntry[] {
    this.settings.addWatch(owner, label, Date.now(), group);
    this.learnStored([owner]);
    return this.list();
  }

  /** Label `owner` (null: none) or move it to another group; undefined when it is not watched. */
  update(owner: string, change: { label?: string | null; group?: WatchGroup }): WatchEntry[] | undefined {
    return this.settings.updateWatch(owner, change) ? this.list() : undefined;
  }

  /** Stop watching `owner` and forget its managers and their readings. */
  remove(owner: string): WatchEntry[] {
    this.settings.removeWatch(owner);
    for (const [id, o] of this.managers) {
      if (o !== owner) continue;
      this.managers.delete(id);
      this.latest.delete(id);
    }
    return this.list();
  }

  /** Managers the risk loop read for the watched owners. */
  noteManagers(managers: ReadonlyArray<{ id: string; owner: string }>): void {
    for (const m of managers) this.managers.set(m.id, m.owner);
  }

  /**
   * A valuation snapshot: every watched loan the Portfolio lists, with its figures and level, and
   * no reading of an older one (a loan repaid leaves the tray; a wallet that could not be read
   * keeps the positions the snapshot kept for it). docs/valuation.md "One snapshot for every view".
   */
  noteSnapshot(portfolio: PortfolioSummary): void {
    this.latest.clear();
    for (const p of portfolio.wallets.flatMap((w) => w.positions)) {
      if (p.debts.length === 0 || !this.managers.has(p.manager_id)) continue;
      this.latest.set(p.manager_id, {
        manager_id: p.manager_id,
        owner: p.owner,
        ts_ms: p.valued_at,
        risk_ratio: p.risk_ratio,
        debt_usd: p.debt_usd,
        assets_usd: p.collateral_usd,
        distance_pct: p.distance_pct,
        level: p.level,
      });
    }
    this.valuedAt = portfolio.computed_at;
  }
}
