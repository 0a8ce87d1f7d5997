import type { PositionSummary } from '../../../../shared/contract';
import type { ShockedPosition } from '../../../../shared/risk-model';
import { usdColumn } from '../../format';

/** The decimals of each money column of a wallet's positions table. */
export interface MoneyColumns {
  pnl: number;
  equity: number;
  /** Assets and, under them, debt: one cell, one column. */
  assets: number;
  /** "If prices move": the equity and its change. */
  shocked: number;
}

/**
 * One rule per column of money (docs/formats.md): each column's decimals by its largest figure,
 * so "$19,466" never stands above "$2,778.82" (cents below $10,000, whole dollars once one figure
 * of the column reaches it).
 */
export function moneyColumns(
  rows: readonly PositionSummary[],
  shocked: (p: PositionSummary) => ShockedPosition | null | undefined,
): MoneyColumns {
  return {
    pnl: usdColumn(rows.map((p) => p.pnl.pnl_usd)),
    equity: usdColumn(rows.map((p) => p.equity_usd)),
    assets: usdColumn(rows.flatMap((p) => [p.collateral_usd, p.debt_usd])),
    shocked: usdColumn(rows.flatMap((p) => [shocked(p)?.equity, shocked(p)?.equity_change])),
  };
}
