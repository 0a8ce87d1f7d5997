
import {
  ActiveLoanPageSchema,
  ActiveSupplyPageSchema,
  CandleListSchema,
  DEPTH_LIMIT_MAX,
  DepthSchema,
  HolderPageSchema,
  KioskNftsPageSchema,
  LiquidationPageSchema,
  MarginManagerPageSchema,
  NftPageSchema,
  PER_PAGE_MAX,
  PoolListSchema,
  SERIES_LIMIT_MAX,
  SupplierCapPageSchema,
  SupplierCapSchema,
  SupplyReferralPageSchema,
  SupplyReferralSchema,
  TIMEFRAME_SECONDS,
  TradeListSchema,
  type Candle,
  type Timeframe,
  type Trade,
} from '../../../shared/api';
import { ServiceHttp, type QueryValue, type ServiceConfig } from './http';
import { dedupeBy, fetchRange } from './ranges';

export interface Paging {
  page?: number;
  perPage?: number;
}
export interface ManagerFilter extends Paging {
  balanceManagerId?: string;
  dexPoolId?: string;
}
export interface LiquidationFilter extends Paging {
  marginManagerId?: string;
  marginPoolId?: string;
  balanceManagerId?: string;
  fromCheckpoint?: number;
  toCheckpoint?: number;
}
export interface SupplyFilter extends Paging {
  marginPoolId?: string;
  supplierCapId?: string;
  assetType?: string;
}
export interface LoanFilter extends Paging {
  marginManagerId?: string;
  marginPoolId?: string;
  balanceManagerId?: string;
}

const clamp = (n: number | undefined, min: number, max: number, def: number): number =>
  n === undefined || !Number.isFinite(n) ? def : Math.min(max, Math.max(min, Math.trunc(n)));

/** Bounds the client never exceeds (decisions.md, "Values beyond the bounds"): it clamps instead. */
function paging(p: Paging = {}): Record<string, QueryValue> {
  return { page: clamp(p.page, 0, Number.MAX_SAFE_INTEGER, 0), perPage: clamp(p.perPage, 1, PER_PAGE_MAX, 10) };
}

const seg = (s: string): string => encodeURIComponent(s);
/** A collection type keeps its `::` in the path (spec, endpoint 3). */
const typeSeg = (t: string): string => encodeURIComponent(t).replace(/%3A/gi, ':');

/** The 20 REST endpoints of the service, typed and validated. */
export class ServiceClient {
  readonly http: ServiceHttp;

  constructor(config: ServiceConfig | ServiceHttp) {
    this.http = config instanceof ServiceHttp ? config : new ServiceHttp(config);
  }

  // NFT (1-4)
  addressNfts(address: string, opts: Paging & { collections?: string[] } = {}) {
    return this.http.get(`/nfts/address/${seg(address)}`, { ...paging(opts), collections: opts.collections ?? [] }, NftPageSchema);
  }
  kioskNfts(kioskId: string, opts: Paging & { collections?: string[] } = {}) {
    return this.http.get(`/kiosks/${seg(kioskId)}/nfts`, { ...paging(opts), collections: opts.collections ?? [] }, KioskNftsPageSchema);
  }
  collection(type: string, opts: Paging & { fields?: Record<string, unknown> } = {}) {
    const fields = opts.fields && Object.keys(opts.fields).length > 0 ? JSON.stringify(opts.fields) : undefined;
    return this.http.get(`/nfts/collection/${typeSeg(type)}`, { ...paging(opts), fields }, NftPageSchema);
  }
  holders(type: string, opts: Paging = {}) {
    return this.http.get(`/nfts/collection/${typeSeg(type)}/holders`, paging(opts), HolderPageSchema);
  }

  // Exchange (5-8)
  pools() {
    return this.http.get('/dex/get_pools', {}, PoolListSchema);
  }
  depth(pool: string, limit = DEPTH_LIMIT_MAX) {
    return this.http.get(`/dex/${seg(pool)}/order-book-depth`, { limit: clamp(limit, 1, DEPTH_LIMIT_MAX, DEPTH_LIMIT_MAX) }, DepthSchema);
  }
  trades(pool: string, opts: { limit?: number; from?: number; to?: number } = {}) {
    return this.http.get(
      `/dex/${seg(pool)}/trades`,
      { limit: clamp(opts.limit, 1, SERIES_LIMIT_MAX, SERIES_LIMIT_MAX), from: opts.from, to: opts.to },
      TradeListSchema,
    );
  }
  async candles(pool: string, timeframe: Timeframe, opts: { limit?: number; from?: number; to?: number } = {}): Promise<Candle[]> {
    const list = await this.http.get(
      `/dex/${seg(pool)}/ohlcv/${timeframe}`,
      { limit: clamp(opts.limit, 1, SERIES_LIMIT_MAX, SERIES_LIMIT_MAX), from: opts.from, to: opts.to },
      CandleListSchema,
    );
    // The spec's text and sample disagree on ordering: sort ourselves (decisions.md).
    return [...list].sort((a, b) => (a.timestamp < b.timestamp ? -1 : a.timestamp > b.timestamp ? 1 : 0));
  }

  /** Every trade of [fromSec, toSec], oldest first, however many requests it takes. */
  async tradesRange(pool: string, fromSec: number, toSec: number): Promise<{ trades: Trade[]; truncatedWindows: number }> {
    const { items, truncatedWindows } = await fetchRange(fromSec, toSec, (from, to) => this.trades(pool, { from, to, limit: SERIES_LIMIT_MAX }), {
      secondOf: (t) => Math.floor(t.checkpoint_timestamp_ms / 1000),
    });
    const trades = dedupeBy(items, (t) => t.event_digest).sort(
      (a, b) => a.checkpoint_timestamp_ms - b.checkpoint_timestamp_ms || (a.event_digest < b.event_digest ? -1 : 1),
    );
    return { trades, truncatedWindows };
  }

  /** Every candle of [fromSec, toSec], oldest first, in windows of 100 periods. */
  async candlesRange(pool: string, timeframe: Timeframe, fromSec: number, toSec: number): Promise<Candle[]> {
    const period = TIMEFRAME_SECONDS[timeframe];
    const { items } = await fetchRange(fromSec, toSec, (from, to) => this.candles(pool, timeframe, { from, to, limit: SERIES_LIMIT_MAX }), {
      initialWindowSec: period * SERIES_LIMIT_MAX,
    });
    return dedupeBy(items, (c) => c.timestamp).sort((a, b) => (a.timestamp < b.timestamp ? -1 : 1));
  }

  // Margin (9-20)
  supplyReferral(id: string) {
    return this.http.get(`/dex-margin/supply-referrals/${seg(id)}`, {}, SupplyReferralSchema);
  }
  supplyReferrals(opts: Paging & { owner?: string; marginPoolId?: string } = {}) {
    return this.http.get('/dex-margin/supply-referrals', { ...paging(opts), owner: opts.owner, marginPoolId: opts.marginPoolId }, SupplyReferralPageSchema);
  }
  supplierCap(id: string) {
    return this.http.get(`/dex-margin/supplier-caps/${seg(id)}`, {}, SupplierCapSchema);
  }
  supplierCaps(opts: Paging & { owner?: string } = {}) {
    return this.http.get('/dex-margin/supplier-caps', { ...paging(opts), owner: opts.owner }, SupplierCapPageSchema);
  }
  marginManagers(owner: string | undefined, f: ManagerFilter = {}) {
    const path = owner ? `/dex-margin/margin-managers/${seg(owner)}` : '/dex-margin/margin-managers';
    return this.http.get(path, { ...paging(f), balanceManagerId: f.balanceManagerId, dexPoolId: f.dexPoolId }, MarginManagerPageSchema);
  }
  liquidations(owner: string | undefined, f: LiquidationFilter = {}) {
    const path = owner ? `/dex-margin/liquidations/${seg(owner)}` : '/dex-margin/liquidations';
    return this.http.get(
      path,
      {
        ...paging(f),
        marginManagerId: f.marginManagerId,
        marginPoolId: f.marginPoolId,
        balanceManagerId: f.balanceManagerId,
        fromCheckpoint: f.fromCheckpoint,
        toCheckpoint: f.toCheckpoint,
      },
      LiquidationPageSchema,
    );
  }
  activeSupplies(owner: string | undefined, f: SupplyFilter = {}) {
    const path = owner ? `/dex-margin/active-supplies/${seg(owner)}` : '/dex-margin/active-supplies';
    return this.http.get(path, { ...paging(f), marginPoolId: f.marginPoolId, supplierCapId: f.supplierCapId, assetType: f.assetType }, ActiveSupplyPageSchema);
  }
  activeLoans(owner: string | undefined, f: LoanFilter = {}) {
    const path = owner ? `/dex-margin/active-loans/${seg(owner)}` : '/dex-margin/active-loans';
    return this.http.get(
      path,
      { ...paging(f), marginManagerId: f.marginManagerId, marginPoolId: f.marginPoolId, balanceManagerId: f.balanceManagerId },
      ActiveLoanPageSchema,
    );
  }
}

