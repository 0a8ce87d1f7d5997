/**
 * The risk model: one set of pure functions for every figure of a margin position, shared by
 * the core (valuation, alerts, the CLI) and the renderer (shocks, repair, projections), with the
 * formulas in docs/valuation.md.
 */
export * from './valuation';
export * from './interest';
export * from './repair';
export * from './levels';
export * from './safe-round';
export * from './shock';
export * from './stable';
export * from './protocol-rules';
export * from './liquidation-map';
export * from './book-close';
