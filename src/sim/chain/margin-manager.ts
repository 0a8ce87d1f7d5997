/**
 * A margin manager of the Demo network as the margin engine keeps it, and what the wire and the
 * liquidation scan read of the engine: the shapes the engine's helpers share, so none of them
 * imports the engine.
 */
import type { UnitUsd } from './asset-values';
import type { RiskSpec } from './assets';
import type { MarginPool, Stamp } from './margin-pools';
import type { Market } from './market';
import type { PriceOracle } from './prices';

export interface Debt {
  side: 'base' | 'quote';
  pool: MarginPool;
  shares: number;
  original: number;
  originalShares: number;
  stamp: Stamp;
}

export interface Manager {
  id: string;
  /** Place in the engine's list (creation order). */
  seq: number;
  balanceManager: string;
  owner: string;
  market: Market;
  created: Stamp;
  updated: Stamp;
  base: number;
  quote: number;
  debt: Debt | null;
  deposit: Stamp & { baseOracle: number; quoteOracle: number };
  closed: boolean;
  /** The risk parameters of the manager's pool. */
  risk: RiskSpec;
  /** USD per raw unit of base and quote, live (the liquidation check runs every step over every manager). */
  units: { base: UnitUsd; quote: UnitUsd };
}

/** What the wire conversions read of the engine (margin-wire.ts). */
export interface MarginReads {
  readonly oracle: PriceOracle;
  riskRatio(m: Manager): number | null;
  debtRaw(d: Debt): number;
}
