/**
 * Checkpoints follow wall time: the chain seals about four per second. A fixed genesis keeps
 * checkpoint numbers realistic in size and strictly ordered with timestamps.
 */
const GENESIS_MS = Date.UTC(2023, 4, 3);
const CHECKPOINT_BASE = 10_000_000;
export const CHECKPOINT_MS = 250;

export function checkpointAt(ms: number): number {
  return CHECKPOINT_BASE + Math.floor((ms - GENESIS_MS) / CHECKPOINT_MS);
}

export function isoAt(ms: number): string {
  return new Date(ms).toISOString();
}

/** OHLCV timestamps: ISO 8601, UTC, without zone suffix (docs/service.md, Resources). */
export function isoNoZone(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, '');
}

export const MINUTE_MS = 60_000;
export const HOUR_MS = 3_600_000;
export const DAY_MS = 86_400_000;
