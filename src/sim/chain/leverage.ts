/**
 * How Demo traders choose when, where and how hard to lever (docs/operations.md, The Demo
 * network), so that liquidation prices gather in clusters as on a real exchange rather than
 * spreading evenly over the range:
 *
 * - **Round leverage.** A trader aims at 5x, 4x, 3x or 2.5x (risk ratios 1.25, 1.333, 1.5,
 *   1.667), as close to the pool's minimum borrow ratio as it lets them.
 * - **Crowds.** Once in each 6 hours of market time, for 45 minutes, traders crowd into one
 *   pool at one leverage (a breakout everyone chases): six times as many open there, all at the
 *   crowd's leverage, so they share an entry price and a liquidation price within about 1.5 %.
 *   Outside a crowd fewer open, so as many open a day as before.
 *
 * Each crowd's time, pool and leverage are a hash of the seed and its period: nothing is drawn
 * from the protocol's generator for them, and a trader's leverage takes the one draw the flat
 * range took before.
 */
const TIER_RATIOS = [1.25, 4 / 3, 1.5, 5 / 3];
/** How often each tier is taken outside a crowd: the highest leverage allowed most. */
const TIER_WEIGHTS = [0.45, 0.3, 0.17, 0.08];
/** A tier's spread either side (ratio units): traders size by hand, not to the last digit. */
const JITTER = 0.008;

const CROWD_PERIOD_SEC = 6 * 3600;
const CROWD_SEC = 45 * 60;
/** How many times as many traders open during a crowd. */
const CROWD_RATE = 6;
/** Outside crowds the rate is scaled so a day's opens stay as many: 1 / (1 + (CROWD_RATE - 1) f). */
const CALM_RATE = 1 / (1 + ((CROWD_RATE - 1) * CROWD_SEC) / CROWD_PERIOD_SEC);

export interface Crowd {
  /** Index of the pool (among the margin-enabled markets) the crowd goes to. */
  market: number;
  /** Index of the leverage tier it takes. */
  tier: number;
}

/** A 32-bit hash of a few integers (splitmix32 rounds): the same on every machine. */
function hash(...xs: number[]): number {
  let h = 0x9e3779b9;
  for (const x of xs) {
    h = (h ^ (x >>> 0)) >>> 0;
    h = Math.imul(h ^ (h >>> 16), 0x85ebca6b) >>> 0;
    h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35) >>> 0;
    h = (h ^ (h >>> 16)) >>> 0;
  }
  return h;
}

/** The crowd at `marketSec` of market time, if one is on (`markets`: how many pools it may choose from). */
export function crowdAt(seed: number, marketSec: number, markets: number): Crowd | null {
  const period = Math.floor(marketSec / CROWD_PERIOD_SEC);
  const start = period * CROWD_PERIOD_SEC + (hash(seed, period, 1) / 2 ** 32) * (CROWD_PERIOD_SEC - CROWD_SEC);
  if (marketSec < start || marketSec >= start + CROWD_SEC || markets <= 0) return null;
  return { market: hash(seed, period, 2) % markets, tier: hash(seed, period, 3) % 3 };
}

/** How many times the usual rate traders open at now. */
export const openRate = (crowd: Crowd | null): number => (crowd ? CROWD_RATE * CALM_RATE : CALM_RATE);

/**
 * The risk ratio a trader aims at in [lo, hi], from a uniform draw `u` in [0, 1): a tier by the
 * weights (the crowd's, in a crowd), with a little spread either side.
 */
export function leverageTarget(u: number, lo: number, hi: number, crowdTier?: number): number {
  // Tiers the range allows; one below `lo` becomes the most the pool lets a trader take.
  const tiers = TIER_RATIOS.map((r) => Math.min(hi, Math.max(lo + JITTER, r)));
  if (crowdTier !== undefined) return clampTo(tiers[crowdTier]! + (u * 2 - 1) * JITTER, lo, hi);
  let at = u;
  for (let i = 0; i < tiers.length; i++) {
    const w = TIER_WEIGHTS[i]!;
    if (at < w || i === tiers.length - 1) return clampTo(tiers[i]! + (Math.min(1, at / w) * 2 - 1) * JITTER, lo, hi);
    at -= w;
  }
  return lo;
}

const clampTo = (x: number, lo: number, hi: number): number => Math.min(hi, Math.max(lo, x));
