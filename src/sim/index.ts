export { startSim, DEFAULT_SEED, DEFAULT_HEARTBEAT_MS, type SimOptions, type RunningSim } from './server';
export { World } from './chain/world';
