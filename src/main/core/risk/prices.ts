import type { Pool } from '../../../shared/api';
import type { UsdPrice } from '../../../shared/contract';
import { humanPrice } from '../../../shared/units';
import type { ServiceClient } from '../client/service-client';

const STABLE = new Set(['USDC', 'USDT', 'AUSD', 'USDY', 'FDUSD']);
/** A mid price is read again after this long. */
const MID_TTL_MS = 60_000;

/**
 * The one pricing rule (README "Pricing"): a stablecoin is $1; any other asset takes the fresher
 * of (a) the newest oracle price recorded with a margin deposit and (b) the exchange's mid price
 * of a pool that quotes it in a stablecoin (SUI from SUI_USDC), read at most once a minute.
 * Deposits record the oracle at deposit time, so a deposit from last week loses to a mid price
 * read a minute ago, and an asset with no stablecoin pool still has its oracle price. When the
 * exchange cannot be read, the last mid price stays in use with its age.
 */
export class PriceBook {
  private readonly oracle = new Map<string, UsdPrice>();
  private readonly mid = new Map<string, UsdPrice | null>();
  private readonly midReadAt = new Map<string, number>();

  constructor(
    private readonly client: () => ServiceClient,
    private readonly pools: () => readonly Pool[],
  ) {}

  /** An oracle price recorded with a deposit at `at` (ms); kept when newer than the one known. */
  noteOracle(assetType: string, usd: number, at: number): void {
    if (!(usd > 0) || !Number.isFinite(usd)) return;
    const known = this.oracle.get(assetType);
    if (!known || known.at < at) this.oracle.set(assetType, { symbol: this.symbolOf(assetType), usd, source: 'oracle', at });
  }

  /** The price by the rule, or null when neither source knows the asset. */
  async quote(assetType: string, now = Date.now()): Promise<UsdPrice | null> {
    const symbol = this.symbolOf(assetType);
    if (STABLE.has(symbol)) return { symbol, usd: 1, source: 'stablecoin', at: now };
    const mid = await this.midOf(assetType, now);
    const oracle = this.oracle.get(assetType) ?? null;
    if (mid && oracle) return mid.at >= oracle.at ? mid : oracle;
    return mid ?? oracle;
  }

  /** The USD price alone. */
  async of(assetType: string, now = Date.now()): Promise<number | null> {
    return (await this.quote(assetType, now))?.usd ?? null;
  }

  /** Forget everything (the service changed). */
  reset(): void {
    this.oracle.clear();
    this.mid.clear();
    this.midReadAt.clear();
  }

  private symbolOf(assetType: string): string {
    const pools = this.pools();
    return pools.find((p) => p.base_asset_id === assetType)?.base_asset_symbol ?? pools.find((p) => p.quote_asset_id === assetType)?.quote_asset_symbol ?? assetType.split('::').pop() ?? assetType;
  }

  private async midOf(assetType: string, now: number): Promise<UsdPrice | null> {
    const readAt = this.midReadAt.get(assetType);
    if (readAt !== undefined && now - readAt < MID_TTL_MS) return this.mid.get(assetType) ?? null;
    const pool = this.pools().find((p) => p.base_asset_id === assetType && STABLE.has(p.quote_asset_symbol));
    if (!pool) {
      this.midReadAt.set(assetType, now);
      return null;
    }
    try {
      const depth = await this.client().depth(pool.pool_name, 1);
      const bid = depth.bids[0]?.price;
      const ask = depth.asks[0]?.price;
      this.midReadAt.set(assetType, now);
      if (bid !== undefined && ask !== undefined) this.mid.set(assetType, { symbol: pool.base_asset_symbol, usd: humanPrice((bid + ask) / 2, pool), source: 'exchange', at: now });
    } catch {
      // offline: the last mid price (with its age) or the oracle answers
    }
    return this.mid.get(assetType) ?? null;
  }
}
