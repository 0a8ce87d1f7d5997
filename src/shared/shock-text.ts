import { ALL, type Shocks, type ShockTotals } from './risk-model';
import { POSITION_USD_DIGITS, settingPercentText, signedUsdText, usdText } from './format';

/**
 * Price shocks in words, one text for the app's shock panels and `tidewatch risk`: the moves as
 * they were set ("SUI −15 %", "all non-stable assets +2.5 %") and what they do, its money summed
 * from the positions' own and so written as they are, to the cent (docs/formats.md).
 */

/** A shock as it was set, signed: "−15 %", "+2.5 %". */
function shockPercentText(move: number, locale: string): string {
  return `${move > 0 ? '+' : ''}${settingPercentText(move * 100, locale)}`;
}

/** The moves that are set, each asset's first and every non-stable asset's last: "SUI −15 % and all non-stable assets −5 %"; '' when none. */
export function shocksText(shocks: Shocks, locale: string): string {
  const parts = Object.entries(shocks)
    .filter(([k, v]) => k !== ALL && v !== 0)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([k, v]) => `${k} ${shockPercentText(v, locale)}`);
  const all = shocks[ALL] ?? 0;
  if (all !== 0) parts.push(`all non-stable assets ${shockPercentText(all, locale)}`);
  const text = parts.join(' and ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** "SUI −15 %: 3 of 9 positions liquidated, $12,400.18 of debt repaid by liquidators, equity −$4,100.52". */
export function shockSentenceText(shocks: Shocks, t: ShockTotals, locale: string): string {
  const of = `${t.liquidated} of ${t.positions} position${t.positions === 1 ? '' : 's'} liquidated`;
  const repaid =
    t.repaid_usd > 0 ? `, ${usdText(t.repaid_usd, locale, POSITION_USD_DIGITS)} of debt repaid by liquidators` : '';
  return `${shocksText(shocks, locale)}: ${of}${repaid}, equity ${signedUsdText(t.equity_change_usd, locale, POSITION_USD_DIGITS)}`;
}
