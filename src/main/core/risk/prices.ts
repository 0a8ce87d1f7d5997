import type { Pool } from '../../../shared/api';
import type { UsdPrice } from '../../../shared/contract';
import { humanPrice } from '../../../shared/units';
import { isStable } from '../../../shared/risk-model';
import type { ServiceClient } from '../client/service-client';

/**
 * A price nobody schedules (an unwatched manager's page, a protocol-wide liquidation) is read
 * again when it is older than this; watched assets are read on the guard's schedule
 * (price-schedule.ts), usually long before.
 */
export const UNSCHEDULED_MAX_AGE_MS = 15 * 60_000;

export { isStable };

/** The pool an asset is priced on (PriceBook.pricingPool), from a list of pools. */
export function pricingPoolOf(pools: readonly Pool[], assetType: string): Pool | undefined {
  const direct = pools.find((p) => p.base_asset_id === assetType && isStable(p.quote_asset_symbol));
  if (direct) return direct;
  const quotedInUsd = (asset: string): boolean =>
    pools.some((p) => p.base_asset_id === asset && isStable(p.quote_asset_symbol));
  return pools.find((p) => p.base_asset_id === assetType && quotedInUsd(p.quote_asset_id));
}

/**
 * The exchange's prices (docs/credits.md "What is read"): a stablecoin is $1; any other asset the last
 * trade in a pool that quotes it in a stablecoin (SUI from SUI_USDC), or else in a pool that
 * quotes it in an asset that has one (NS from NS_SUI times SUI's price). The last trade is the
 * cheapest adequate source (`trades?limit=1`, 20 credits, against 30 for the book's depth); the
 * book is read only when the pool has no trade of the last day. One read per asset, never per
 * position or pool. When the exchange cannot be read, the last price stays in use with its age.
 * The valuation prices positions at the oracle's prices (oracle-book.ts), which move with these.
 */
export class PriceBook {
  private readonly exchange = new Map<string, UsdPrice>();
  private readonly reading = new Map<string, Promise<UsdPrice | null>>();

  constructor(
    private readonly client: () => ServiceClient,
    private readonly pools: () => readonly Pool[],
    /** Every exchange price read (the volatility book learns from them). */
    private readonly onRead: (assetType: string, price: UsdPrice) => void = () => {},
  ) {}

  /**
   * The exchange's price, or null when it was never read and cannot be. The exchange is asked
   * only when its price was never read or is older than UNSCHEDULED_MAX_AGE_MS.
   */
  async quote(assetType: string, now = Date.now()): Promise<UsdPrice | null> {
    const symbol = this.symbolOf(assetType);
    if (isStable(symbol)) return { symbol, usd: 1, source: 'stablecoin', at: now };
    const known = this.exchange.get(assetType);
    return known && now - known.at < UNSCHEDULED_MAX_AGE_MS ? known : await this.read(assetType, now);
  }

  /** The USD price alone. */
  async of(assetType: string, now = Date.now()): Promise<number | null> {
    return (await this.quote(assetType, now))?.usd ?? null;
  }

  /** The price known now, without asking the service. */
  peek(assetType: string): UsdPrice | null {
    const symbol = this.symbolOf(assetType);
    if (isStable(symbol)) return { symbol, usd: 1, source: 'stablecoin', at: Date.now() };
    return this.exchange.get(assetType) ?? null;
  }

  /** Whether the exchange can price the asset (a stablecoin-quoted pool trades it); stablecoins need no read. */
  readable(assetType: string): boolean {
    return !isStable(this.symbolOf(assetType)) && this.pricingPool(assetType) !== undefined;
  }

  /**
   * The pool the asset is priced on, if any: one quoting it in a stablecoin, else one quoting it
   * in an asset that itself has a stablecoin pool (one hop: its price is then the trade times
   * that asset's price).
   */
  pricingPool(assetType: string): Pool | undefined {
    return pricingPoolOf(this.pools(), assetType);
  }

  /**
   * Read the asset's exchange price now (one request; concurrent callers share it). On failure
   * the last price read stays (with its age), or null.
   */
  read(assetType: string, now = Date.now()): Promise<UsdPrice | null> {
    let p = this.reading.get(assetType);
    if (!p) {
      p = this.fetch(assetType, now).finally(() => this.reading.delete(assetType));
      this.reading.set(assetType, p);
    }
    return p;
  }

  /**
   * A trade a pool's stream received (danger-pricing.ts): when the pool is where its base asset is
   * priced, that asset's exchange price is the trade's, at `now`. Whether it priced anything.
   */
  noteTrade(poolName: string, rawPrice: number, now: number): boolean {
    const pool = this.pools().find((p) => p.pool_name === poolName);
    if (!pool || this.pricingPool(pool.base_asset_id) !== pool) return false;
    const quoteUsd = isStable(pool.quote_asset_symbol) ? 1 : (this.exchange.get(pool.quote_asset_id)?.usd ?? null);
    if (quoteUsd === null) return false;
    const price: UsdPrice = {
      symbol: pool.base_asset_symbol,
      usd: humanPrice(rawPrice, pool) * quoteUsd,
      source: 'exchange',
      at: now,
    };
    this.exchange.set(pool.base_asset_id, price);
    this.onRead(pool.base_asset_id, price);
    return true;
  }

  /** Forget everything (the service changed). */
  reset(): void {
    this.exchange.clear();
  }

  symbolOf(assetType: string): string {
    const pools = this.pools();
    return (
      pools.find((p) => p.base_asset_id === assetType)?.base_asset_symbol ??
      pools.find((p) => p.quote_asset_id === assetType)?.quote_asset_symbol ??
      assetType.split('::').pop() ??
      assetType
    );
  }

  private async fetch(assetType: string, now: number): Promise<UsdPrice | null> {
    const pool = this.pricingPool(assetType);
    if (!pool) return this.exchange.get(assetType) ?? null;
    try {
      const raw = await this.lastPrice(pool);
      // Quoted in another asset (one hop): that asset's price now, read if it was never read.
      const quoteUsd = isStable(pool.quote_asset_symbol)
        ? 1
        : ((this.exchange.get(pool.quote_asset_id) ?? (await this.fetch(pool.quote_asset_id, now)))?.usd ?? null);
      if (raw !== null && quoteUsd !== null) {
        const price: UsdPrice = {
          symbol: pool.base_asset_symbol,
          usd: humanPrice(raw, pool) * quoteUsd,
          source: 'exchange',
          at: now,
        };
        this.exchange.set(assetType, price);
        this.onRead(assetType, price);
      }
    } catch {
      // offline: the last price (with its age) answers
    }
    return this.exchange.get(assetType) ?? null;
  }

  /** The pool's last trade price (raw), or the book's mid when no trade of the last day is there. */
  private async lastPrice(pool: Pool): Promise<number | null> {
    const [last] = await this.client().trades(pool.pool_name, { limit: 1 });
    if (last) return last.price;
    const depth = await this.client().depth(pool.pool_name, 1);
    const bid = depth.bids[0]?.price;
    const ask = depth.asks[0]?.price;
    return bid !== undefined && ask !== undefined ? (bid + ask) / 2 : null;
  }
}
