import type { InterestCurve } from './risk-model';

/**
 * A margin pool's health at one read (docs/alerts.md "Borrow rates"): how much of what is
 * supplied is borrowed, and the rates that follow on its interest curve. Fractions, not percent:
 * 0.86 is 86 % used, 0.372 a borrow APR of 37.2 %.
 */
export interface PoolHealth {
  margin_pool_id: string;
  /** The pool's asset ("USDC"). */
  symbol: string;
  /** Borrowed / supplied. */
  utilization: number;
  borrow_apr: number;
  supply_apr: number;
  curve: InterestCurve;
  /** The borrow APR at the kink (the curve's optimal utilization), where it turns steep. */
  kink_apr: number;
  /** When it was read (ms). */
  ts_ms: number;
}

/** One point of a pool's history (the chart). */
export interface PoolHealthPoint {
  ts_ms: number;
  utilization: number;
  borrow_apr: number;
  supply_apr: number;
}

/** The pools' health now and each pool's history over the span asked (oldest first). */
export interface PoolHealthView {
  pools: PoolHealth[];
  history: Record<string, PoolHealthPoint[]>;
  /** How often the pools are read now (the plan in force; null: not read). */
  everyMs: number | null;
}
