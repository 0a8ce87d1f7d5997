import { afterEach, describe, expect, it, afterAll } from 'vitest';
import { monitorOn, tempDir } from '../../../support/monitor';
import { startTestSim } from '../../../support/sim';

const closers: Array<() => unknown> = [];

afterEach(async () => {
  for (const c of closers.splice(0).reverse()) await c();
});

describe('one NFT by id, kept for offline reads', () => {
  it('answers the NFT from the store once the service is gone', async () => {
    const t = await startTestSim();
    closers.push(() => t.close());
    const dir = tempDir();
    closers.push(() => dir.remove());
    const m = monitorOn(t, dir.dir).start();
    closers.push(() => m.close());
    const wallet = t.sim.world.describe().wallets[0]!;
    const one = (await m.invoke('walletNfts', { owner: wallet })).data.items[0]!;
    expect((await m.invoke('nft', { objectId: one.object_id })).source).toBe('network');
    await t.close();
    const offline = await m.invoke('nft', { objectId: one.object_id });
    expect(offline.data).toEqual(one);
    expect(offline.stale).toBe(true);
  });
});

const cleanups: Array<() => Promise<void> | void> = [];

afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

describe('offline', () => {
  it('returns cached data marked stale when the service is gone, and a clear error without a cache', async () => {
    const t = await startTestSim({ historyDays: 0.2 });
    const dir = tempDir();
    const m = monitorOn(t, dir.dir).start();
    cleanups.push(
      () => dir.remove(),
      () => m.close(),
    );
    const fresh = await m.invoke('pools', {});
    expect(fresh.stale).toBe(false);
    const depth = await m.invoke('depth', { pool: 'SUI_USDC' });
    await t.close();
    const cached = await m.invoke('pools', {});
    expect(cached).toMatchObject({ source: 'cache', stale: true });
    expect(cached.data).toEqual(fresh.data);
    expect(cached.fetchedAt).toBe(fresh.fetchedAt);
    expect(cached.error?.kind).toBe('network');
    expect((await m.invoke('depth', { pool: 'SUI_USDC' })).data).toEqual(depth.data);
    await expect(m.invoke('holders', { type: '0x1::a::B' })).rejects.toMatchObject({ kind: 'network' });
    expect(m.status().online).toBe(false);
    expect(m.status().offlineSince).toBeGreaterThan(0);
  });
});
