import { describe, expect, it } from 'vitest';
import { ServiceError, type ServiceErrorKind } from '../../../src/main/core/client/errors';
import { ContractArgumentError } from '../../../src/shared/contract';
import {
  ApiError,
  CANCELLED,
  fromWire,
  INTERNAL,
  toWire,
  WIRE_ERRORS,
  type WireErrorKind,
} from '../../../src/shared/wire';

/** What a client of the web shell gets for each kind: the statuses it answered before the table. */
const STATUS: Record<WireErrorKind, number> = {
  'bad-argument': 400,
  'bad-request': 400,
  'not-found': 404,
  'rate-limited': 429,
  auth: 502,
  quota: 502,
  server: 502,
  network: 502,
  timeout: 504,
  'invalid-response': 502,
  cancelled: 502,
  internal: 500,
  forbidden: 403,
  unauthorized: 401,
  method: 405,
  'unknown-method': 404,
  'unknown-topic': 404,
  unreachable: 502,
  http: 502,
};

const SERVICE_KINDS: ServiceErrorKind[] = [
  'auth',
  'not-found',
  'bad-request',
  'rate-limited',
  'server',
  'network',
  'timeout',
  'invalid-response',
  'cancelled',
  'quota',
];

const kinds = Object.keys(WIRE_ERRORS) as WireErrorKind[];

describe('the wire errors table', () => {
  it('gives every kind its HTTP status, and no kind is left out', () => {
    expect(kinds.sort()).toEqual((Object.keys(STATUS) as WireErrorKind[]).sort());
    for (const kind of kinds) expect(WIRE_ERRORS[kind].status, kind).toBe(STATUS[kind]);
  });

  it('says what to do in plain words: one sentence or more, no address, no code', () => {
    for (const kind of kinds) {
      const advice: string | undefined = WIRE_ERRORS[kind].advice;
      expect(advice, kind).toBeDefined();
      expect(advice, kind).toMatch(/^[A-Z].*\.$/);
      expect(advice, kind).not.toMatch(/https?:|\bat \w+ \(|\.ts:\d/);
    }
  });

  it("is where a service error's advice comes from, for every kind of service error", () => {
    for (const kind of SERVICE_KINDS) {
      const e = new ServiceError(kind, 'what happened');
      expect(e.advice, kind).toBe(WIRE_ERRORS[kind].advice);
      expect(toWire(e)).toEqual({ kind, message: 'what happened', advice: WIRE_ERRORS[kind].advice });
    }
    expect(new ServiceError('timeout', 'x').advice).toBe(
      'The service is answering too slowly. An earlier answer is shown where Tidewatch kept one; try again in a minute.',
    );
  });

  it('tells a bad argument, a cancelled call and an internal error as before', () => {
    expect(toWire(new ContractArgumentError('addWatch: owner: not an address'))).toEqual({
      kind: 'bad-argument',
      message: 'addWatch: owner: not an address',
    });
    expect(CANCELLED).toEqual({ kind: 'cancelled', message: 'The request was cancelled.' });
    expect(INTERNAL).toEqual({
      kind: 'internal',
      message: 'Tidewatch hit an internal error; it was logged.',
      advice: 'Retry, and report it if it happens again.',
    });
    // An error main did not expect is not told: the caller logs it and answers INTERNAL.
    expect(toWire(new Error('at Object.<anonymous> (/src/x.ts:1:1)'))).toBeUndefined();
  });

  it('arrives on the page as an ApiError with its kind, message and advice', () => {
    const e = fromWire({ kind: 'quota', message: 'used up', advice: WIRE_ERRORS.quota.advice });
    expect(e).toBeInstanceOf(ApiError);
    expect({ kind: e.kind, message: e.message, advice: e.advice }).toEqual({
      kind: 'quota',
      message: 'used up',
      advice: WIRE_ERRORS.quota.advice,
    });
  });
});
