import { ROW_DATA_FIELDS, type MarginEventRow, type StoredMarginEvent } from '../../../shared/contract';

/**
 * A stored event as a Live events row: the fields the page reads, `data` cut to ROW_DATA_FIELDS.
 * Cut, an answer is about half of a whole one, which the page parses and this process writes at
 * every call (docs/operations.md, Live events' own connection, has the figures).
 */
export function toEventRow(e: StoredMarginEvent): MarginEventRow {
  const row: MarginEventRow = {
    id: e.id,
    type: e.type,
    timestamp_ms: e.timestamp_ms,
    margin_manager_id: e.margin_manager_id,
    valid: e.valid,
  };
  const data = rowData(e.data);
  if (data) row.data = data;
  if (!e.valid) row.problem = e.problem;
  if (e.recovered) row.recovered = true;
  if (e.amounts) row.amounts = e.amounts;
  if (e.own) row.own = true;
  return row;
}

function rowData(data: unknown): Record<string, unknown> | undefined {
  if (typeof data !== 'object' || data === null) return undefined;
  let kept: Record<string, unknown> | undefined;
  for (const field of ROW_DATA_FIELDS) {
    if (field in data) (kept ??= {})[field] = (data as Record<string, unknown>)[field];
  }
  return kept;
}
