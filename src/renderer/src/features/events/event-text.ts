import type { MarginEventRow } from '../../../../shared/contract';
import { groupedAmounts, riskRatioFromStream } from '../../../../shared/units';
import { ratio, shortId, units, unitsTitle } from '../../format';

export const EVENT_TYPES = [
  ['', 'All types'],
  ['dex_margin_manager_updates_manager_created', 'Manager created'],
  ['dex_margin_manager_updates_deposit', 'Deposit'],
  ['dex_margin_manager_updates_withdraw', 'Withdraw'],
  ['dex_margin_manager_updates_liquidation', 'Liquidation'],
] as const;

export function eventLabel(t: string): string {
  return EVENT_TYPES.find(([id]) => id === t)?.[1] ?? t;
}

/**
 * An event's amounts in human units with their symbol, at each asset's precision, through the one
 * formatter; `full`: every decimal (the row's tooltip). Privacy mode masks them only for the
 * user's own managers (`own`): other traders' events are market data.
 */
export function eventSummary(e: MarginEventRow, full = false): string {
  const d = (e.data ?? {}) as Record<string, unknown>;
  if (!e.valid) return `kept as received: ${e.problem}`;
  if (e.type.endsWith('manager_created')) return `owner ${shortId(String(d['owner']))}`;
  const opts = { private: e.own === true };
  const known = groupedAmounts(e.amounts ?? [], (a) => (full ? unitsTitle : units)(a.raw, a.decimals, a.symbol, opts));
  const risk = e.type.endsWith('liquidation')
    ? `risk ratio ${ratio(riskRatioFromStream(Number(d['risk_ratio'])))}`
    : '';
  // Units not known yet (the pool list is loading, or the manager was created before the stored history).
  return [risk, known || 'amounts not shown: the asset is not known yet'].filter(Boolean).join(', ');
}
