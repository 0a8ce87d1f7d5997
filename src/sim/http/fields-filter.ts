import { badParameter } from './errors';

/**
 * The `fields` filter of Collection Snapshot (docs/service.md, NFT endpoints): a JSON object whose keys are
 * dot paths into decoded_fields (array indexes allowed: `attributes.contents.0.value`); a
 * simple value must be equal, an array value matches any element (OR), keys combine with AND.
 */
export type FieldsFilter = Array<{ path: string[]; accepted: unknown[] }>;

export function parseFieldsFilter(raw: string | undefined): FieldsFilter {
  if (raw === undefined) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw badParameter(`fields must be a JSON object, URL-encoded (got "${raw.slice(0, 80)}", which is not JSON)`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw badParameter(
      `fields must be a JSON object such as {"name":"x"} (got ${JSON.stringify(parsed).slice(0, 80)})`,
    );
  }
  return Object.entries(parsed as Record<string, unknown>).map(([key, value]) => {
    if (key.length === 0 || key.split('.').some((s) => s.length === 0)) {
      throw badParameter(`fields has an empty key or path segment: "${key}"`);
    }
    return { path: key.split('.'), accepted: Array.isArray(value) ? value : [value] };
  });
}

function valueAt(root: unknown, path: readonly string[]): unknown {
  let cur: unknown = root;
  for (const seg of path) {
    if (Array.isArray(cur)) {
      if (!/^\d+$/.test(seg)) return undefined;
      cur = cur[Number(seg)];
    } else if (typeof cur === 'object' && cur !== null) {
      cur = (cur as Record<string, unknown>)[seg];
    } else {
      return undefined;
    }
  }
  return cur;
}

function equal(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  // On-chain integers are often decoded as strings: "5" matches 5.
  if ((typeof a === 'number' && typeof b === 'string') || (typeof a === 'string' && typeof b === 'number')) {
    return String(a) === String(b);
  }
  if (typeof a === 'object' && typeof b === 'object' && a !== null && b !== null) {
    return JSON.stringify(a) === JSON.stringify(b);
  }
  return false;
}

export function matchesFields(decodedFields: unknown, filter: FieldsFilter): boolean {
  return filter.every(({ path, accepted }) => {
    const value = valueAt(decodedFields, path);
    return value !== undefined && accepted.some((a) => equal(value, a));
  });
}
