import { ASSETS } from './assets';
import type { PriceOracle } from './prices';

/**
 * USD values of raw amounts. Prices only change when the oracle steps, and `refresh` is called
 * right after, so the liquidation checks of every manager need no oracle lookups.
 */
export class AssetValues {
  private unitUsd: Record<string, number> = {};

  constructor(private readonly oracle: PriceOracle) {
    this.refresh();
  }

  refresh(): void {
    for (const a of Object.values(ASSETS)) this.unitUsd[a.symbol] = this.oracle.price(a.symbol) / 10 ** a.decimals;
  }

  usd(symbol: string, raw: number): number {
    return raw * this.unitUsd[symbol]!;
  }

  raw(symbol: string, usd: number): number {
    return Math.max(0, Math.round((usd / this.oracle.price(symbol)) * 10 ** ASSETS[symbol]!.decimals));
  }
}
