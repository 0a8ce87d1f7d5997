import { afterEach, describe, expect, it, vi } from 'vitest';
import { webTransport } from '../../../src/renderer/src/api/web-transport';
import { describeError } from '../../../src/renderer/src/composables/useQuery';
import { ApiError, WIRE_ERRORS } from '../../../src/shared/wire';

afterEach(() => vi.unstubAllGlobals());

async function failureOf(answer: () => Promise<Response>): Promise<ApiError> {
  vi.stubGlobal('fetch', vi.fn(answer));
  try {
    await webTransport('http://127.0.0.1:1').invoke('pools', {});
  } catch (err) {
    if (err instanceof ApiError) return err;
    throw err;
  }
  throw new Error('the call did not fail');
}

describe('the web transport, when serve does not explain', () => {
  it('says Tidewatch is not answering, and what to do, when the request gets no answer', async () => {
    const e = await failureOf(() => Promise.reject(new TypeError('fetch failed')));
    expect(e.kind).toBe('unreachable');
    expect(describeError(e)).toEqual({
      message: 'Tidewatch is not answering.',
      advice: 'Check that `tidewatch serve` is still running, then retry.',
    });
  });

  it('says an unexplained HTTP error in plain words, with what to do, and no address', async () => {
    const e = await failureOf(async () => new Response('', { status: 408 }));
    expect(e.kind).toBe('http');
    const told = describeError(e);
    expect(told).toEqual({
      message: 'Tidewatch answered with an error it did not explain (HTTP 408).',
      advice: WIRE_ERRORS.http.advice,
    });
    expect(`${told.message} ${told.advice}`).not.toContain('127.0.0.1');
  });

  it('passes on the error serve told as it told it', async () => {
    const error = { kind: 'rate-limited', message: 'slow down', advice: WIRE_ERRORS['rate-limited'].advice };
    const e = await failureOf(async () => Response.json({ error }, { status: 429 }));
    expect({ kind: e.kind, message: e.message, advice: e.advice }).toEqual(error);
  });
});
