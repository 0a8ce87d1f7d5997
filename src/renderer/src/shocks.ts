import { ALL, isStable, type Shocks, type ShockTotals } from '../../shared/risk-model';
import { signedPct, signedUsd, usd } from './format';

/**
 * Price shocks in words, for the shock panel and whatever it moves (the Portfolio, a manager's
 * page): "SUI −15 %", and what they do: "SUI −15 %: 3 of 9 positions liquidated, …".
 */

/** The non-stable assets among `symbols`, once each, in order. */
export function shockable(symbols: ReadonlyArray<string | null | undefined>): string[] {
  return [...new Set(symbols.filter((s): s is string => !!s && !isStable(s)))].sort();
}

/** Whether any price moves. */
export const shockActive = (shocks: Shocks): boolean => Object.values(shocks).some((v) => v !== 0);

/** The moves that are set, each asset's first and every non-stable asset's last: "SUI −15 % and all non-stable assets −5 %". */
export function describeShocks(shocks: Shocks): string {
  const parts = Object.entries(shocks)
    .filter(([k, v]) => k !== ALL && v !== 0)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([k, v]) => `${k} ${signedPct(v * 100)}`);
  const all = shocks[ALL] ?? 0;
  if (all !== 0) parts.push(`all non-stable assets ${signedPct(all * 100)}`);
  const text = parts.join(' and ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** "SUI −15 %: 3 of 9 positions liquidated, $12,400 of debt repaid by liquidators, equity −$4,100". */
export function shockSentence(shocks: Shocks, t: ShockTotals): string {
  const of = `${t.liquidated} of ${t.positions} position${t.positions === 1 ? '' : 's'} liquidated`;
  const repaid = t.repaid_usd > 0 ? `, ${usd(t.repaid_usd)} of debt repaid by liquidators` : '';
  return `${describeShocks(shocks)}: ${of}${repaid}, equity ${signedUsd(t.equity_change_usd)}`;
}
