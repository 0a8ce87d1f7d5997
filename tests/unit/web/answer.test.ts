import { describe, expect, it } from 'vitest';
import { sendError, sendJson } from '../../../src/main/web/answer';
import { WIRE_ERRORS, type WireErrorKind } from '../../../src/shared/wire';
import { fakeRes } from './http-doubles';

describe("the web shell's answers", () => {
  it("answer every kind of error with its table's status and the error as it was told", () => {
    const statuses = new Map<number, WireErrorKind[]>();
    for (const kind of Object.keys(WIRE_ERRORS) as WireErrorKind[]) {
      const res = fakeRes();
      const error = { kind, message: `a ${kind}`, advice: 'Do this.' };
      sendError(res.as(), error);
      expect(res.status, kind).toBe(WIRE_ERRORS[kind].status);
      expect(res.json(), kind).toEqual({ error });
      statuses.set(res.status, [...(statuses.get(res.status) ?? []), kind]);
    }
    // Every status a client can get for an error, and what it means.
    expect([...statuses.keys()].sort((a, b) => a - b)).toEqual([400, 401, 403, 404, 405, 429, 500, 502, 504]);
  });

  it('carry JSON, no caching, the base headers, extra headers, and the time in the shell when asked', () => {
    const res = fakeRes();
    sendError(res.as(), { kind: 'method', message: 'use POST' }, { allow: 'POST' }, performance.now());
    expect(res.headers).toMatchObject({
      'content-type': 'application/json; charset=utf-8',
      'cache-control': 'no-store',
      'referrer-policy': 'no-referrer',
      'x-frame-options': 'DENY',
      'x-content-type-options': 'nosniff',
      allow: 'POST',
    });
    expect(String(res.headers['server-timing'])).toMatch(/^app;dur=\d+\.\d{2}$/);
    const plain = fakeRes();
    sendJson(plain.as(), 200, { result: 1 });
    expect(plain.headers['server-timing']).toBeUndefined();
    expect(plain.body).toBe('{"result":1}');
  });
});
