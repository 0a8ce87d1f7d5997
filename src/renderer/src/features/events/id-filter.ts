import { parseAddress } from '../../address';

/** How long typing pauses before a typed manager or owner filter applies. */
export const FILTER_DEBOUNCE_MS = 350;

export type IdField = 'manager' | 'owner';

/**
 * Live events' manager and owner fields as typed, checked as the contract checks ids (0x and up
 * to 64 hex digits, a short form expanded): the ids to filter by ('' for none), or a plain
 * sentence saying which is malformed and what to do, and then no request is made.
 */
export function readIdFilters(
  managerText: string,
  ownerText: string,
): { manager: string; owner: string } | { error: string; bad: IdField[] } {
  const errors: string[] = [];
  const bad: IdField[] = [];
  const read = (text: string, field: IdField, what: string): string => {
    if (text.trim() === '') return '';
    const r = parseAddress(text, what);
    if ('address' in r) return r.address;
    errors.push(r.error);
    bad.push(field);
    return '';
  };
  const manager = read(managerText, 'manager', 'manager id');
  const owner = read(ownerText, 'owner', 'wallet address');
  if (errors.length > 0)
    return { error: `${errors.join(' ')} Correct it, or clear the field to see every event.`, bad };
  return { manager, owner };
}
