import { describe, expect, it } from 'vitest';
import { parseAddress } from '../../src/renderer/src/address';
import { describeError } from '../../src/renderer/src/composables/useQuery';
import { ApiError } from '../../src/renderer/src/api';

describe('wallet addresses as typed', () => {
  it('expands a short form and refuses anything else in plain words', () => {
    expect(parseAddress(' 0x2 ')).toEqual({ address: `0x${'0'.repeat(63)}2` });
    expect(parseAddress(`0x${'AB'.repeat(32)}`)).toEqual({ address: `0x${'ab'.repeat(32)}` });
    const bad = parseAddress('0x12g');
    expect('error' in bad && bad.error).toMatch(
      /is not a wallet address: a wallet address is 0x followed by up to 64 hexadecimal digits/,
    );
    const bare = parseAddress('ab'.repeat(32));
    expect('error' in bare && bare.error).toContain('It needs the 0x in front.');
    expect(parseAddress('')).toEqual({ error: 'Enter a wallet address.' });
  });

  it('a refused argument reads as a sentence without method names', () => {
    const e = describeError(
      new ApiError('bad-argument', 'addWatch: owner: not an address: expected 0x followed by 64 hex digits'),
    );
    expect(e.message).toBe('The owner is not an address: expected 0x followed by 64 hex digits.');
    // A field's name in words, main's advice where it gives one.
    const told = describeError(
      new ApiError('bad-argument', 'setThreshold: managerId: malformed: a manager id is 0x followed by 64 hex digits'),
    );
    expect(told).toEqual({
      message: 'The manager id is malformed: a manager id is 0x followed by 64 hex digits.',
      advice: 'Correct it and try again.',
    });
    expect(describeError(new ApiError('bad-argument', 'setThreshold: managerId: unknown.', 'Watch it.'))).toEqual({
      message: 'The manager id is unknown.',
      advice: 'Watch it.',
    });
    expect(e.message).not.toContain('addWatch');
  });
});
