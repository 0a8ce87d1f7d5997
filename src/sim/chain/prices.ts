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
/** Where a market reads USD prices. */
export interface Prices {
  price(symbol: string): number;
}

const ASSET_LIST = Object.values(ASSETS);

export class PriceOracle implements Prices {
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
    for (const a of ASSET_LIST) {
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

/**
 * The oracle's prices at every step of the history, recorded as it is generated, so markets can
 * replay any stretch of it later (their epochs are built after the margin history). Row 0 is
 * the prices before the first step; row i the prices after step i, with its length and time.
 */
export class PricePath implements Prices {
  private readonly slot = new Map<string, number>();
  private readonly symbols: string[];
  private rows: Float64Array;
  private dts: Float64Array;
  private times: Float64Array;
  private n = 0;
  /** The row `price` reads. */
  row = 0;

  constructor(
    private readonly oracle: PriceOracle,
    expectedSteps: number,
  ) {
    for (const symbol of oracle.usd.keys()) this.slot.set(symbol, this.slot.size);
    this.symbols = [...this.slot.keys()];
    this.rows = new Float64Array((expectedSteps + 1) * this.slot.size);
    this.dts = new Float64Array(expectedSteps + 1);
    this.times = new Float64Array(expectedSteps + 1);
    this.record(0, 0);
  }

  /** Steps recorded (rows - 1). */
  get steps(): number {
    return this.n - 1;
  }

  /** Keep the oracle's prices now, after a step of `dtSec` ending at `ms`. */
  record(dtSec: number, ms: number): void {
    const width = this.slot.size;
    if ((this.n + 1) * width > this.rows.length) {
      const grow = (a: Float64Array, size: number): Float64Array => {
        const b = new Float64Array(size);
        b.set(a);
        return b;
      };
      this.rows = grow(this.rows, this.rows.length * 2);
      this.dts = grow(this.dts, this.dts.length * 2);
      this.times = grow(this.times, this.times.length * 2);
    }
    for (let k = 0; k < width; k++) this.rows[this.n * width + k] = this.oracle.usd.get(this.symbols[k]!)!;
    this.dts[this.n] = dtSec;
    this.times[this.n] = ms;
    this.n++;
  }

  dtAt(step: number): number {
    return this.dts[step]!;
  }

  msAt(step: number): number {
    return this.times[step]!;
  }

  price(symbol: string): number {
    const k = this.slot.get(symbol);
    if (k === undefined) throw new Error(`unknown asset ${symbol}`);
    return this.rows[this.row * this.slot.size + k]!;
  }
}
