import type { Pool } from '../../../shared/api';
import { humanPrice } from '../../../shared/units';
import type { ServiceClient } from '../client/service-client';

const STABLE = new Set(['USDC', 'USDT', 'AUSD', 'USDY', 'FDUSD']);

/**
 * USD price of an asset from the exchange itself: 1 for a stablecoin, else the mid price of a
 * pool that quotes it in a stablecoin (SUI from SUI_USDC). Cached for a minute.
 */
export class UsdPrices {
  private readonly cache = new Map<string, { price: number | null; at: number }>();

  constructor(
    private readonly client: ServiceClient,
    private readonly pools: () => readonly Pool[],
  ) {}

  async of(assetType: string, now = Date.now()): Promise<number | null> {
    const hit = this.cache.get(assetType);
    if (hit && now - hit.at < 60_000) return hit.price;
    const price = await this.lookup(assetType);
    this.cache.set(assetType, { price, at: now });
    return price;
  }

  private async lookup(assetType: string): Promise<number | null> {
    const pools = this.pools();
    const symbol = pools.find((p) => p.base_asset_id === assetType)?.base_asset_symbol ?? pools.find((p) => p.quote_asset_id === assetType)?.quote_asset_symbol;
    if (symbol && STABLE.has(symbol)) return 1;
    const pool = pools.find((p) => p.base_asset_id === assetType && STABLE.has(p.quote_asset_symbol));
    if (!pool) return null;
    const depth = await this.client.depth(pool.pool_name, 1);
    const bid = depth.bids[0]?.price;
    const ask = depth.asks[0]?.price;
    if (bid === undefined || ask === undefined) return null;
    return humanPrice((bid + ask) / 2, pool);
  }
}
