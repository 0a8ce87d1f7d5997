import { afterAll, describe, expect, it } from 'vitest';
import { ServiceClient } from '../../../../src/main/core/client/service-client';
import { readRecords } from '../../../../src/main/core/risk/portfolio';
import { RecordsSource, TRY_PROTOCOL_WIDE_AT } from '../../../../src/main/core/risk/records-source';
import { startTestSim, TEST_KEY } from '../../../support/sim';

const cleanups: Array<() => Promise<void> | void> = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

describe('margin records for many watched wallets (docs/credits.md "What is read")', () => {
  it('reads the protocol-wide lists once many owners are watched, gives each owner the same managers and supplies, and keeps to the cheaper way', async () => {
    const t = await startTestSim({ historyDays: 0.2 });
    cleanups.push(() => t.close());
    const asked: string[] = [];
    const counting: typeof fetch = async (input, init) => {
      asked.push(new URL(String(input instanceof Request ? input.url : input)).pathname);
      return fetch(input, init);
    };
    const client = new ServiceClient({
      baseUrl: t.sim.url,
      apiKey: TEST_KEY,
      fetch: counting,
      requestsPerSecond: 1_000,
      concurrency: 16,
    });
    const owners = (t.sim.world.owners() as Array<{ owner: string; managers: number }>)
      .filter((o) => o.managers > 0)
      .slice(0, TRY_PROTOCOL_WIDE_AT);
    expect(owners).toHaveLength(TRY_PROTOCOL_WIDE_AT);
    const watch = owners.map((o) => ({ owner: o.owner, label: null, group: 'mine' as const, added_at: 0 }));

    const perOwner = await readRecords(client, watch);
    const perOwnerPages = asked.filter((p) => p.startsWith('/dex-margin/margin-managers/')).length;
    asked.length = 0;
    const source = new RecordsSource();
    expect(source.protocolWide(watch.length)).toBe(true);
    const shared = await readRecords(client, watch, source);
    // The protocol-wide list instead of one request per owner; every owner gets its own managers.
    expect(asked.filter((p) => p.startsWith('/dex-margin/margin-managers/'))).toEqual([]);
    const pages = asked.filter((p) => p === '/dex-margin/margin-managers').length;
    expect(pages).toBeGreaterThan(0);
    const ids = (r: typeof perOwner) =>
      r.map((x) => [x.w.owner, (x.managers ?? []).map((m) => m.margin_manager_id).sort()]);
    expect(ids(shared)).toEqual(ids(perOwner));
    // From now on the cheaper way, and the forecast counts its pages.
    expect(source.protocolWide(watch.length)).toBe(pages < perOwnerPages);
    // The supplies too: the protocol-wide list, each owner given the same rows as its own list.
    expect(asked.filter((p) => p.startsWith('/dex-margin/active-supplies/'))).toEqual([]);
    const supplyPages = asked.filter((p) => p === '/dex-margin/active-supplies').length;
    expect(supplyPages).toBeGreaterThan(0);
    const supplies = (r: typeof perOwner) =>
      r.map((x) => [x.w.owner, (x.supplyRows ?? []).map((s) => `${s.supplier_cap_id}/${s.margin_pool_id}`).sort()]);
    expect(supplies(shared)).toEqual(supplies(perOwner));
    expect(source.protocolWide(watch.length, 'supplies')).toBe(supplyPages < watch.length);
    expect(source.readCredits(watch.length)).toBe(
      (Math.min(pages, watch.length) + Math.min(supplyPages, watch.length)) * 10,
    );
    expect(source.protocolWide(2)).toBe(pages < 2);
  });
});
