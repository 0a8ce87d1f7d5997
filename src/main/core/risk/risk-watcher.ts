import type { MarginManager, Pool } from '../../../shared/api';
import type { RiskReading } from '../../../shared/contract';
import { marginAmount, oraclePrice } from '../../../shared/units';
import { allItems, collect } from '../client/paging';
import type { ServiceClient } from '../client/service-client';
import { distanceToLiquidationPct, impliedBasePrice, type Position } from './distance';

/** What the API tells about assets, gathered once: pools by id, margin pools' asset types, decimals. */
export interface AssetBook {
  poolsById: Map<string, Pool>;
  /** margin_pool_id -> asset type (learned from active supplies, which carry both). */
  marginPoolAsset: Map<string, string>;
  decimalsOf: Map<string, number>;
}

export async function loadAssetBook(client: ServiceClient): Promise<AssetBook> {
  const pools = await client.pools();
  const poolsById = new Map(pools.map((p) => [p.pool_id, p]));
  const decimalsOf = new Map<string, number>();
  for (const p of pools) {
    decimalsOf.set(p.base_asset_id, p.base_asset_decimals);
    decimalsOf.set(p.quote_asset_id, p.quote_asset_decimals);
  }
  const supplies = await collect(allItems((page, perPage) => client.activeSupplies(undefined, { page, perPage }), { maxPages: 20 }));
  const marginPoolAsset = new Map(supplies.map((s) => [s.margin_pool_id, s.asset_type]));
  return { poolsById, marginPoolAsset, decimalsOf };
}

/** One reading per loan of a manager: the REST ratio, and the distance to liquidation. */
export function readingsOf(manager: MarginManager, book: AssetBook, now: number): RiskReading[] {
  const out: RiskReading[] = [];
  const pool = book.poolsById.get(manager.dex_pool_id);
  for (const loan of manager.active_loans ?? []) {
    let distance: number | null = null;
    let debtUsd: number | null = null;
    let assetsUsd: number | null = null;
    const dep = manager.deposit;
    const debtAsset = book.marginPoolAsset.get(loan.margin_pool_id);
    if (pool && dep && debtAsset) {
      const side = debtAsset === pool.base_asset_id ? 'base' : debtAsset === pool.quote_asset_id ? 'quote' : null;
      if (side) {
        const p: Position = {
          base: marginAmount(dep.base_asset_amount, pool.base_asset_decimals),
          quote: marginAmount(dep.quote_asset_amount, pool.quote_asset_decimals),
          basePrice: oraclePrice(dep.last_base_oracle_price, dep.last_base_oracle_decimals),
          quotePrice: oraclePrice(dep.last_quote_oracle_price, dep.last_quote_oracle_decimals),
          debt: marginAmount(loan.remaining_amount, side === 'base' ? pool.base_asset_decimals : pool.quote_asset_decimals),
          debtSide: side,
        };
        // Measure from the price that explains the service's current ratio (the deposit's oracle price may be old).
        const now = loan.risk_ratio === null ? null : impliedBasePrice(p, loan.risk_ratio);
        if (now !== null) p.basePrice = now;
        distance = distanceToLiquidationPct(p);
        debtUsd = p.debt * (side === 'base' ? p.basePrice : p.quotePrice);
        assetsUsd = p.base * p.basePrice + p.quote * p.quotePrice;
      }
    }
    out.push({
      manager_id: manager.margin_manager_id,
      owner: manager.owner,
      ts_ms: now,
      risk_ratio: loan.risk_ratio,
      debt_usd: debtUsd,
      assets_usd: assetsUsd,
      distance_pct: distance === null ? null : Math.round(distance * 100) / 100,
    });
  }
  return out;
}

/** Every manager of the owner (all pages). */
export async function managersOf(client: ServiceClient, owner: string): Promise<MarginManager[]> {
  return collect(allItems((page, perPage) => client.marginManagers(owner, { page, perPage }), { maxPages: 40 }));
}
