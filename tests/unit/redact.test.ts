import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { redact, secretForms } from '../../src/main/core/client/errors';

/** How a service or a proxy may echo a key back. */
const ENCODINGS: Record<string, (k: string) => string> = {
  raw: (k) => k,
  uri: (k) => encodeURIComponent(k),
  'uri lower-case escapes': (k) => encodeURIComponent(k).replace(/%[0-9A-F]{2}/g, (e) => e.toLowerCase()),
  'uri twice': (k) => encodeURIComponent(encodeURIComponent(k)),
  encodeURI: (k) => encodeURI(k),
  form: (k) => new URLSearchParams({ x: k }).toString().slice(2),
  'form lower-case escapes': (k) =>
    new URLSearchParams({ x: k })
      .toString()
      .slice(2)
      .replace(/%[0-9A-F]{2}/g, (e) => e.toLowerCase()),
  json: (k) => JSON.stringify(k).slice(1, -1),
  base64: (k) => Buffer.from(k).toString('base64'),
  'base64 unpadded': (k) => Buffer.from(k).toString('base64').replace(/=+$/, ''),
  base64url: (k) => Buffer.from(k).toString('base64url'),
};

/** Keys as services issue them: letters, digits and the characters that need escaping. */
const key = fc.string({
  unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+/=-_. %&?#'.split('')),
  minLength: 8,
  maxLength: 64,
});
const filler = fc.string({ unit: fc.constantFrom(...'abc XYZ:;,()[]{}"\'\n'.split('')), maxLength: 40 });

describe('the one redaction', () => {
  it('removes a key in every encoding, wherever it sits in a message', () => {
    fc.assert(
      fc.property(key, filler, filler, fc.constantFrom(...Object.keys(ENCODINGS)), (k, before, after, enc) => {
        const text = `${before}${ENCODINGS[enc]!(k)}${after}`;
        const out = redact(text, k);
        for (const [name, encode] of Object.entries(ENCODINGS)) {
          const form = encode(k);
          if (form.length >= 3) expect(out, `${enc} left a ${name} form`).not.toContain(form);
        }
        expect(out).toContain('***');
      }),
      { numRuns: 3000 },
    );
  });

  it('removes api-key= values of any key, and leaves other text alone', () => {
    expect(redact('GET /pools?api-key=s3cr%2Bt&page=1 failed; body api-key=other')).toBe(
      'GET /pools?api-key=***&page=1 failed; body api-key=***',
    );
    expect(redact('The service answered 503 for SUI_USDC', 'k-123456')).toBe('The service answered 503 for SUI_USDC');
    expect(secretForms('ab')).toEqual([]);
  });
});
