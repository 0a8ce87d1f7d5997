/** One CSV cell (RFC 4180): objects as JSON, quoted when they hold a comma, quote or newline. */
export function csvCell(v: unknown): string {
  const text = v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v);
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvRow(values: readonly unknown[]): string {
  return values.map(csvCell).join(',');
}

/** The columns of an exported margin event, the same in `tidewatch export` and the Live events view. */
export const MARGIN_EVENT_COLUMNS = [
  'id',
  'type',
  'timestamp_ms',
  'checkpoint_id',
  'tx_hash',
  'margin_manager_id',
  'data',
  'valid',
  'received_at',
] as const;
