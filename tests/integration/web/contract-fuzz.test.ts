import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTRACT_ARGS, CONTRACT_METHODS, type ContractMethod } from '../../../src/shared/contract';
import type { Monitor } from '../../../src/main/core/monitor';
import { startWebShell, type WebShell } from '../../../src/main/web/server';
import { monitorOn, tempDir } from '../../support/monitor';
import { startTestSim, type TestSim } from '../../support/sim';

/**
 * Every contract method fuzzed over HTTP, as a hostile local program would: random JSON,
 * the right keys with wrong or extreme values (1e400, 2^53, -0, lone surrogates, 100,000-deep
 * nesting, javascript: URLs), and bodies that are not JSON. Every answer is a 2xx or a 4xx naming
 * what is wrong; never a 5xx, never a crash.
 */
let t: TestSim;
let m: Monitor;
let web: WebShell;
const dir = tempDir();
const statuses = new Map<number, number>();

beforeAll(async () => {
  t = await startTestSim({ historyDays: 0.05 });
  m = monitorOn(t, dir.dir).start();
  web = await startWebShell({ api: m, port: 0, rendererDir: '/nonexistent' });
});
afterAll(async () => {
  await web.close();
  await m.close();
  await t.close();
  dir.remove();
  console.log(`contract fuzz: ${[...statuses].map(([s, n]) => `${n} x ${s}`).join(', ')}`);
});

async function post(method: string, body: string): Promise<{ status: number; text: string }> {
  const res = await fetch(`http://127.0.0.1:${web.port}/api/invoke/${method}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-tidewatch-token': web.token },
    body,
  });
  const text = await res.text();
  statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
  return { status: res.status, text };
}

/** The argument names a method's schema knows (objects, or objects inside a pipe). */
function keysOf(method: ContractMethod): string[] {
  const schema = CONTRACT_ARGS[method] as unknown as {
    entries?: Record<string, unknown>;
    pipe?: Array<{ entries?: Record<string, unknown> }>;
  };
  return Object.keys(schema.entries ?? schema.pipe?.[0]?.entries ?? {});
}

/** Values that have broken parsers before. */
const nasty = fc.constantFrom<unknown>(
  '1e400', // as text
  -0,
  2 ** 53,
  -(2 ** 53),
  Number.MAX_VALUE,
  0.5,
  '\uD800',
  'a\uDC00b',
  'javascript:alert(1)',
  'file:///etc/passwd',
  'http://[::1',
  '0x',
  `0x${'f'.repeat(65)}`,
  '%',
  '%ff%fe',
  '__proto__',
  { __proto__: { polluted: true } },
  { constructor: { prototype: { polluted: true } } },
  'x'.repeat(100_000),
  [],
  {},
  null,
  true,
);
const value = fc.oneof({ weight: 3, arbitrary: fc.jsonValue({ maxDepth: 3 }) }, { weight: 2, arbitrary: nasty });

/** A JSON text with 1e400 left in (JSON.stringify would make it null). */
const render = (args: unknown): string => JSON.stringify(args).replace(/"1e400"/g, '1e400');

/** Put back what a command changed, so the next call meets the same monitor (the Demo network, no key). */
async function reset(): Promise<void> {
  await m.invoke('updateSettings', {
    network: 'demo',
    baseUrl: '',
    streamUrl: '',
    ipfsGateway: 'https://ipfs.io/ipfs/',
    warningRatio: 1.5,
    criticalRatio: 1.25,
    largeLiquidationUsd: null,
    privacyMode: false,
  });
}

describe('a fuzz of every contract method over HTTP', () => {
  it('answers 2xx or 4xx, never 5xx', { timeout: 240_000 }, async () => {
    for (const method of CONTRACT_METHODS) {
      const keys = keysOf(method);
      const args =
        keys.length > 0
          ? fc.oneof(
              fc.dictionary(fc.constantFrom(...keys), value, { maxKeys: keys.length }),
              fc.jsonValue({ maxDepth: 2 }),
            )
          : fc.jsonValue({ maxDepth: 2 });
      await fc.assert(
        fc.asyncProperty(args, async (a) => {
          const r = await post(method, render(a));
          expect(r.status, `${method} ${render(a).slice(0, 200)} -> ${r.text.slice(0, 300)}`).toBeLessThan(500);
          if (r.status >= 400) expect(JSON.parse(r.text).error.message.length).toBeGreaterThan(0);
          if (['updateSettings', 'setApiKey', 'addWatch', 'removeWatch'].includes(method)) await reset();
        }),
        { numRuns: 40 },
      );
    }
    // Prototypes untouched by any of it.
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('bodies that are not JSON, nested 100,000 deep, or over 1 MiB: a 400 or 413, the server alive', async () => {
    expect((await post('pools', '{not json')).status).toBe(400);
    const deep = `${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}`;
    expect((await post('collection', `{"type":"x","fields":${deep}}`)).status).toBe(400);
    const deepArray = `${'['.repeat(200_000)}${']'.repeat(200_000)}`;
    expect((await post('pools', deepArray)).status).toBe(400);
    const big = await fetch(`http://127.0.0.1:${web.port}/api/invoke/pools`, {
      method: 'POST',
      headers: { 'x-tidewatch-token': web.token },
      body: 'x'.repeat(2 * 1024 * 1024),
    }).catch(() => undefined);
    expect(big === undefined || big.status === 400 || big.status === 413).toBe(true);
    expect((await post('streamStatus', '{}')).status).toBe(200);
  });

  it('names the field at fault', async () => {
    const cases: Array<[string, unknown, RegExp]> = [
      ['updateSettings', { baseUrl: 'javascript:alert(1)' }, /baseUrl must be an http\(s\) URL/],
      ['updateSettings', { ipfsGateway: 'file:///etc/passwd' }, /ipfsGateway must be an http\(s\) URL/],
      ['updateSettings', { largeLiquidationUsd: '1e400' }, /largeLiquidationUsd/],
      ['walletNfts', { owner: '0xab\uD800' }, /owner: contains a broken character/],
      ['collection', { type: 'x', fields: { a: { b: { c: { d: { e: 1 } } } } } }, /fields may nest at most 4 levels/],
      ['candles', { pool: 'SUI_USDC', timeframe: '1m', from: 0, to: 2 ** 53 }, /to/],
    ];
    for (const [method, args, pattern] of cases) {
      const r = await post(method, render(args));
      expect(r.status, r.text).toBe(400);
      expect(JSON.parse(r.text).error.message).toMatch(pattern);
    }
  });
});
