import type { WalletSummary } from '../../../../shared/contract';
import { csvRow, POSITION_COLUMNS, positionRow } from '../../../../shared/csv';

/**
 * Every watched wallet's positions as CSV (RFC 4180), riskiest first as the Portfolio lists them:
 * the snapshot on screen, each row with the time it was valued (the snapshot's; older for a wallet
 * the last read could not reach, which keeps its figures of before). The columns: POSITION_COLUMNS.
 */
export function positionsToCsv(wallets: readonly WalletSummary[]): string {
  const rows = wallets.flatMap((w) => w.positions.map((p) => positionRow(w.owner, w.label, p)));
  return [POSITION_COLUMNS.join(','), ...rows.map((r) => csvRow(POSITION_COLUMNS.map((c) => r[c])))].join('\n') + '\n';
}
