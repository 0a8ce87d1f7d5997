import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cutText } from '../../../../src/main/core/client/body';

describe('messages from the service are cut', () => {
  it('to a bounded length, on a code point boundary', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 2000 }), (text) => {
        const out = cutText(text, 300);
        expect(Array.from(out).length).toBeLessThanOrEqual(300);
        expect(out).not.toMatch(/[\uD800-\uDBFF]$/);
      }),
    );
    expect(cutText('x'.repeat(5_000_000)).length).toBeLessThanOrEqual(300);
  });
});
