import type { PositionSummary } from '../../../../shared/contract';
import type { ShockedPosition } from '../../../../shared/risk-model';
import { usdColumn } from '../../format';

/** The decimals of each money column of a wallet's positions table that follows a column rule. */
export interface MoneyColumns {
  /** "If prices move": the equity and its change. */
  shocked: number;
}

/**
 * One rule per column of money (docs/formats.md) where the figures are the table's own: each
 * column's decimals by its largest figure, so "$19,466" never stands above "$2,778.82". A
 * position's own figures (PnL, equity, assets, debt) are not here: they are always to the cent
 * (`positionUsd`), one rule for their columns, and the row and the manager page write the one
 * figure alike (one valuation, one text).
 */
export function moneyColumns(
  rows: readonly PositionSummary[],
  shocked: (p: PositionSummary) => ShockedPosition | null | undefined,
): MoneyColumns {
  return {
    shocked: usdColumn(rows.flatMap((p) => [shocked(p)?.equity, shocked(p)?.equity_change])),
  };
}
