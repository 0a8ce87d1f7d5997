import type { RiskParams, Settings, Thresholds } from '../../../shared/contract';
import { thresholdsOnPool } from '../../../shared/portfolio';
import type { RiskThresholds } from '../../../shared/risk-model';

/**
 * The thresholds in force for a manager on its pool: its own ratios where set, else the user's
 * defaults moved to the pool's liquidation ratio (portfolio.ts thresholdsOnPool); the
 * near-liquidation rule is the user's, for every position.
 */
export function thresholdsFrom(
  s: Pick<Settings, 'warningRatio' | 'criticalRatio' | 'nearLiquidationPct'>,
  perManager: Readonly<Record<string, Thresholds>>,
): (managerId: string, params: Pick<RiskParams, 'liquidation'>) => RiskThresholds {
  return (id, params) => {
    const t =
      perManager[id] ?? thresholdsOnPool({ warning: s.warningRatio, critical: s.criticalRatio }, params.liquidation);
    return { warning: t.warning, critical: t.critical, near_pct: s.nearLiquidationPct };
  };
}
