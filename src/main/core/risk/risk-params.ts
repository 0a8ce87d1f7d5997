import type { RegisteredDexPool } from '../../../shared/api';
import { DEFAULT_LIQUIDATION_RATIO, type RiskParams } from '../../../shared/portfolio';
import { ServiceError } from '../client/errors';
import type { ServiceClient } from '../client/service-client';

/** The protocol's documented defaults (docs/service.md, Facts about the margin protocol). */
export const DEFAULT_RISK_PARAMS: RiskParams = {
  liquidation: DEFAULT_LIQUIDATION_RATIO,
  target_liquidation: 1.25,
  min_borrow: 1.25,
  min_withdraw: 2,
  user_reward: 0.01,
  pool_reward: 0.04,
  enabled: true,
  source: 'default',
};

/** Per exchange pool id, what the service publishes; `published` is false where it has no such endpoint. */
export interface RiskParamsBook {
  byPool: Map<string, RiskParams>;
  published: boolean;
}

export function riskParamsOf(list: readonly RegisteredDexPool[]): Map<string, RiskParams> {
  const out = new Map<string, RiskParams>();
  for (const p of list) {
    // A published ratio that cannot be a liquidation threshold (<= 1) is a bad row: the defaults stand in.
    if (!(p.liquidation_risk_ratio > 1)) continue;
    out.set(p.pool_id, {
      liquidation: p.liquidation_risk_ratio,
      target_liquidation: p.target_liquidation_risk_ratio,
      min_borrow: p.min_borrow_risk_ratio,
      min_withdraw: p.min_withdraw_risk_ratio,
      user_reward: p.user_liquidation_reward ?? DEFAULT_RISK_PARAMS.user_reward,
      pool_reward: p.pool_liquidation_reward ?? DEFAULT_RISK_PARAMS.pool_reward,
      enabled: p.enabled,
      source: 'service',
    });
  }
  return out;
}

/**
 * The registered exchange pools' risk parameters. A service without the endpoint (404) gets the
 * defaults for every pool, said as such (`published: false`); any other failure is thrown, so the
 * caller keeps what it had.
 */
export async function loadRiskParams(client: ServiceClient, signal?: AbortSignal): Promise<RiskParamsBook> {
  try {
    return { byPool: riskParamsOf(await client.registeredDexPools(signal)), published: true };
  } catch (err) {
    if (err instanceof ServiceError && err.status === 404) return { byPool: new Map(), published: false };
    throw err;
  }
}

export function paramsOf(book: RiskParamsBook | undefined, dexPoolId: string | null | undefined): RiskParams {
  return (dexPoolId ? book?.byPool.get(dexPoolId) : undefined) ?? DEFAULT_RISK_PARAMS;
}
