import { ASSETS } from './assets';
import type { PriceOracle } from './prices';

/**
 * USD values of raw amounts. Prices only change when the oracle steps, and `refresh` is called
 * right after, so the liquidation checks of every manager need no oracle lookups.
 */
export class AssetValues {
  /** Per symbol, USD of one raw unit; the cells are shared, so holders read them without a lookup. */
  private readonly units = new Map<string, UnitUsd>();
  private readonly assets = Object.values(ASSETS);

  constructor(private readonly oracle: PriceOracle) {
    for (const a of this.assets) this.units.set(a.symbol, { usd: 0 });
    this.refresh();
  }

  refresh(): void {
    for (const a of this.assets) this.units.get(a.symbol)!.usd = this.oracle.price(a.symbol) / 10 ** a.decimals;
  }

  /** The live cell of a symbol (updated in place by `refresh`). */
  unit(symbol: string): UnitUsd {
    return this.units.get(symbol)!;
  }

  usd(symbol: string, raw: number): number {
    return raw * this.units.get(symbol)!.usd;
  }

  raw(symbol: string, usd: number): number {
    return Math.max(0, Math.round((usd / this.oracle.price(symbol)) * 10 ** ASSETS[symbol]!.decimals));
  }
}

export interface UnitUsd {
  usd: number;
}
