import type { MarginEventRow, StoredMarginEvent } from '../../../../shared/contract';

/**
 * Pushed events into a list shown newest first: an event already shown is replaced where it stands
 * (the same event pushed again once its units are known), the others go on top, newest first,
 * and the list keeps at most `limit` rows. An event pushed again (`replaces`) that is not shown is
 * left out: it may be older than the list. `fresh` comes in stream order (oldest first).
 */
export function withPushed(
  shown: readonly MarginEventRow[],
  fresh: readonly (MarginEventRow & Pick<StoredMarginEvent, 'replaces'>)[],
  limit: number,
): MarginEventRow[] {
  const at = new Map(shown.map((e, i) => [e.id, i]));
  const rows = [...shown];
  const added: MarginEventRow[] = [];
  for (const e of fresh) {
    const i = at.get(e.id);
    if (i === undefined) {
      if (!e.replaces) added.push(e);
    } else rows[i] = e;
  }
  return [...added.reverse(), ...rows].slice(0, limit);
}
