const STABLE = new Set(['USDC', 'USDT', 'AUSD', 'USDY', 'FDUSD', 'SUIUSDE']);

/** A stablecoin counts as $1 and is never shocked. */
export const isStable = (symbol: string): boolean => STABLE.has(symbol);
