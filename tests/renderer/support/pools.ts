import type { Pool } from '../../../src/shared/api';

/** SUI_USDC as the Demo network lists it: SUI's 9 decimals, USDC's 6, a tick of $0.0001. */
export const SUI_USDC: Pool = {
  pool_id: '0x1',
  pool_name: 'SUI_USDC',
  base_asset_id: '0x2::sui::SUI',
  quote_asset_id: '0x3::usdc::USDC',
  base_asset_decimals: 9,
  quote_asset_decimals: 6,
  base_asset_symbol: 'SUI',
  quote_asset_symbol: 'USDC',
  tick_size: 100,
  lot_size: 100_000_000,
} as Pool;
