import { levelOf, type PositionLevel, type RiskThresholds } from './levels';
import { liquidationAt, type LiquidationParams } from './repair';
import { isStable } from './stable';
import { movePct, priceAtRatio, valueAt, type Holdings, type PricePair } from './valuation';

/** What a shock needs of a position (PositionSummary gives it: portfolio.ts `modelOf`). */
export interface ModelPosition {
  manager_id: string;
  base_symbol: string | null;
  quote_symbol: string | null;
  holdings: Holdings;
  /** The valuation's prices now; null when the position could not be priced. */
  prices: PricePair | null;
  params: LiquidationParams;
  thresholds: RiskThresholds;
}

/** Moves per asset symbol as fractions (-0.15: a 15 % fall); `ALL` moves every non-stable asset. */
export type Shocks = Readonly<Record<string, number>>;
export const ALL = '*';

/** An asset's price factor under the shocks: its own move times the move of every non-stable asset. */
export function shockFactor(symbol: string | null, shocks: Shocks): number {
  if (symbol === null || isStable(symbol)) return 1;
  return (1 + (shocks[symbol] ?? 0)) * (1 + (shocks[ALL] ?? 0));
}

export function shockedPrices(pos: ModelPosition, shocks: Shocks): PricePair | null {
  if (!pos.prices) return null;
  return {
    base: pos.prices.base * shockFactor(pos.base_symbol, shocks),
    quote: pos.prices.quote * shockFactor(pos.quote_symbol, shocks),
  };
}

export interface ShockedPosition {
  manager_id: string;
  ratio: number | null;
  equity: number | null;
  /** Equity after the shock (and the liquidation it causes) less equity now. */
  equity_change: number | null;
  level: PositionLevel;
  liquidated: boolean;
  /** Debt the liquidators repay (USD at the shocked prices); 0 when not liquidated. */
  repaid_usd: number;
  /** The move from the shocked price to the liquidation price, in percent. */
  distance_pct: number | null;
}

/** One position at shocked prices; a position pushed below its liquidation ratio is liquidated by the protocol's rule. */
export function shockPosition(pos: ModelPosition, shocks: Shocks): ShockedPosition {
  const p = shockedPrices(pos, shocks);
  if (!p || !pos.prices)
    return {
      manager_id: pos.manager_id,
      ratio: null,
      equity: null,
      equity_change: null,
      level: 'ok',
      liquidated: false,
      repaid_usd: 0,
      distance_pct: null,
    };
  const before = valueAt(pos.holdings, pos.prices);
  const v = valueAt(pos.holdings, p);
  const liq = priceAtRatio(pos.holdings, p.quote, pos.params.liquidation);
  const distance = movePct(p.base, liq);
  const liquidated = v.ratio !== null && v.ratio < pos.params.liquidation;
  const outcome = liquidated ? liquidationAt(pos.holdings, p, pos.params) : null;
  const equityAfter = outcome ? outcome.equity_after_usd : v.equity;
  return {
    manager_id: pos.manager_id,
    ratio: v.ratio,
    equity: equityAfter,
    equity_change: equityAfter - before.equity,
    level: levelOf(v.ratio, distance, pos.thresholds, pos.params.liquidation),
    liquidated,
    repaid_usd: outcome?.repaid_usd ?? 0,
    distance_pct: distance,
  };
}

export interface ShockTotals {
  /** Positions with debt that could be valued. */
  positions: number;
  liquidated: number;
  /** Debt repaid by liquidators, USD. */
  repaid_usd: number;
  equity_change_usd: number;
  /** Positions at each level after the shock. */
  levels: Record<PositionLevel, number>;
}

/** Every position under the same shocks, and the totals ("SUI -15 %: 3 of 9 liquidated, …"). */
export function shockPortfolio(
  list: readonly ModelPosition[],
  shocks: Shocks,
): { rows: ShockedPosition[]; totals: ShockTotals } {
  const rows = list.map((p) => shockPosition(p, shocks));
  const totals: ShockTotals = {
    positions: 0,
    liquidated: 0,
    repaid_usd: 0,
    equity_change_usd: 0,
    levels: { ok: 0, warning: 0, critical: 0, liquidatable: 0 },
  };
  for (const r of rows) {
    if (r.ratio === null) continue;
    totals.positions++;
    if (r.liquidated) totals.liquidated++;
    totals.repaid_usd += r.repaid_usd;
    totals.equity_change_usd += r.equity_change ?? 0;
    totals.levels[r.level]++;
  }
  return { rows, totals };
}
