import type { PositionSummary } from '../../../shared/contract';
import { ratioText } from '../../../shared/units';

const words = (n: number): string =>
  n.toLocaleString('en-US', { maximumFractionDigits: n >= 100 ? 0 : n >= 1 ? 2 : 6 });
const usd = (n: number): string => `$${words(n)}`;
/** A price with the decimals the rows give it: $97,250.00, $3.8017, $0.113786. */
const price = (n: number): string =>
  `$${n.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: n >= 1000 ? 2 : n >= 1 ? 4 : Math.min(8, 3 - Math.floor(Math.log10(n))) })}`;

/** "deposit 1,240 USDC or repay 1,050 USDC to get back to 1.20" (the smallest of each), or ''. */
export function repairWords(p: PositionSummary): string {
  const r = p.repair;
  if (!r) return '';
  const first = r.deposits[0];
  const options = [
    first ? `deposit ${words(first.amount)} ${first.symbol}` : null,
    r.repay ? `repay ${words(r.repay.amount)} ${r.repay.symbol}` : null,
  ].filter((x) => x !== null);
  return options.length > 0 ? `${options.join(' or ')} to get back to ${r.target.toFixed(3).replace(/0$/, '')}` : '';
}

/**
 * A position in the words of an alert, from the one valuation the row shows: "Assets $3,000,
 * debt 2,400 USDC ($2,400): ratio 1.250. SUI at $2.70 (-10.0 %) liquidates it. Deposit 600 USDC
 * or repay 400 USDC to get back to 1.50."
 */
export function describePosition(p: PositionSummary): {
  pool: string | null;
  text: string;
  liquidation: number;
  ratio: number | null;
} {
  const debt = p.debts.map((d) => `${words(d.amount)} ${d.symbol}`).join(' + ');
  const debtUsd = p.debt_usd === null ? '' : ` (${usd(p.debt_usd)})`;
  const opening = p.collateral_usd === null ? 'Debt' : `Assets ${usd(p.collateral_usd)}, debt`;
  const ratio = p.risk_ratio === null ? '' : `: ratio ${ratioText(p.risk_ratio)}`;
  const liq =
    p.liquidation_price === null || p.distance_pct === null
      ? ''
      : ` ${p.moving_symbol} at ${price(p.liquidation_price)} (${p.distance_pct > 0 ? '+' : ''}${p.distance_pct.toFixed(1)} %) liquidates it.`;
  const fix = repairWords(p);
  const repair = fix ? ` ${fix[0]!.toUpperCase()}${fix.slice(1)}.` : '';
  return {
    pool: p.pool_name,
    text: `${opening} ${debt || 'unknown'}${debtUsd}${ratio}.${liq}${repair}`,
    liquidation: p.liquidation_ratio,
    ratio: p.risk_ratio,
  };
}

/** "in 23 days" / "in 5 hours". */
export function inWords(ms: number): string {
  const days = ms / 86_400_000;
  if (days >= 2) return `in ${Math.round(days)} days`;
  const hours = ms / 3_600_000;
  return hours >= 2 ? `in ${Math.round(hours)} hours` : 'within 2 hours';
}
