import type { PortfolioSummary, RiskReading, Thresholds, WatchEntry } from '../../../shared/contract';
import type { AlertEngine } from '../alerts/alert-engine';
import { describeForLog, ServiceError } from '../client/errors';

/** After a quota error the loop waits this long before it asks the service again. */
const QUOTA_PAUSE_MS = 15 * 60_000;
import type { ServiceClient } from '../client/service-client';
import type { ResponseCache } from '../store/cache-repo';
import type { RiskAlertRepo } from '../store/risk-alert-repo';
import type { AssetBookCache } from './asset-book';
import { readPortfolio } from './portfolio';
import { describePosition } from './positions';
import type { PriceBook } from './prices';
import { DEFAULT_RISK_PARAMS } from './risk-params';
import type { RiskParams } from '../../../shared/portfolio';

export interface RiskRefreshDeps {
  client: () => ServiceClient;
  assets: AssetBookCache;
  prices: PriceBook;
  cache: ResponseCache;
  risk: RiskAlertRepo;
  alerts: AlertEngine;
  watchList: () => WatchEntry[];
  /** A manager's thresholds: its own, else the defaults moved to its pool's liquidation ratio (risk-params.ts). */
  thresholdsOf: () => (managerId: string, params: RiskParams) => Thresholds;
  cooldownMs: () => number;
  intervalMs: () => number;
  canRun: () => boolean;
  /** Every manager of a watched owner, after each good refresh. */
  onManagers: (managers: Array<{ id: string; owner: string; dexPoolId: string; poolName: string | null; hasDebt: boolean }>) => void;
  onReadings: (readings: RiskReading[], portfolio: PortfolioSummary) => void;
  noteNetwork: (err?: unknown) => void;
  noteStore: (err?: unknown) => void;
  log: (line: string) => void;
}

const CACHE_KEY = 'portfolio';

/**
 * The risk loop: every `intervalMs` (and soon after an event of a watched manager), every
 * watched wallet is read in money, a reading is stored per manager with debt, thresholds are
 * evaluated, and the Portfolio is kept (in memory and in the store, for offline starts).
 * One refresh at a time: a caller during a refresh gets that refresh's result.
 */
export class RiskRefresh {
  private timer: NodeJS.Timeout | undefined;
  private soon: NodeJS.Timeout | undefined;
  private running: Promise<RiskReading[]> | undefined;
  private latest: { portfolio: PortfolioSummary; at: number } | undefined;
  private closed = false;
  /** Why the last refresh failed; undefined after a good one. */
  lastError: unknown;
  private failedAt = 0;

  constructor(private readonly d: RiskRefreshDeps) {}

  restartTimer(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = setInterval(() => void this.refresh(), this.d.intervalMs());
  }

  /** A watched manager changed: refresh shortly (events come in bursts). */
  refreshSoon(): void {
    this.soon ??= setTimeout(() => {
      this.soon = undefined;
      void this.refresh();
    }, 300);
  }

  refresh(): Promise<RiskReading[]> {
    this.running ??= this.once().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  /** The Portfolio of the last good refresh, from memory or the store; undefined when none was ever read. */
  portfolio(): { portfolio: PortfolioSummary; at: number } | undefined {
    if (this.latest) return this.latest;
    const hit = this.d.cache.load<PortfolioSummary>(CACHE_KEY);
    return hit ? { portfolio: hit.data, at: hit.fetchedAt } : undefined;
  }

  /** The watch list changed: the kept Portfolio no longer matches it. */
  forget(): void {
    this.latest = undefined;
  }

  close(): void {
    this.closed = true;
    for (const t of [this.timer, this.soon]) if (t) clearTimeout(t);
  }

  private async once(): Promise<RiskReading[]> {
    if (this.closed || !this.d.canRun()) return [];
    // A used-up plan: every request would cost (or be refused); ask again only every 15 minutes.
    if (this.lastError instanceof ServiceError && this.lastError.kind === 'quota' && Date.now() - this.failedAt < QUOTA_PAUSE_MS) return [];
    const watch = this.d.watchList();
    if (watch.length === 0) {
      this.latest = { portfolio: { wallets: [], prices: [], computed_at: Date.now() }, at: Date.now() };
      return [];
    }
    try {
      const now = Date.now();
      const read = await readPortfolio(this.d.client(), this.d.assets.load(), this.d.prices, watch, this.portfolio()?.portfolio, now);
      this.d.noteNetwork();
      this.lastError = undefined;
      if (this.closed) return [];
      this.d.onManagers(read.managers);
      this.latest = { portfolio: read.portfolio, at: now };
      try {
        this.d.risk.addReadings(read.readings);
        this.d.cache.save(CACHE_KEY, read.portfolio, now);
        this.d.noteStore();
      } catch (err) {
        this.d.noteStore(err);
      }
      this.d.alerts.tracker.setCooldown(this.d.cooldownMs());
      const byId = new Map(read.portfolio.wallets.flatMap((w) => w.positions.map((p) => [p.manager_id, p])));
      const thresholdsOf = this.d.thresholdsOf();
      this.d.alerts.onReadings(read.readings, (id) => thresholdsOf(id, byId.get(id)?.risk_params ?? DEFAULT_RISK_PARAMS), now, (id) => {
        const p = byId.get(id);
        return p ? describePosition(p) : undefined;
      });
      this.d.onReadings(read.readings, read.portfolio);
      return read.readings;
    } catch (err) {
      // Closed while it was in flight (the app is quitting and the service went first): nothing to say.
      if (this.closed) return [];
      this.lastError = err;
      this.failedAt = Date.now();
      this.d.noteNetwork(err);
      this.d.log(`risk refresh failed: ${describeForLog(err)}`);
      return [];
    }
  }
}
