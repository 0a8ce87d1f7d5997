import { isStable, type Shocks, type ShockTotals } from '../../shared/risk-model';
import { shockSentenceText, shocksText } from '../../shared/shock-text';
import { locale } from './format';

/**
 * Price shocks in words, for the shock panel and whatever it moves (the Portfolio, a manager's
 * page): "SUI −15 %", and what they do: "SUI −15 %: 3 of 9 positions liquidated, …", in the
 * product's one text (shared/shock-text.ts, which `tidewatch risk` writes too).
 */

/** The non-stable assets among `symbols`, once each, in order. */
export function shockable(symbols: ReadonlyArray<string | null | undefined>): string[] {
  return [...new Set(symbols.filter((s): s is string => !!s && !isStable(s)))].sort();
}

/** Whether any price moves. */
export const shockActive = (shocks: Shocks): boolean => Object.values(shocks).some((v) => v !== 0);

/** The moves that are set, each asset's first and every non-stable asset's last: "SUI −15 % and all non-stable assets −5 %". */
export const describeShocks = (shocks: Shocks): string => shocksText(shocks, locale);

/** "SUI −15 %: 3 of 9 positions liquidated, $12,400.18 of debt repaid by liquidators, equity −$4,100.52". */
export const shockSentence = (shocks: Shocks, t: ShockTotals): string => shockSentenceText(shocks, t, locale);
