import fc from 'fast-check';
import type { AssetBook } from '../../src/main/core/risk/asset-book';
import type { MarginManager } from '../../src/shared/api';
import type { PositionSummary } from '../../src/shared/contract';
import { valueAt, type Holdings, type ModelPosition } from '../../src/shared/risk-model';

/** The risk parameters and thresholds of `positionArb`'s positions. */
export const params = { liquidation: 1.125, target_liquidation: 1.25, user_reward: 0.01, pool_reward: 0.04 };

export const thresholds = { warning: 1.2, critical: 1.15, near_pct: 3 };

/** A position with debt in one asset, around the ratios traders hold (1.13 … 3). */
export const positionArb = fc
  .record({
    long: fc.boolean(),
    price: fc.double({ min: 0.01, max: 100_000, noNaN: true }),
    collateralUsd: fc.double({ min: 10, max: 1e7, noNaN: true }),
    ratio: fc.double({ min: 1.13, max: 3, noNaN: true }),
    quoteShare: fc.double({ min: 0, max: 0.5, noNaN: true }),
  })
  .map(({ long, price, collateralUsd, ratio, quoteShare }): ModelPosition & { holdings: Holdings } => {
    // Debt D, assets R x D; a long holds base (and some quote), a short holds quote (and some base).
    const debtUsd = collateralUsd / (ratio - 1);
    const assetsUsd = ratio * debtUsd;
    const other = assetsUsd * quoteShare;
    const holdings: Holdings = long
      ? { base: (assetsUsd - other) / price, quote: other, debtBase: 0, debtQuote: debtUsd }
      : { base: other / price, quote: assetsUsd - other, debtBase: debtUsd / price, debtQuote: 0 };
    return {
      manager_id: 'm',
      base_symbol: 'SUI',
      quote_symbol: 'USDC',
      holdings,
      prices: { base: price, quote: 1 },
      params,
      thresholds,
    };
  });

/** Long 1,000 SUI at $2 with 1,200 USDC owed: own ratio 2000 / 1200 = 1.667; the service says 1.6. */
/** 1,000 SUI at $2 against USDC debt: ratio 1.6 by default (2,000 / 1,250). */
export function suiLong(patch: Partial<PositionSummary> = {}, ratio = 1.6): PositionSummary {
  const debt = 2000 / ratio;
  return {
    risk_ratio: ratio,
    price: { symbol: 'SUI', usd: 2, source: 'oracle', at: 0 },
    quote_price: { symbol: 'USDC', usd: 1, source: 'stablecoin', at: 0 },
    collateral_usd: 2000,
    debt_usd: debt,
    base_symbol: 'SUI',
    quote_symbol: 'USDC',
    base_amount: 1000,
    quote_amount: 0,
    debt_base: 0,
    debt_quote: debt,
    debts: [{ margin_pool_id: 'm', symbol: 'USDC', amount: debt, usd: debt }],
    liquidation_ratio: 1.125,
    liquidation_price: (1.125 * debt) / 1000,
    risk_params: { liquidation: 1.125, target_liquidation: 1.25, user_reward: 0.01, pool_reward: 0.04 },
    ...patch,
  } as unknown as PositionSummary;
}

export const SUI = '0x2::sui::SUI';
export const USDC = '0x5::usdc::USDC';

/** One pool (SUI_USDC, 9 and 6 decimals) and its two margin pools, as the valuation reads them. */
export const BOOK: AssetBook = {
  poolsById: new Map([
    [
      'p',
      {
        pool_id: 'p',
        pool_name: 'SUI_USDC',
        base_asset_id: SUI,
        base_asset_symbol: 'SUI',
        base_asset_decimals: 9,
        quote_asset_id: USDC,
        quote_asset_symbol: 'USDC',
        quote_asset_decimals: 6,
        // SUI_USDC's 0.0001 tick: its positions' prices have 4 decimals.
        tick_size: 100,
      } as never,
    ],
  ]),
  marginPoolAsset: new Map([
    ['mp-usdc', USDC],
    ['mp-sui', SUI],
  ]),
  decimalsOf: new Map([
    [SUI, 9],
    [USDC, 6],
  ]),
  risk: { byPool: new Map(), published: false },
  interest: new Map(),
};

/**
 * A `positionArb` position as the service's margin-managers record of `BOOK`'s pool, at the
 * oracle price `oraclePrice` (its ratio kept: base amounts scale), with the service's ratio.
 */
export function managerOf(p: ModelPosition & { holdings: Holdings }, oraclePrice: number, id = 'm'): MarginManager {
  const k = p.prices!.base / oraclePrice;
  const h = { ...p.holdings, base: p.holdings.base * k, debtBase: p.holdings.debtBase * k };
  const ratio = valueAt(h, { base: oraclePrice, quote: 1 }).ratio!;
  const long = h.debtQuote > 0;
  return {
    margin_manager_id: id,
    owner: 'o',
    dex_pool_id: 'p',
    created_at: new Date(0).toISOString(),
    checkpoint_timestamp_ms: 0,
    deposit: {
      base_asset_amount: Math.round(h.base * 1e9),
      quote_asset_amount: Math.round(h.quote * 1e6),
      last_base_oracle_price: 1,
      last_base_oracle_decimals: 0,
      last_quote_oracle_price: 1,
      last_quote_oracle_decimals: 0,
      timestamp: new Date(0).toISOString(),
    },
    active_loans: [
      {
        margin_pool_id: long ? 'mp-usdc' : 'mp-sui',
        loan_amount: 1,
        loan_shares: 1,
        remaining_amount: Math.round(long ? h.debtQuote * 1e6 : h.debtBase * 1e9),
        remaining_shares: 1,
        risk_ratio: Math.round(ratio * 1e6) / 1e6,
        timestamp: new Date(0).toISOString(),
      },
    ],
  } as unknown as MarginManager;
}
