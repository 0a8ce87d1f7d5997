import type { Liquidation, Pool } from '../../../../shared/api';
import { marginAmount, oraclePrice } from '../../../../shared/units';

export interface LiquidationValue {
  /** Debt repaid, in human units of the margin pool's asset. */
  amount: number;
  symbol: string;
  /** Its USD value at the oracle price the liquidation recorded; null when the asset's side is unknown. */
  usd: number | null;
  pool: Pool | undefined;
}

/**
 * A liquidation in money: the repaid amount priced with the oracle price recorded in the
 * liquidation itself (the price that liquidated it), of the side of the manager's pool the
 * margin pool lends.
 */
export function liquidationValue(
  l: Liquidation,
  marginAsset: (marginPoolId: string) => { decimals: number; symbol: string; type?: string } | undefined,
  poolById: (id: string) => Pool | undefined,
): LiquidationValue | undefined {
  const asset = marginAsset(l.margin_pool_id);
  if (!asset) return undefined;
  const amount = marginAmount(l.liquidation_amount, asset.decimals);
  const pool = l.margin_manager?.dex_pool_id ? poolById(l.margin_manager.dex_pool_id) : undefined;
  let usd: number | null = null;
  if (pool && asset.symbol === pool.base_asset_symbol)
    usd = amount * oraclePrice(l.base_oracle_price, l.base_oracle_decimals);
  else if (pool && asset.symbol === pool.quote_asset_symbol)
    usd = amount * oraclePrice(l.quote_oracle_price, l.quote_oracle_decimals);
  return { amount, symbol: asset.symbol, usd, pool };
}
