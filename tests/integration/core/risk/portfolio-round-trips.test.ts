import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServiceClient } from '../../../../src/main/core/client/service-client';
import { AssetBookCache } from '../../../../src/main/core/risk/asset-book';
import { readPortfolio } from '../../../../src/main/core/risk/portfolio';
import { PriceBook } from '../../../../src/main/core/risk/prices';
import { OracleBook } from '../../../../src/main/core/risk/oracle-book';
import { thresholdsFrom } from '../../../../src/main/core/risk/thresholds';
import { DEFAULT_SETTINGS } from '../../../../src/main/core/settings';
import { startTestSim, TEST_KEY, type TestSim } from '../../../support/sim';

/**
 * A Portfolio read's longest chain of requests that each waited for an earlier answer: against a
 * real service every link is a round trip (100-300 ms), and a first start pays all of them.
 */
describe('a first Portfolio read against the Demo network', () => {
  let t: TestSim;
  beforeAll(async () => {
    t = await startTestSim({ seed: 20_251_122, historyDays: 0.5 });
  });
  afterAll(() => t.close());

  it('asks the asset book, the managers and the supplies together: three round trips deep, not seven', async () => {
    // Each request's depth: one more than the deepest request answered before it was sent.
    const answered: number[] = [];
    let deepest = 0;
    const paths: string[] = [];
    const fetchCounting = (async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
      const depth = 1 + Math.max(0, ...answered);
      deepest = Math.max(deepest, depth);
      paths.push(`${depth} ${new URL(String(input)).pathname}`);
      const res = await fetch(input, init);
      const body = await res.arrayBuffer();
      answered.push(depth);
      return new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers });
    }) as typeof fetch;
    // No pacing here: only what waits for an answer makes a request deeper, not the limiter's queue.
    const client = new ServiceClient({
      baseUrl: t.sim.url,
      apiKey: TEST_KEY,
      fetch: fetchCounting,
      concurrency: 64,
      requestsPerSecond: 1_000,
    });
    const assets = new AssetBookCache(
      () => client,
      () => true,
    );
    const prices = new PriceBook(
      () => client,
      () => [...(assets.peek()?.poolsById.values() ?? [])],
    );
    const owner = t.sim.world.describe().owners.find((o) => o.loans > 0)!.owner;

    const deps = {
      prices,
      oracle: new OracleBook(),
      thresholds: thresholdsFrom(DEFAULT_SETTINGS, {}),
      history: () => undefined,
    };
    const read = await readPortfolio(
      client,
      assets.load(),
      deps,
      [{ owner, label: null, group: 'mine' as const, added_at: 0 }],
      undefined,
    );

    expect(read.portfolio.wallets[0]!.positions.some((p) => p.debt_usd !== null && p.debt_usd > 0)).toBe(true);
    // Before: pools, then the protocol's supplies (a second page round), margin pools and risk
    // parameters one after another, then the wallet's managers, the prices, the wallet's supplies: 7.
    expect(deepest, paths.join('\n')).toBeLessThanOrEqual(3);
  });
});
