import type { MapBucket, MapCluster, MapEntry } from './risk-model';

/**
 * A pool's liquidation map as the page gets it (docs/valuation.md "The liquidation map"): every
 * active manager of the pool at its liquidation price, in the pool's quote units, the buckets the
 * band draws and the clusters, from the protocol-wide loans as last read.
 */
export interface LiquidationMapView {
  pool: string;
  /** Every placed manager of the pool, lowest liquidation price first; the trader's own marked. */
  entries: MapEntry[];
  /** The entries in buckets of `width` (quote units), lowest first. */
  buckets: MapBucket[];
  width: number;
  /** Where each side gathers, the largest first. */
  clusters: MapCluster[];
  /** When the loans were read (ms); null: never yet. */
  readAt: number | null;
  /** How often they are read now (the plan in force); null: not read, for the budget. */
  everyMs: number | null;
  /** What the last read took, every pool at once: loans, pages (each a request). */
  loans: number;
  pages: number;
  /** Managers of this pool with a loan the map could not place (no holdings in what the service sent). */
  unplaced: number;
  /**
   * Managers of this pool the margin stream reported liquidated since the read: left out of
   * `entries`, the buckets and the clusters until the next read.
   */
  liquidated: number;
}
