import type { Candle } from '../../../shared/api';

/**
 * What is assumed of an asset no price has been read for yet: 6 % a day, the Demo network's
 * typical daily volatility and about that of the exchange's larger assets.
 */
export const PRIOR_DAILY_VOL = 0.06;
const SECONDS_PER_DAY = 86_400;
const PRIOR_SIGMA = PRIOR_DAILY_VOL / Math.sqrt(SECONDS_PER_DAY);
/**
 * The least σ an asset is taken at: a quarter of the prior. A quiet hour says little of the next
 * (markets jump), and a σ near zero would leave a position near a threshold read rarely.
 */
export const SIGMA_FLOOR = PRIOR_SIGMA / 4;
/** Weight of each new observation (an exponential average over about the last 20 reads). */
const ALPHA = 0.1;
/** Reads closer together than this carry little about the trend and mostly the spread: skipped. */
const MIN_GAP_SEC = 5;

interface Estimate {
  /** Variance of the log price per second. */
  variance: number;
  last: { usd: number; at: number } | null;
  samples: number;
}

/**
 * Each asset's recent volatility, as a standard deviation of the log price per square root of a
 * second of wall time: seeded from candles where they were read, then an exponential average of
 * the squared log returns between the prices Tidewatch reads (a return over `dt` seconds counts
 * as r^2 / dt). The read cadence (cadence.ts) turns it into how soon a price could move far.
 */
export class VolatilityBook {
  private readonly byAsset = new Map<string, Estimate>();

  /**
   * σ per √s of `asset`; the prior when nothing is known. `speed`: the Demo network's, whose market
   * runs that many times faster than real time, so its variance per wall second is that many times
   * a real market's; divided by it, σ is as at speed 1 (the forecast's), never below the floor.
   */
  sigma(asset: string, speed = 1): number {
    const e = this.byAsset.get(asset);
    return e && e.samples > 0 ? Math.max(SIGMA_FLOOR, Math.sqrt(e.variance / speed)) : PRIOR_SIGMA;
  }

  /** Whether anything was learnt of `asset` (candles or two reads). */
  known(asset: string): boolean {
    return (this.byAsset.get(asset)?.samples ?? 0) > 0;
  }

  /** A price read of `asset` at `at` (ms). */
  note(asset: string, usd: number, at: number): void {
    if (!(usd > 0) || !Number.isFinite(usd)) return;
    const e = this.entry(asset);
    const last = e.last;
    if (last && at > last.at) {
      const dt = (at - last.at) / 1000;
      if (dt < MIN_GAP_SEC) return;
      const r = Math.log(usd / last.usd);
      this.add(e, (r * r) / dt);
    }
    if (!last || at > last.at) e.last = { usd, at };
  }

  /** Seed from candles (oldest first): the squared log returns of their closes per second of their period. */
  seed(asset: string, candles: readonly Candle[], periodSec: number): void {
    const closes = candles.map((c) => c.close).filter((x) => x > 0 && Number.isFinite(x));
    if (closes.length < 3) return;
    let sum = 0;
    for (let i = 1; i < closes.length; i++) sum += Math.log(closes[i]! / closes[i - 1]!) ** 2;
    const e = this.entry(asset);
    e.variance = sum / (closes.length - 1) / periodSec;
    e.samples = Math.max(e.samples, closes.length - 1);
  }

  reset(): void {
    this.byAsset.clear();
  }

  private entry(asset: string): Estimate {
    let e = this.byAsset.get(asset);
    if (!e) this.byAsset.set(asset, (e = { variance: PRIOR_SIGMA ** 2, last: null, samples: 0 }));
    return e;
  }

  private add(e: Estimate, sample: number): void {
    e.variance = e.samples === 0 ? sample : (1 - ALPHA) * e.variance + ALPHA * sample;
    e.samples++;
  }
}
