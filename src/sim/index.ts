export { startSim, DEFAULT_SEED, DEFAULT_HEARTBEAT_MS, type SimOptions, type RunningSim } from './server';
export type { PoolFlood } from './http/stream-routes';
export { PLANS, PLAN_NAMES, type PlanName } from '../shared/credit-prices';
export { billLine, type Bill } from './http/billing';
export { World } from './chain/world';
export { DEFAULT_MARGIN_OWNERS } from './chain/margin';
