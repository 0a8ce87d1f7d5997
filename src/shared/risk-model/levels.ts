/**
 * A position's level, judged one way for the tray, the alerts and every view: at or below the
 * liquidation ratio it is liquidatable; below the critical ratio, or within `near_pct` of its
 * liquidation price, critical; below the warning ratio, warning.
 */
export type PositionLevel = 'ok' | 'warning' | 'critical' | 'liquidatable';

export interface RiskThresholds {
  warning: number;
  critical: number;
  /** Critical within this move (percent) of the liquidation price; null: no such rule. */
  near_pct: number | null;
}

export function levelOf(
  ratio: number | null,
  distancePct: number | null,
  t: RiskThresholds,
  liquidation: number,
): PositionLevel {
  if (ratio === null) return 'ok';
  if (ratio <= liquidation) return 'liquidatable';
  if (ratio < t.critical || (t.near_pct !== null && distancePct !== null && Math.abs(distancePct) <= t.near_pct))
    return 'critical';
  if (ratio < t.warning) return 'warning';
  return 'ok';
}

/**
 * A level is left only once a reading clears it by this share (its thresholds x 1.02, the
 * near-liquidation band likewise): a ratio hovering at a threshold neither flaps on screen nor
 * alerts twice (main/core/alerts/escalation.ts).
 */
export const LEVEL_HYSTERESIS = 0.02;
/**
 * The ratio at which a level held by the hysteresis is left: the threshold cleared by
 * LEVEL_HYSTERESIS, rounded up to the three decimals a ratio is shown with (1.20 -> 1.224). The
 * repair advice aims here, so a trader who follows it sees the warning clear, not held.
 */
export function clearOf(threshold: number): number {
  return Math.ceil(Number((threshold * (1 + LEVEL_HYSTERESIS) * 1000).toFixed(6))) / 1000;
}

/**
 * The near-liquidation band widens five times as much (3 % -> 3.3 %): a distance is shown, and
 * judged, at one decimal, so a 2 % widening (3.06 %) would be left by one tick of rounding.
 */
export const NEAR_HYSTERESIS = LEVEL_HYSTERESIS * 5;

export const LEVEL_RANK: Record<PositionLevel, number> = { ok: 0, warning: 1, critical: 2, liquidatable: 3 };
