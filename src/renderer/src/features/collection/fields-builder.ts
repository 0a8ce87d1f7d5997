import type { NftObject } from '../../../../shared/api';

/** Attribute keys of a collection, each with its position in `attributes.contents` and the values seen. */
export interface AttributeIndex {
  key: string;
  index: number;
  values: Array<{ value: string; count: number }>;
}

export function indexAttributes(nfts: readonly NftObject[]): AttributeIndex[] {
  const byKey = new Map<string, { index: number; counts: Map<string, number> }>();
  for (const n of nfts) {
    (n.decoded_fields.attributes?.contents ?? []).forEach((a, i) => {
      const e = byKey.get(a.key) ?? { index: i, counts: new Map<string, number>() };
      e.counts.set(a.value, (e.counts.get(a.value) ?? 0) + 1);
      byKey.set(a.key, e);
    });
  }
  return [...byKey.entries()]
    .map(([key, e]) => ({
      key,
      index: e.index,
      values: [...e.counts.entries()]
        .map(([value, count]) => ({ value, count }))
        .sort((a, b) => b.count - a.count || a.value.localeCompare(b.value)),
    }))
    .sort((a, b) => a.index - b.index);
}

/**
 * The `fields` filter for a selection: several values of one attribute are OR (an array),
 * several attributes are AND (several keys), addressed as `attributes.contents.<index>.value`.
 */
export function buildFields(
  index: readonly AttributeIndex[],
  selection: Record<string, string[]>,
): Record<string, string | string[]> {
  const fields: Record<string, string | string[]> = {};
  for (const attr of index) {
    const chosen = selection[attr.key] ?? [];
    if (chosen.length === 0) continue;
    fields[`attributes.contents.${attr.index}.value`] = chosen.length === 1 ? chosen[0]! : [...chosen];
  }
  return fields;
}

/** Share of all NFTs held by the top k holders, for k = 1..n (how concentrated holdings are). */
export function concentration(counts: readonly number[]): Array<[number, number]> {
  const sorted = [...counts].sort((a, b) => b - a);
  const total = sorted.reduce((s, c) => s + c, 0);
  let acc = 0;
  return sorted.map((c, i) => {
    acc += c;
    return [i + 1, total === 0 ? 0 : (acc / total) * 100];
  });
}

/** Whether an NFT carries `value` for the attribute at `attr`. */
function has(n: NftObject, attr: AttributeIndex, values: readonly string[]): boolean {
  const a = (n.decoded_fields.attributes?.contents ?? []).find((x) => x.key === attr.key);
  return a !== undefined && values.includes(a.value);
}

/**
 * Facet counts that follow the selection (as a shop's filters do): for each value of an
 * attribute, how many NFTs of `sample` have it and match every other attribute's selection.
 * Returns key -> value -> count.
 */
export function facetCounts(
  sample: readonly NftObject[],
  index: readonly AttributeIndex[],
  selection: Record<string, string[]>,
): Map<string, Map<string, number>> {
  const out = new Map<string, Map<string, number>>();
  for (const attr of index) {
    const others = index.filter((x) => x.key !== attr.key && (selection[x.key]?.length ?? 0) > 0);
    const counts = new Map<string, number>(attr.values.map((v) => [v.value, 0]));
    for (const n of sample) {
      if (!others.every((o) => has(n, o, selection[o.key]!))) continue;
      const a = (n.decoded_fields.attributes?.contents ?? []).find((x) => x.key === attr.key);
      if (a) counts.set(a.value, (counts.get(a.value) ?? 0) + 1);
    }
    out.set(attr.key, counts);
  }
  return out;
}
