import type { Rng } from '../rng';
import { ASSETS } from './assets';

const SECONDS_PER_DAY = 86_400;
/** Mean number of price jumps (wicks) per asset per day, and their typical size. */
const JUMPS_PER_DAY = 5;
const JUMP_SIGMA = 0.03;

/**
 * USD prices of every asset: a geometric random walk with occasional jumps. Pool mid prices and
 * margin oracle prices both derive from it, so cross rates (DEEP_SUI vs DEEP_USDC / SUI_USDC)
 * agree and risk ratios follow the market.
 */
export class PriceOracle {
  readonly usd = new Map<string, number>();

  constructor(private readonly rng: Rng) {
    for (const a of Object.values(ASSETS)) this.usd.set(a.symbol, a.usd);
  }

  price(symbol: string): number {
    const p = this.usd.get(symbol);
    if (p === undefined) throw new Error(`unknown asset ${symbol}`);
    return p;
  }

  /** Advance by dtSec of market time. */
  step(dtSec: number): void {
    const frac = dtSec / SECONDS_PER_DAY;
    for (const a of Object.values(ASSETS)) {
      if (a.dailyVol === 0) continue;
      let logReturn = a.dailyVol * Math.sqrt(frac) * this.rng.normal();
      if (this.rng.chance(JUMPS_PER_DAY * frac)) logReturn += JUMP_SIGMA * (a.dailyVol / 0.06) * this.rng.normal();
      // A gentle pull towards the starting price keeps a long-running demo in a plausible range.
      const drift = -0.02 * frac * Math.log(this.price(a.symbol) / a.usd);
      this.usd.set(a.symbol, this.price(a.symbol) * Math.exp(logReturn + drift));
    }
  }

  /** Oracle price as an integer with its decimals (Pyth style, 8 decimals). */
  oracle(symbol: string): { price: number; decimals: number } {
    return { price: Math.round(this.price(symbol) * 1e8), decimals: 8 };
  }
}
