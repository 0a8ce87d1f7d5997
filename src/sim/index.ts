export { startSim, DEFAULT_SEED, DEFAULT_HEARTBEAT_MS, type SimOptions, type RunningSim } from './server';
export type { PoolFlood } from './http/stream-routes';
export { PLANS, type PlanName } from './http/rate-limit';
export { World } from './chain/world';
