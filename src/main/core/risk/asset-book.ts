import type { MarginPoolInfo, Pool } from '../../../shared/api';
import type { InterestCurve } from '../../../shared/risk-model';
import { allItems, collect } from '../client/paging';
import { ServiceError } from '../client/errors';
import type { ServiceClient } from '../client/service-client';
import { loadRiskParams, type RiskParamsBook } from './risk-params';

/** What the API tells about assets, gathered once: pools by id, margin pools' asset types, decimals, risk parameters. */
export interface AssetBook {
  poolsById: Map<string, Pool>;
  /** margin_pool_id -> asset type (from the margin pools where published, and active supplies, which carry both). */
  marginPoolAsset: Map<string, string>;
  decimalsOf: Map<string, number>;
  /** Each exchange pool's risk parameters (risk-params.ts). */
  risk: RiskParamsBook;
  /** margin_pool_id -> its interest curve and utilization, where the service publishes them. */
  interest: Map<string, MarginPoolRates>;
}

export interface MarginPoolRates {
  curve: InterestCurve;
  /** Borrowed / supplied when the book was read; null when not published. */
  utilization: number | null;
}

/** A margin pool's curve and utilization, when its row has them. */
export function ratesOf(m: MarginPoolInfo): MarginPoolRates | undefined {
  const { base_rate, base_slope, optimal_utilization, excess_slope } = m;
  if (
    base_rate === undefined ||
    base_slope === undefined ||
    optimal_utilization === undefined ||
    excess_slope === undefined
  )
    return undefined;
  const utilization =
    m.total_supply !== undefined && m.total_borrow !== undefined && m.total_supply > 0
      ? m.total_borrow / m.total_supply
      : null;
  return { curve: { base_rate, base_slope, optimal_utilization, excess_slope }, utilization };
}

export async function loadAssetBook(client: ServiceClient): Promise<AssetBook> {
  // Four independent reads, asked together: a first start's Portfolio waited for them one after another.
  const [pools, supplies, marginPools, risk] = await Promise.all([
    client.pools(),
    // One page at a time: a page asked ahead costs as much as a full one (docs/credits.md).
    collect(
      allItems((page, perPage) => client.activeSupplies(undefined, { page, perPage }), { maxPages: 20, prefetch: 0 }),
    ),
    client.marginPools().catch((err: unknown) => {
      if (err instanceof ServiceError && err.status === 404) return []; // a service without the endpoint: supplies tell what they can
      throw err;
    }),
    loadRiskParams(client),
  ]);
  const poolsById = new Map(pools.map((p) => [p.pool_id, p]));
  const decimalsOf = new Map<string, number>();
  for (const p of pools) {
    decimalsOf.set(p.base_asset_id, p.base_asset_decimals);
    decimalsOf.set(p.quote_asset_id, p.quote_asset_decimals);
  }
  const marginPoolAsset = new Map(supplies.map((s) => [s.margin_pool_id, s.asset_type]));
  const interest = new Map<string, MarginPoolRates>();
  for (const m of marginPools) {
    marginPoolAsset.set(m.margin_pool_id, m.asset_type);
    const rates = ratesOf(m);
    if (rates) interest.set(m.margin_pool_id, rates);
  }
  return { poolsById, marginPoolAsset, decimalsOf, risk, interest };
}

/**
 * The asset book (pools, decimals, margin-pool assets) of the current service, loaded once and
 * forgotten when the service changes. `load()` waits for it (risk refresh, alerts); `now()` never
 * waits (queries): it answers what is loaded and starts loading in the background.
 */
/**
 * `now()` is asked for every committed batch and every alert: while the service cannot answer,
 * each would start a load (a request, and time on a liquidation's way to its alert:
 * docs/operations.md, A liquidation's way to its alert). A failed one is started again after
 * this; `load()`, which callers wait for, always asks.
 */
const BACKGROUND_RETRY_MS = 10_000;

export class AssetBookCache {
  private book: AssetBook | undefined;
  private loading: Promise<AssetBook> | undefined;
  /** When a load `now()` started last failed: the next waits BACKGROUND_RETRY_MS. */
  private failedAt = -Infinity;

  constructor(
    private readonly client: () => ServiceClient,
    /** Whether loading makes sense now (a service is configured, the monitor is open). */
    private readonly canLoad: () => boolean,
  ) {}

  peek(): AssetBook | undefined {
    return this.book;
  }

  load(): Promise<AssetBook> {
    if (this.book) return Promise.resolve(this.book);
    this.loading ??= loadAssetBook(this.client())
      .then((b) => (this.book ??= b))
      .finally(() => {
        this.loading = undefined;
      });
    return this.loading;
  }

  now(): AssetBook | undefined {
    if (!this.book && !this.loading && Date.now() - this.failedAt >= BACKGROUND_RETRY_MS && this.canLoad()) {
      this.load().catch(() => {
        this.failedAt = Date.now();
      });
    }
    return this.book;
  }

  /**
   * The book once a load ends: the one in flight, or one `now()` starts. Undefined when it fails or
   * none may start now (no service, or a failure less than BACKGROUND_RETRY_MS ago); never rejects.
   */
  settled(): Promise<AssetBook | undefined> {
    this.now();
    return this.loading
      ? this.loading.then(
          (b) => b,
          () => undefined,
        )
      : Promise.resolve(this.book);
  }

  reset(): void {
    this.book = undefined;
    this.failedAt = -Infinity;
  }
}
