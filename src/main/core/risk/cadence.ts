import type { PositionSummary, Thresholds } from '../../../shared/contract';
import { liquidationBasePrice } from './distance';

/**
 * How often an asset's price is read (docs/credits.md "How often"): as often as its nearest
 * watched position needs. The rule: the time in which the price could plausibly (`sigmas`
 * standard deviations) cover `share` of the distance to the position's next threshold below its
 * ratio (warning, critical, then liquidation), between `minMs` and `maxMs`:
 *
 *   t = (share * d / (sigmas * σ))^2      (σ: the asset's volatility per √s, volatility.ts)
 *
 * A position within `nearPct` of its liquidation price is read at least every `nearMaxMs` (a
 * jump, which a volatility misses, must still be seen within a minute there).
 */
export interface CadenceRule {
  name: string;
  minMs: number;
  maxMs: number;
  sigmas: number;
  share: number;
  nearPct: number;
  /** null: no cap near liquidation (the volatility rule alone). */
  nearMaxMs: number | null;
  /** A fixed interval instead of the rule (a baseline to measure the rule against). */
  fixedMs?: number;
}

export const CADENCE_RULES = {
  /**
   * The default: the volatility rule between 45 s and 15 min, and every 45 s within 10 % of
   * liquidation. 45 s, not less: a crossing is then seen within a minute wherever the position
   * is, and reading each watched asset that often (1,920 reads a day, 38,400 credits) is what a
   * wallet with positions on four assets near a threshold can afford inside the Builder plan.
   */
  guard: { name: 'guard', minMs: 45_000, maxMs: 15 * 60_000, sigmas: 3, share: 0.25, nearPct: 10, nearMaxMs: 45_000 },
  /** The volatility rule alone, down to 15 s at a threshold (sharper, dearer). */
  volatility: { name: 'volatility', minMs: 15_000, maxMs: 15 * 60_000, sigmas: 3, share: 0.25, nearPct: 10, nearMaxMs: null },
  /** Every watched asset every minute, whatever is at stake (the baseline). */
  fixed: { name: 'fixed', minMs: 60_000, maxMs: 60_000, sigmas: 3, share: 0.25, nearPct: 10, nearMaxMs: null, fixedMs: 60_000 },
} as const satisfies Record<string, CadenceRule>;

export type CadenceRuleName = keyof typeof CADENCE_RULES;

/**
 * The interval for one position: `distance` is the relative price move to its next threshold
 * (0.05 = 5 %), `liquidationPct` its distance to the liquidation price in percent (either sign),
 * `sigma` the asset's volatility per √s. Monotone: a smaller distance never gives a longer interval.
 */
export function readIntervalMs(rule: CadenceRule, distance: number | null, liquidationPct: number | null, sigma: number): number {
  if (rule.fixedMs !== undefined) return rule.fixedMs;
  let ms: number;
  if (distance === null || !Number.isFinite(distance)) ms = rule.maxMs;
  else if (distance <= 0) ms = rule.minMs;
  else if (!(sigma > 0)) ms = rule.maxMs;
  else ms = ((rule.share * distance) / (rule.sigmas * sigma)) ** 2 * 1000;
  ms = Math.min(rule.maxMs, Math.max(rule.minMs, ms));
  if (rule.nearMaxMs !== null && liquidationPct !== null && Math.abs(liquidationPct) <= rule.nearPct) ms = Math.min(ms, rule.nearMaxMs);
  return ms;
}

/**
 * The relative move of the position's moving asset (its base) that brings its ratio to its next
 * threshold below the ratio now: warning, critical, then the liquidation ratio. The ratio is
 * carried by the market as the valuation does (ratio x own ratio at the new price / own ratio
 * now), so the target of the own ratio is scaled alike. Null when no move of the base gets there.
 */
export function distanceToNextThreshold(p: PositionSummary, thresholds: Thresholds, quoteUsd: number): number | null {
  const ratio = p.risk_ratio;
  const basePrice = p.price?.usd;
  if (ratio === null || !basePrice || p.collateral_usd === null || !p.debt_usd) return null;
  const debtBase = p.debts.filter((d) => d.symbol === p.base_symbol).reduce((a, d) => a + d.amount, 0);
  const debtQuote = p.debts.filter((d) => d.symbol === p.quote_symbol).reduce((a, d) => a + d.amount, 0);
  const own = p.collateral_usd / p.debt_usd;
  const levels = [thresholds.warning, thresholds.critical, p.liquidation_ratio].filter((t) => t < ratio).sort((a, b) => b - a);
  const next = levels[0];
  if (next === undefined) return 0; // at or below liquidation: read as often as allowed
  const target = liquidationBasePrice({ base: p.base_amount, quote: p.quote_amount, quotePrice: quoteUsd, debtBase, debtQuote }, (own * next) / ratio);
  return target === null ? null : Math.abs(target / basePrice - 1);
}
