import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ServiceError } from '../../../src/main/core/client/errors';
import { InvokeHandler } from '../../../src/main/web/invoke-handler';
import { ContractArgumentError, type TidewatchApi } from '../../../src/shared/contract';
import { INTERNAL, WIRE_ERRORS } from '../../../src/shared/wire';
import { raw, serveHandler } from './http-doubles';

/** The contract as the handler sees it: each method answers, or throws, what the test says. */
const calls: Array<{ method: string; args: unknown; signal?: AbortSignal }> = [];
const answers: Record<string, (args: unknown) => unknown> = {};
const api = {
  invoke: async (method: string, args: unknown, options?: { signal?: AbortSignal }) => {
    calls.push({ method, args, signal: options?.signal });
    const answer = answers[method];
    if (!answer) throw new Error(`no answer for ${method}`);
    return answer(args);
  },
  subscribe: () => () => {},
} as unknown as TidewatchApi;
const log = vi.fn();
let served: Awaited<ReturnType<typeof serveHandler>>;

beforeAll(async () => {
  served = await serveHandler(new InvokeHandler(api, log));
});
afterAll(() => served.close());

const post = (method: string, body?: string) => raw(served.base, `/api/invoke/${method}`, 'POST', body);
const errorOf = (r: { body: string }) => (JSON.parse(r.body) as { error: unknown }).error;

describe('a contract call over HTTP', () => {
  it('answers {"result": …} with its time in the shell, and takes an empty body as no arguments', async () => {
    answers['pools'] = (args) => ({ data: ['SUI_USDC'], args });
    const r = await post('pools');
    expect(r.status).toBe(200);
    expect(JSON.parse(r.body)).toEqual({ result: { data: ['SUI_USDC'], args: {} } });
    expect(String(r.headers['server-timing'])).toMatch(/^app;dur=\d+\.\d{2}$/);
    expect(r.headers['cache-control']).toBe('no-store');
    expect(r.headers['referrer-policy']).toBe('no-referrer');
    expect((await post('pools', '{"limit":5}')).body).toContain('"args":{"limit":5}');
  });

  it('takes only POST, and says so', async () => {
    const r = await raw(served.base, '/api/invoke/pools', 'GET');
    expect(r.status).toBe(405);
    expect(r.headers['allow']).toBe('POST');
    expect(errorOf(r)).toEqual({
      kind: 'method',
      message: 'use POST with a JSON body of arguments',
      advice: WIRE_ERRORS.method.advice,
    });
  });

  it('answers an unknown method with a 404 naming it, and never calls the monitor', async () => {
    const before = calls.length;
    const r = await post('dropTables', '{}');
    expect(r.status).toBe(404);
    expect(errorOf(r)).toEqual({
      kind: 'unknown-method',
      message: 'no contract method "dropTables"',
      advice: WIRE_ERRORS['unknown-method'].advice,
    });
    expect((await post('constructor', '{}')).status).toBe(404);
    expect(calls.length).toBe(before);
  });

  it('refuses a body that is not JSON as a bad argument, and cuts one over 1 MiB', async () => {
    const notJson = await post('pools', '{not json');
    expect(notJson.status).toBe(400);
    expect(errorOf(notJson)).toMatchObject({
      kind: 'bad-argument',
      message: expect.stringMatching(/^the body must be a JSON object of arguments \(/),
    });
    const before = calls.length;
    // The handler stops reading and destroys the request: the connection closes under the sender.
    await expect(post('pools', JSON.stringify({ pad: 'x'.repeat(1024 * 1024) }))).rejects.toThrow(
      /socket hang up|ECONNRESET|EPIPE/,
    );
    expect(calls.length).toBe(before);
  });

  it("answers a told error with its kind's status and advice", async () => {
    answers['walletNfts'] = () => {
      throw new ContractArgumentError('walletNfts: owner: not an address');
    };
    answers['nft'] = () => {
      throw new ServiceError('rate-limited', 'Too many requests');
    };
    answers['depth'] = () => {
      throw new ServiceError('timeout', 'The service did not answer in 10 s');
    };
    const bad = await post('walletNfts', '{"owner":"nope"}');
    expect([bad.status, errorOf(bad)]).toEqual([
      400,
      {
        kind: 'bad-argument',
        message: 'walletNfts: owner: not an address',
        advice: WIRE_ERRORS['bad-argument'].advice,
      },
    ]);
    expect(String(bad.headers['server-timing'])).toMatch(/^app;dur=/);
    const limited = await post('nft', '{}');
    expect([limited.status, errorOf(limited)]).toEqual([
      429,
      { kind: 'rate-limited', message: 'Too many requests', advice: WIRE_ERRORS['rate-limited'].advice },
    ]);
    expect((await post('depth', '{}')).status).toBe(504);
  });

  it('logs an error it did not expect and answers only that it happened', async () => {
    answers['settings'] = () => {
      throw new Error('SQLITE_CORRUPT at /home/me/.tidewatch/store.db');
    };
    const r = await post('settings', '{}');
    expect(r.status).toBe(500);
    expect(errorOf(r)).toEqual(INTERNAL);
    expect(r.body).not.toContain('SQLITE');
    expect(log).toHaveBeenCalledWith(expect.stringMatching(/^internal error in settings: Error: SQLITE_CORRUPT/));
  });

  it('cancels the call when its request goes away before the answer', async () => {
    let started!: () => void;
    const running = new Promise<void>((r) => (started = r));
    answers['riskHistory'] = () => {
      started();
      return new Promise(() => {});
    };
    const controller = new AbortController();
    const pending = fetch(`${served.base}/api/invoke/riskHistory`, {
      method: 'POST',
      body: '{}',
      signal: controller.signal,
    }).catch(() => 'aborted');
    await running;
    const call = calls.at(-1)!;
    expect(call.signal?.aborted).toBe(false);
    controller.abort();
    expect(await pending).toBe('aborted');
    await vi.waitFor(() => expect(call.signal?.aborted).toBe(true));
  });
});
