import { csvRow, MARGIN_EVENT_COLUMNS } from '../../../../shared/csv';
import type { StoredMarginEvent } from '../../../../shared/contract';

/** The events as CSV, the same columns `tidewatch export margin-events --format csv` prints. */
export function eventsToCsv(events: readonly StoredMarginEvent[]): string {
  return (
    [MARGIN_EVENT_COLUMNS.join(','), ...events.map((e) => csvRow(MARGIN_EVENT_COLUMNS.map((c) => e[c])))].join('\n') +
    '\n'
  );
}
