import {
  ActiveLoanPageSchema,
  ActiveSupplyPageSchema,
  CandleListSchema,
  DEPTH_LIMIT_MAX,
  DepthSchema,
  HolderPageSchema,
  KioskNftsPageSchema,
  LiquidationPageSchema,
  MarginPoolInfoListSchema,
  MarginManagerPageSchema,
  NftObjectSchema,
  NftPageSchema,
  PER_PAGE_MAX,
  PoolListSchema,
  RegisteredDexPoolListSchema,
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
import { dedupeBy, fetchRange, RANGE_MAX_REQUESTS } from './ranges';

export interface RangeOptions {
  signal?: AbortSignal;
  maxRequests?: number;
}

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

/** Bounds the client never exceeds (docs/service.md, Bounds): it clamps instead. */
function paging(p: Paging = {}): Record<string, QueryValue> {
  return { page: clamp(p.page, 0, Number.MAX_SAFE_INTEGER, 0), perPage: clamp(p.perPage, 1, PER_PAGE_MAX, 10) };
}

const seg = (s: string): string => encodeURIComponent(s);
/** A collection type keeps its `::` in the path (docs/service.md, NFT endpoints). */
const typeSeg = (t: string): string => encodeURIComponent(t).replace(/%3A/gi, ':');

/** The 20 REST endpoints of the service (docs/service.md, Endpoints), typed and validated. */
export class ServiceClient {
  readonly http: ServiceHttp;
  /** Requests one range call (trades, candles) may make. */
  rangeMaxRequests = RANGE_MAX_REQUESTS;

  constructor(config: ServiceConfig | ServiceHttp) {
    this.http = config instanceof ServiceHttp ? config : new ServiceHttp(config);
  }

  // NFT endpoints
  /**
   * One NFT by its object id (not in the service contract; the real service serves it:
   * docs/service.md, Beyond the service contract).
   */
  nft(objectId: string, signal?: AbortSignal) {
    return this.http.get(`/nfts/${seg(objectId)}`, {}, NftObjectSchema, signal);
  }
  addressNfts(address: string, opts: Paging & { collections?: string[] } = {}, signal?: AbortSignal) {
    return this.http.get(
      `/nfts/address/${seg(address)}`,
      { ...paging(opts), collections: opts.collections ?? [] },
      NftPageSchema,
      signal,
    );
  }
  kioskNfts(kioskId: string, opts: Paging & { collections?: string[] } = {}, signal?: AbortSignal) {
    return this.http.get(
      `/kiosks/${seg(kioskId)}/nfts`,
      { ...paging(opts), collections: opts.collections ?? [] },
      KioskNftsPageSchema,
      signal,
    );
  }
  collection(type: string, opts: Paging & { fields?: Record<string, unknown> } = {}, signal?: AbortSignal) {
    const fields = opts.fields && Object.keys(opts.fields).length > 0 ? JSON.stringify(opts.fields) : undefined;
    return this.http.get(`/nfts/collection/${typeSeg(type)}`, { ...paging(opts), fields }, NftPageSchema, signal);
  }
  holders(type: string, opts: Paging = {}, signal?: AbortSignal) {
    return this.http.get(`/nfts/collection/${typeSeg(type)}/holders`, paging(opts), HolderPageSchema, signal);
  }

  // Exchange endpoints
  pools(signal?: AbortSignal) {
    return this.http.get('/dex/get_pools', {}, PoolListSchema, signal);
  }
  depth(pool: string, limit = DEPTH_LIMIT_MAX, signal?: AbortSignal) {
    return this.http.get(
      `/dex/${seg(pool)}/order-book-depth`,
      { limit: clamp(limit, 1, DEPTH_LIMIT_MAX, DEPTH_LIMIT_MAX) },
      DepthSchema,
      signal,
    );
  }
  trades(pool: string, opts: { limit?: number; from?: number; to?: number } = {}, signal?: AbortSignal) {
    return this.http.get(
      `/dex/${seg(pool)}/trades`,
      { limit: clamp(opts.limit, 1, SERIES_LIMIT_MAX, SERIES_LIMIT_MAX), from: opts.from, to: opts.to },
      TradeListSchema,
      signal,
    );
  }
  async candles(
    pool: string,
    timeframe: Timeframe,
    opts: { limit?: number; from?: number; to?: number } = {},
    signal?: AbortSignal,
  ): Promise<Candle[]> {
    const list = await this.http.get(
      `/dex/${seg(pool)}/ohlcv/${timeframe}`,
      { limit: clamp(opts.limit, 1, SERIES_LIMIT_MAX, SERIES_LIMIT_MAX), from: opts.from, to: opts.to },
      CandleListSchema,
      signal,
    );
    // The service contract's text and sample disagree on ordering: sort ourselves (docs/service.md, Ordering).
    return [...list].sort((a, b) => (a.timestamp < b.timestamp ? -1 : a.timestamp > b.timestamp ? 1 : 0));
  }

  /**
   * Every trade of [fromSec, toSec], oldest first, in at most `maxRequests` requests; `truncated`
   * says when some may be missing (a second denser than one answer, or the request budget spent).
   */
  async tradesRange(
    pool: string,
    fromSec: number,
    toSec: number,
    o: RangeOptions = {},
  ): Promise<{ trades: Trade[]; truncated: boolean }> {
    const r = await this.http.withinOneTimeout(o.signal, (signal) =>
      fetchRange(fromSec, toSec, (from, to) => this.trades(pool, { from, to, limit: SERIES_LIMIT_MAX }, signal), {
        secondOf: (t) => Math.floor(t.checkpoint_timestamp_ms / 1000),
        maxRequests: o.maxRequests ?? this.rangeMaxRequests,
        signal,
      }),
    );
    const trades = dedupeBy(r.items, (t) => t.event_digest).sort(
      (a, b) => a.checkpoint_timestamp_ms - b.checkpoint_timestamp_ms || (a.event_digest < b.event_digest ? -1 : 1),
    );
    return { trades, truncated: r.incomplete || r.truncatedWindows > 0 };
  }

  /** Every candle of [fromSec, toSec], oldest first, in windows of 100 periods (at most `maxRequests`). */
  async candlesRange(
    pool: string,
    timeframe: Timeframe,
    fromSec: number,
    toSec: number,
    o: RangeOptions = {},
  ): Promise<{ candles: Candle[]; truncated: boolean }> {
    const period = TIMEFRAME_SECONDS[timeframe];
    const r = await this.http.withinOneTimeout(o.signal, (signal) =>
      fetchRange(
        fromSec,
        toSec,
        (from, to) => this.candles(pool, timeframe, { from, to, limit: SERIES_LIMIT_MAX }, signal),
        {
          initialWindowSec: period * SERIES_LIMIT_MAX,
          maxRequests: o.maxRequests ?? this.rangeMaxRequests,
          signal,
        },
      ),
    );
    const candles = dedupeBy(r.items, (c) => c.timestamp).sort((a, b) => (a.timestamp < b.timestamp ? -1 : 1));
    return { candles, truncated: r.incomplete || r.truncatedWindows > 0 };
  }

  // Margin endpoints
  /**
   * The margin pools (not in the service contract; the real service publishes it: docs/service.md,
   * Beyond the service contract).
   */
  marginPools(signal?: AbortSignal) {
    return this.http.get('/dex-margin/pools', {}, MarginPoolInfoListSchema, signal);
  }
  /** The exchange pools registered for margin, with their risk parameters (not in the service contract). */
  registeredDexPools(signal?: AbortSignal) {
    return this.http.get('/dex-margin/registered-dex-pools', {}, RegisteredDexPoolListSchema, signal);
  }
  supplyReferral(id: string, signal?: AbortSignal) {
    return this.http.get(`/dex-margin/supply-referrals/${seg(id)}`, {}, SupplyReferralSchema, signal);
  }
  supplyReferrals(opts: Paging & { owner?: string; marginPoolId?: string } = {}, signal?: AbortSignal) {
    return this.http.get(
      '/dex-margin/supply-referrals',
      { ...paging(opts), owner: opts.owner, marginPoolId: opts.marginPoolId },
      SupplyReferralPageSchema,
      signal,
    );
  }
  supplierCap(id: string, signal?: AbortSignal) {
    return this.http.get(`/dex-margin/supplier-caps/${seg(id)}`, {}, SupplierCapSchema, signal);
  }
  supplierCaps(opts: Paging & { owner?: string } = {}, signal?: AbortSignal) {
    return this.http.get(
      '/dex-margin/supplier-caps',
      { ...paging(opts), owner: opts.owner },
      SupplierCapPageSchema,
      signal,
    );
  }
  marginManagers(owner: string | undefined, f: ManagerFilter = {}, signal?: AbortSignal) {
    const path = owner ? `/dex-margin/margin-managers/${seg(owner)}` : '/dex-margin/margin-managers';
    return this.http.get(
      path,
      { ...paging(f), balanceManagerId: f.balanceManagerId, dexPoolId: f.dexPoolId },
      MarginManagerPageSchema,
      signal,
    );
  }
  liquidations(owner: string | undefined, f: LiquidationFilter = {}, signal?: AbortSignal) {
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
      signal,
    );
  }
  activeSupplies(owner: string | undefined, f: SupplyFilter = {}, signal?: AbortSignal) {
    const path = owner ? `/dex-margin/active-supplies/${seg(owner)}` : '/dex-margin/active-supplies';
    return this.http.get(
      path,
      { ...paging(f), marginPoolId: f.marginPoolId, supplierCapId: f.supplierCapId, assetType: f.assetType },
      ActiveSupplyPageSchema,
      signal,
    );
  }
  activeLoans(owner: string | undefined, f: LoanFilter = {}, signal?: AbortSignal) {
    const path = owner ? `/dex-margin/active-loans/${seg(owner)}` : '/dex-margin/active-loans';
    return this.http.get(
      path,
      {
        ...paging(f),
        marginManagerId: f.marginManagerId,
        marginPoolId: f.marginPoolId,
        balanceManagerId: f.balanceManagerId,
      },
      ActiveLoanPageSchema,
      signal,
    );
  }
}
