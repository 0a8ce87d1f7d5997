import type { StoredMarginEvent } from '../../../../shared/contract';

const cell = (v: unknown): string => {
  const text = v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v);
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
};

/** The events as CSV, the same columns `tidewatch export margin-events --format csv` prints. */
export function eventsToCsv(events: readonly StoredMarginEvent[]): string {
  const header = ['id', 'type', 'timestamp_ms', 'checkpoint_id', 'tx_hash', 'margin_manager_id', 'data', 'valid', 'received_at'];
  const rows = events.map((e) => [e.id, e.type, e.timestamp_ms, e.checkpoint_id, e.tx_hash, e.margin_manager_id, e.data, e.valid, e.received_at].map(cell).join(','));
  return [header.join(','), ...rows].join('\n') + '\n';
}
