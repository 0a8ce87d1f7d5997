import { PacedTimer } from './paced-timer';
import type { MarginPoolInfo } from '../../../shared/api';
import type { PoolHealth, PositionSummary } from '../../../shared/contract';
import { borrowApr, supplyApr } from '../../../shared/risk-model';
import type { AlertEngine } from '../alerts/alert-engine';
import { describeForLog } from '../client/errors';
import type { ServiceClient } from '../client/service-client';
import type { PoolHealthRepo } from '../store/pool-health-repo';
import type { StoreHealth } from '../store/store-health';
import { ratesOf, type AssetBook } from './asset-book';

/** How often the margin pools are read, before the budget's pacing (docs/credits.md "What is read"). */
export const POOL_HEALTH_INTERVAL_MS = 15 * 60_000;
/** The longest the budget may stretch it: a pool's rate is read at least every 6 hours while anything is. */
export const POOL_HEALTH_MAX_MS = 6 * 3_600_000;
/** A protocol spread where the service publishes none: the protocol's 10 %. */
const DEFAULT_SPREAD = 0.1;

/** The asset's symbol as the exchange's pools name it ("USDC"), else the type's last part. */
function symbolOf(book: AssetBook, assetType: string): string {
  for (const p of book.poolsById.values()) {
    if (p.base_asset_id === assetType) return p.base_asset_symbol;
    if (p.quote_asset_id === assetType) return p.quote_asset_symbol;
  }
  return assetType.split('::').pop() ?? assetType;
}

/** A margin pool's health from its row, at `at`; undefined when the row lacks the curve or the utilization. */
export function healthOf(m: MarginPoolInfo, book: AssetBook, at: number): PoolHealth | undefined {
  const rates = ratesOf(m);
  if (!rates || rates.utilization === null) return undefined;
  const { curve, utilization } = rates;
  return {
    margin_pool_id: m.margin_pool_id,
    symbol: symbolOf(book, m.asset_type),
    utilization,
    borrow_apr: borrowApr(curve, utilization),
    supply_apr: supplyApr(curve, utilization, m.protocol_spread ?? DEFAULT_SPREAD),
    curve,
    kink_apr: borrowApr(curve, curve.optimal_utilization),
    ts_ms: at,
  };
}

export interface PoolHealthDeps {
  client: () => ServiceClient;
  /** The asset book: symbols, and the curves and utilizations the valuation projects debts with (updated here). */
  book: () => Promise<AssetBook>;
  repo: () => Pick<PoolHealthRepo, 'add'>;
  storeHealth: Pick<StoreHealth, 'guard'>;
  alerts: Pick<AlertEngine, 'onPoolRates'>;
  /** The watched positions of the latest valuation. */
  positions: () => readonly PositionSummary[];
  /** The user's rate line, percent a year (Settings), or null. */
  linePct: () => number | null;
  /** How often to read now: the plan in force (paced by the budget); null: not planned yet (as set). */
  intervalMs: () => number | null;
  canRun: () => boolean;
  /** The rates moved: value the watched positions again (their interest and its alert follow). */
  revalue: () => void;
  log: (line: string) => void;
  now?: () => number;
}

/**
 * Pool health (docs/alerts.md "Borrow rates"): every margin pool's utilization and its borrow and
 * supply APR on its curve, read every 15 minutes as the budget paces it (one request for all the
 * pools), kept in the store for the history and offline use. Each read updates the curve points
 * the valuation projects debts with, tells the alerts (a crossing of the kink or of the user's
 * line, for a pool a watched position borrows from), and values the positions again so the
 * interest alert sees the new rate.
 */
export class PoolHealthWatch {
  private reading: Promise<PoolHealth[]> | undefined;
  private readonly now: () => number;
  /** When the next read is due. */
  private readonly pace: PacedTimer;

  constructor(private readonly d: PoolHealthDeps) {
    this.now = d.now ?? Date.now;
    this.pace = new PacedTimer(
      () => this.every(),
      () => void this.read(),
      this.now,
    );
  }

  /** Read at once, then on the plan's interval. */
  start(): void {
    void this.read();
  }

  /** The plan changed: the next read follows its interval from the last one. */
  retime(): void {
    if (this.pace.closed || this.reading) return;
    this.pace.arm();
  }

  /** Read the pools now (one request), store, alert and value again; the pools read (none when it failed). */
  read(): Promise<PoolHealth[]> {
    this.reading ??= this.once().finally(() => {
      this.reading = undefined;
      this.pace.arm();
    });
    return this.reading;
  }

  close(): void {
    this.pace.close();
  }

  /** How often the pools are read now (the plan in force, as paced). */
  everyMs(): number {
    return this.every();
  }

  private every(): number {
    return this.d.intervalMs() ?? POOL_HEALTH_INTERVAL_MS;
  }

  private async once(): Promise<PoolHealth[]> {
    if (this.pace.closed || !this.d.canRun()) return [];
    const at = this.now();
    try {
      const [rows, book] = await Promise.all([this.d.client().marginPools(), this.d.book()]);
      this.pace.lastReadAt = at;
      if (this.pace.closed) return [];
      const pools = rows.flatMap((m) => healthOf(m, book, at) ?? []);
      for (const p of pools) book.interest.set(p.margin_pool_id, { curve: p.curve, utilization: p.utilization });
      this.d.storeHealth.guard(() => this.d.repo().add(pools));
      const positions = this.d.positions();
      const line = this.d.linePct();
      this.d.alerts.onPoolRates(
        pools,
        (id) => positions.filter((p) => p.debts.some((x) => x.margin_pool_id === id)),
        line === null ? null : line / 100,
        at,
      );
      this.d.revalue();
      return pools;
    } catch (err) {
      // Tried: the next read waits its interval (a 404 is a service without the endpoint).
      this.pace.lastReadAt = at;
      if (!this.pace.closed) this.d.log(`margin pools' rates: ${describeForLog(err)}`);
      return [];
    }
  }
}
