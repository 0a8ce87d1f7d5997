import { describe, expect, it } from 'vitest';
import type { NftObject } from '../../../../src/shared/api';
import {
  buildFields,
  concentration,
  facetCounts,
  indexAttributes,
} from '../../../../src/renderer/src/features/collection/fields-builder';

const nft = (attrs: Array<[string, string]>): NftObject =>
  ({
    decoded_fields: { attributes: { contents: attrs.map(([key, value]) => ({ key, value })) } },
  }) as unknown as NftObject;

describe('the attribute filter builder', () => {
  const nfts = [
    nft([
      ['Eyes', 'Laser'],
      ['Hat', 'Crown'],
    ]),
    nft([
      ['Eyes', 'Calm'],
      ['Hat', 'Crown'],
    ]),
    nft([
      ['Eyes', 'Laser'],
      ['Hat', 'None'],
    ]),
  ];
  const index = indexAttributes(nfts);

  it('lists each attribute with its position and the values seen, most common first', () => {
    expect(index.map((a) => [a.key, a.index])).toEqual([
      ['Eyes', 0],
      ['Hat', 1],
    ]);
    expect(index[0]!.values).toEqual([
      { value: 'Laser', count: 2 },
      { value: 'Calm', count: 1 },
    ]);
  });

  it('produces the fields JSON: one value equal, several values OR, several attributes AND', () => {
    expect(buildFields(index, {})).toEqual({});
    expect(buildFields(index, { Eyes: ['Laser'] })).toEqual({ 'attributes.contents.0.value': 'Laser' });
    expect(buildFields(index, { Eyes: ['Laser', 'Calm'], Hat: ['Crown'] })).toEqual({
      'attributes.contents.0.value': ['Laser', 'Calm'],
      'attributes.contents.1.value': 'Crown',
    });
  });

  it('measures concentration as the share held by the top holders', () => {
    expect(concentration([1, 3, 6])).toEqual([
      [1, 60],
      [2, 90],
      [3, 100],
    ]);
    expect(concentration([])).toEqual([]);
  });
});

describe('facet counts', () => {
  const nfts = [
    nft([
      ['Eyes', 'Laser'],
      ['Hat', 'Crown'],
    ]),
    nft([
      ['Eyes', 'Calm'],
      ['Hat', 'Crown'],
    ]),
    nft([
      ['Eyes', 'Laser'],
      ['Hat', 'None'],
    ]),
  ];
  const index = indexAttributes(nfts);
  it('follow the selection of the other attributes, not their own', () => {
    const none = facetCounts(nfts, index, {});
    expect(Object.fromEntries(none.get('Eyes')!)).toEqual({ Laser: 2, Calm: 1 });
    const crown = facetCounts(nfts, index, { Hat: ['Crown'] });
    expect(Object.fromEntries(crown.get('Eyes')!)).toEqual({ Laser: 1, Calm: 1 });
    // Hat's own counts ignore Hat's selection (so other hats can be added), but follow Eyes.
    expect(Object.fromEntries(crown.get('Hat')!)).toEqual({ Crown: 2, None: 1 });
    const both = facetCounts(nfts, index, { Hat: ['Crown'], Eyes: ['Laser'] });
    expect(Object.fromEntries(both.get('Hat')!)).toEqual({ Crown: 1, None: 1 });
  });
});
