import type { PositionSummary } from '../../../../shared/contract';
import {
  actionsAt,
  DAY_MS,
  LEVEL_HYSTERESIS,
  LEVEL_RANK,
  levelOf,
  NEAR_HYSTERESIS,
} from '../../../../shared/risk-model';
import { amountTitle, apr, pct, pctSet, positionUsd, ratio, time, worthTells } from '../../format';

/**
 * A position's facts in the words of its row: side, why its level, its borrow rate. Every figure
 * is main's (the row judges nothing again); these only say them.
 */

/** "Long SUI", "Short SUI"; "–" without a side (no debt, or nothing held either way). */
export function sideText(p: PositionSummary): string {
  const base = p.base_symbol ?? '?';
  return p.side === 'long' ? `Long ${base}` : p.side === 'short' ? `Short ${base}` : '–';
}

/** Whether the level is held by the hysteresis: judged alone, the figures are at a lower level. */
export function levelHeld(p: PositionSummary): boolean {
  return LEVEL_RANK[levelOf(p.risk_ratio, p.distance_pct, p.thresholds, p.liquidation_ratio)] < LEVEL_RANK[p.level];
}

/**
 * Why the position is at its level, by the thresholds it was judged with; and, between its pool's
 * minimum borrow and minimum withdraw ratios, that withdrawals are refused there (the danger band
 * below has a mark of its own: `dangerBand`).
 */
export function levelReason(p: PositionSummary): string {
  const reason = levelWords(p);
  if (actionsAt(p.risk_ratio, p.risk_params).band !== 'no-withdraw') return reason;
  const pool = p.pool_name ? `${p.pool_name}'s` : "its pool's";
  return `${reason} Withdrawals are refused below ${pool} minimum withdraw ratio ${ratio(p.risk_params.min_withdraw)}; borrows are allowed down to ${ratio(p.risk_params.min_borrow)}.`;
}

function levelWords(p: PositionSummary): string {
  const t = p.thresholds;
  const near = t.near_pct === null ? '' : `, or within ${pctSet(t.near_pct)} of its liquidation price`;
  const rule = `Warning below ${ratio(t.warning)}; critical below ${ratio(t.critical)}${near}; liquidated below ${ratio(p.liquidation_ratio)}.`;
  const r = ratio(p.risk_ratio);
  // Held by the hysteresis: the figures are past the level's edge, but not yet 2 % past it.
  const judged = levelOf(p.risk_ratio, p.distance_pct, t, p.liquidation_ratio);
  if (LEVEL_RANK[judged] < LEVEL_RANK[p.level]) {
    const edge = p.level === 'liquidatable' ? p.liquidation_ratio : p.level === 'critical' ? t.critical : t.warning;
    return `Ratio ${r}: held at ${p.level} until it is ${pct(LEVEL_HYSTERESIS * 100, 0)} past the edge (${ratio(edge * (1 + LEVEL_HYSTERESIS))}${p.level === 'critical' && t.near_pct !== null ? `, and ${pct(t.near_pct * (1 + NEAR_HYSTERESIS), 1)} from its liquidation price` : ''}), so a ratio hovering at a threshold does not flap. ${rule}`;
  }
  switch (p.level) {
    case 'liquidatable':
      return `Ratio ${r} is below the liquidation ratio: liquidators can take it now. ${rule}`;
    case 'critical':
      return p.risk_ratio !== null && p.risk_ratio < t.critical
        ? `Ratio ${r} is below the critical ratio. ${rule}`
        : `Within ${pctSet(t.near_pct)} of its liquidation price. ${rule}`;
    case 'warning':
      return `Ratio ${r} is below the warning ratio. ${rule}`;
    default:
      return `Ratio ${r}. ${rule}`;
  }
}

/**
 * The danger band in the row's words (docs/valuation.md "The danger band"): below its pool's
 * minimum borrow ratio and above its liquidation ratio, the protocol refuses new borrows (and,
 * below the minimum withdraw ratio, withdrawals), each of which would lower the ratio further.
 * A short label and a tooltip that says what is refused, why, and what is left; null outside it.
 */
export function dangerBand(p: PositionSummary): { label: string; title: string } | null {
  const a = actionsAt(p.risk_ratio, p.risk_params);
  if (a.band !== 'danger') return null;
  const pool = p.pool_name ? `${p.pool_name}'s` : "its pool's";
  const min = ratio(p.risk_params.min_borrow);
  const refused = a.withdraw
    ? 'new borrows are refused, since each would lower the ratio further'
    : `new borrows and withdrawals are refused (withdrawals need ${ratio(p.risk_params.min_withdraw)}), since each would lower the ratio further`;
  return {
    label: 'borrows refused',
    title: `Ratio ${ratio(p.risk_ratio)}, below ${pool} minimum borrow ratio ${min}: ${refused}. Deposit, repay or close part of it to get back above ${min}. Liquidated below ${ratio(p.liquidation_ratio)}.`,
  };
}

/** Days until interest alone liquidates, when it does within `alertDays` (the setting); null otherwise. */
export function interestDays(p: PositionSummary, alertDays: number | null): number | null {
  const ms = p.interest.liquidation_in_ms;
  if (ms === null || alertDays === null || ms > alertDays * DAY_MS) return null;
  return Math.max(0, Math.floor(ms / DAY_MS));
}

/** The APR cell's tooltip: where the rate comes from, what has accrued, when interest alone liquidates. */
export function interestTitle(p: PositionSummary): string {
  const i = p.interest;
  const lines = [
    i.apr === null
      ? 'Borrow rate not known'
      : `Borrow rate ${apr(i.apr)} a year, ${i.apr_source === 'observed' ? "from the loan's growth since it was opened" : "by the pool's rate curve at its utilization"}`,
  ];
  if (i.accrued !== null)
    lines.push(
      `Interest accrued since opening: at most ${amountTitle(i.accrued, i.symbol)}${worthTells([i.symbol]) ? ` (${positionUsd(i.accrued_usd)})` : ''}`,
    );
  lines.push(
    i.liquidation_in_ms === null
      ? "Interest alone does not liquidate it within a year at today's prices"
      : `Interest alone liquidates it in ${Math.floor(i.liquidation_in_ms / DAY_MS)} days at today's prices`,
  );
  return lines.join('\n');
}

/** The PnL cell's tooltip: how it was found, or why it is not known. */
export function pnlTitle(p: PositionSummary): string {
  const n = p.pnl;
  if (n.pnl_usd === null) return n.note ?? 'Not known';
  const base = `Equity now less deposits net of withdrawals (${positionUsd(n.net_deposited_usd)}, valued at their time)`;
  return n.estimated && n.note ? `Estimated: ${n.note}\n${base}` : base;
}

/**
 * "moved by the liquidation at Nov 27, 4:23:05 PM EST" when a liquidation moved the break-even
 * price, the liquidation's moment in the one absolute style (`time`); null otherwise.
 */
export function breakEvenMoved(p: PositionSummary, now = Date.now()): string | null {
  const at = p.pnl.break_even_moved_at;
  return at === null || p.pnl.break_even_price === null ? null : `moved by the liquidation at ${time(at, now)}`;
}

/**
 * The break-even price's tooltip: what it is, and why it is not an entry price (the service
 * reports no fills; it counts interest and liquidations: docs/valuation.md).
 */
export function breakEvenTitle(p: PositionSummary): string {
  const n = p.pnl;
  if (n.break_even_price === null) return n.note ?? 'Not known';
  const base = p.base_symbol ?? 'the base asset';
  const lines = [
    `Break-even: the ${base} price at which the profit since opening is zero (the quote's price held).`,
    `Not the price paid (the service does not report fills): it counts the interest accrued, so it ${p.side === 'short' ? 'falls' : 'rises'} as interest accrues.`,
  ];
  if (n.break_even_moved_at !== null)
    lines.push(
      `Moved by the liquidation at ${time(n.break_even_moved_at)}: the loss on what it closed is carried by what is left.`,
    );
  return lines.join('\n');
}
