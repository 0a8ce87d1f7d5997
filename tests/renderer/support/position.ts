import type { PositionSummary, RiskParams, UsdPrice } from '../../../src/shared/contract';
import {
  levelOf,
  liquidationAt,
  movePct,
  priceAtRatio,
  sideOf,
  sizeOf,
  valueAt,
  type Holdings,
  type RiskThresholds,
} from '../../../src/shared/risk-model';

/**
 * A position as main sends it, every figure the risk model's at its prices (so the figures of a
 * row agree with each other): the holdings `h` of `pool` ([base, quote]) priced at `base` and
 * `quote`. PnL and interest are each caller's, as are its own defaults.
 */
export function modelPosition(o: {
  id: string;
  pool: [string, string];
  h: Holdings;
  base: UsdPrice;
  quote: UsdPrice;
  params: RiskParams;
  thresholds: RiskThresholds;
  now: number;
  pnl: PositionSummary['pnl'];
  interest: PositionSummary['interest'];
  /** Its pool's tick's decimals (4: SUI_USDC's 0.0001). */
  priceDecimals?: number;
}): PositionSummary {
  const { h, params, thresholds } = o;
  const p = { base: o.base.usd, quote: o.quote.usd };
  const v = valueAt(h, p);
  const liq = priceAtRatio(h, p.quote, params.liquidation);
  const distance = movePct(p.base, liq);
  const [baseSymbol, quoteSymbol] = o.pool;
  const debts = [
    ...(h.debtQuote > 0
      ? [{ margin_pool_id: `mp-${quoteSymbol}`, symbol: quoteSymbol, amount: h.debtQuote, usd: h.debtQuote * p.quote }]
      : []),
    ...(h.debtBase > 0
      ? [{ margin_pool_id: `mp-${baseSymbol}`, symbol: baseSymbol, amount: h.debtBase, usd: h.debtBase * p.base }]
      : []),
  ];
  return {
    manager_id: o.id,
    owner: '0xowner',
    pool_name: `${baseSymbol}_${quoteSymbol}`,
    base_symbol: baseSymbol,
    quote_symbol: quoteSymbol,
    base_amount: h.base,
    quote_amount: h.quote,
    debts,
    collateral_usd: v.assets,
    debt_usd: v.debt,
    equity_usd: v.equity,
    leverage: v.leverage,
    risk_ratio: v.ratio,
    service_ratio: v.ratio,
    liquidation_ratio: params.liquidation,
    risk_params: params,
    moving_symbol: baseSymbol,
    price: o.base,
    quote_price: o.quote,
    liquidation_price: liq,
    price_decimals: o.priceDecimals ?? 4,
    distance_pct: distance,
    side: sideOf(h),
    size: sizeOf(h),
    debt_base: h.debtBase,
    debt_quote: h.debtQuote,
    base_decimals: 9,
    quote_decimals: 6,
    thresholds,
    level: levelOf(v.ratio, distance, thresholds, params.liquidation),
    exchange_view: null,
    pnl: o.pnl,
    interest: o.interest,
    repair: null,
    liquidation_cost: liq === null ? null : liquidationAt(h, { base: liq, quote: p.quote }, params),
    valued_at: o.now,
    updated_ms: o.now,
  };
}
