import { describe, expect, it } from 'vitest';
import { matchesFields, parseFieldsFilter } from '../../../../src/sim/http/fields-filter';

describe('the fields filter', () => {
  const nft = {
    name: 'A',
    level: '5',
    attributes: {
      contents: [
        { key: 'Eyes', value: 'Laser' },
        { key: 'Hat', value: 'Crown' },
      ],
    },
  };
  const match = (f: object): boolean => matchesFields(nft, parseFieldsFilter(JSON.stringify(f)));

  it('matches equality, OR arrays, indexed dot paths and AND keys', () => {
    expect(match({})).toBe(true);
    expect(match({ name: 'A' })).toBe(true);
    expect(match({ name: 'B' })).toBe(false);
    expect(match({ name: ['B', 'A'] })).toBe(true);
    expect(match({ 'attributes.contents.0.value': 'Laser' })).toBe(true);
    expect(match({ 'attributes.contents.1.value': 'Laser' })).toBe(false);
    expect(match({ 'attributes.contents.0.value': 'Laser', name: 'B' })).toBe(false);
    expect(match({ level: 5 })).toBe(true);
    expect(match({ 'attributes.contents.9.value': 'Laser' })).toBe(false);
    expect(match({ 'name.x': 'A' })).toBe(false);
  });

  it('rejects what is not a JSON object', () => {
    for (const raw of ['x', '[]', '1', '"a"', 'null', '{"a..b":1}'])
      expect(() => parseFieldsFilter(raw)).toThrow(/fields/);
  });
});
