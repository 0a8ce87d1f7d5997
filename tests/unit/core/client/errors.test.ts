import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { redact, secretForms, kindOfStatus, parseRetryAfter } from '../../../../src/main/core/client/errors';

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

  it('removes several secrets at once, each in every encoding, whatever the order they come in', () => {
    fc.assert(
      fc.property(
        fc.array(key, { minLength: 2, maxLength: 4 }),
        filler,
        fc.constantFrom(...Object.keys(ENCODINGS)),
        (keys, between, enc) => {
          const text = keys.map((k) => `${between}${ENCODINGS[enc]!(k)}`).join('') + between;
          for (const order of [keys, [...keys].reverse()]) {
            const out = redact(text, ...order);
            for (const k of keys)
              for (const [name, encode] of Object.entries(ENCODINGS)) {
                const form = encode(k);
                if (form.length >= 3) expect(out, `${enc} left a ${name} form`).not.toContain(form);
              }
          }
        },
      ),
      { numRuns: 1000 },
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

describe('service errors', () => {
  it('map statuses to the kinds of docs/service.md, Error responses', () => {
    expect([401, 403, 404, 400, 422, 429, 500, 503].map((s) => kindOfStatus(s))).toEqual([
      'auth',
      'auth',
      'not-found',
      'bad-request',
      'bad-request',
      'rate-limited',
      'server',
      'server',
    ]);
  });

  it('read a 403 about credits, quota or the plan as quota, not as a rejected key', () => {
    expect(kindOfStatus(403, 'Insufficient credits for this request')).toBe('quota');
    expect(kindOfStatus(403, 'monthly quota exceeded')).toBe('quota');
    expect(kindOfStatus(403, 'Upgrade your plan to use this endpoint')).toBe('quota');
    expect(kindOfStatus(403, 'invalid api key')).toBe('auth');
    expect(kindOfStatus(401, 'no credits')).toBe('auth');
  });

  it('redact the api-key from URLs and text', () => {
    expect(redact('GET /x?api-key=SECRET123&page=1')).toBe('GET /x?api-key=***&page=1');
    expect(redact('key SECRET123 leaked', 'SECRET123')).toBe('key *** leaked');
  });

  it('read Retry-After in seconds or as a date', () => {
    expect(parseRetryAfter('3')).toBe(3000);
    expect(parseRetryAfter(new Date(Date.now() + 10_000).toUTCString())).toBeGreaterThan(8000);
    expect(parseRetryAfter('soon')).toBeUndefined();
  });
});
