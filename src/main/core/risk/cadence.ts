import type { PositionSummary } from '../../../shared/contract';
import { modelOf } from '../../../shared/portfolio';
import { priceAtRatio, type RiskThresholds } from '../../../shared/risk-model';

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
  volatility: {
    name: 'volatility',
    minMs: 15_000,
    maxMs: 15 * 60_000,
    sigmas: 3,
    share: 0.25,
    nearPct: 10,
    nearMaxMs: null,
  },
  /** Every watched asset every minute, whatever is at stake (the baseline). */
  fixed: {
    name: 'fixed',
    minMs: 60_000,
    maxMs: 60_000,
    sigmas: 3,
    share: 0.25,
    nearPct: 10,
    nearMaxMs: null,
    fixedMs: 60_000,
  },
} as const satisfies Record<string, CadenceRule>;

export type CadenceRuleName = keyof typeof CADENCE_RULES;

/**
 * The interval for one position: `distance` is the relative price move to its next threshold
 * (0.05 = 5 %), `liquidationPct` its distance to the liquidation price in percent (either sign),
 * `sigma` the asset's volatility per √s. Monotone: a smaller distance never gives a longer interval.
 */
export function readIntervalMs(
  rule: CadenceRule,
  distance: number | null,
  liquidationPct: number | null,
  sigma: number,
): number {
  if (rule.fixedMs !== undefined) return rule.fixedMs;
  let ms: number;
  if (distance === null || !Number.isFinite(distance)) ms = rule.maxMs;
  else if (distance <= 0) ms = rule.minMs;
  else if (!(sigma > 0)) ms = rule.maxMs;
  else ms = ((rule.share * distance) / (rule.sigmas * sigma)) ** 2 * 1000;
  ms = Math.min(rule.maxMs, Math.max(rule.minMs, ms));
  if (rule.nearMaxMs !== null && liquidationPct !== null && Math.abs(liquidationPct) <= rule.nearPct)
    ms = Math.min(ms, rule.nearMaxMs);
  return ms;
}

/**
 * The relative move of the position's moving asset (its base) that brings it to its next level:
 * its next ratio threshold below the ratio now (warning, critical, then the liquidation ratio), or
 * the near-liquidation boundary (within `near_pct` of the liquidation price), whichever comes
 * first; the quote's price held, as the valuation does. Null when no move of the base gets there.
 */
export function distanceToNextThreshold(p: PositionSummary, thresholds: RiskThresholds): number | null {
  const m = modelOf(p);
  const ratio = p.risk_ratio;
  if (ratio === null || !m.prices) return null;
  const { base, quote } = m.prices;
  const levels = [thresholds.warning, thresholds.critical, p.liquidation_ratio].filter((t) => t < ratio);
  if (levels.length === 0) return 0; // at or below liquidation: read as often as allowed
  const moves = levels
    .map((t) => priceAtRatio(m.holdings, quote, t))
    .filter((x): x is number => x !== null)
    .map((x) => Math.abs(x / base - 1));
  const liq = p.liquidation_price;
  if (thresholds.near_pct !== null && liq !== null) {
    const n = thresholds.near_pct / 100;
    const edge = liq < base ? liq / (1 - n) : liq / (1 + n);
    if ((liq < base && edge < base) || (liq > base && edge > base)) moves.push(Math.abs(edge / base - 1));
    else moves.push(0);
  }
  return moves.length === 0 ? null : Math.min(...moves);
}
