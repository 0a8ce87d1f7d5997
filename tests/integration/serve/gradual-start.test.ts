import { afterEach, describe, expect, it } from 'vitest';
import { startServe, type Serving } from '../../../src/main/web/serve';
import { World } from '../../../src/sim';
import { tempDir } from '../../support/monitor';

const SEED = 20_251_122;

const closers: Array<() => Promise<unknown> | void> = [];

afterEach(async () => {
  for (const c of closers.splice(0).reverse()) await c();
});

describe('serve: the store answers before the Demo network has its history', () => {
  it('answers the kept Portfolio from the store while the Demo world is still being generated', async () => {
    const dir = tempDir();
    closers.push(() => dir.remove());
    const owner = new World({ seed: SEED, historyDays: 0.01 }).describe().owners.find((o) => o.loans > 0)!.owner;
    // First run: the Portfolio is read from the Demo network and kept.
    let serving: Serving = await startServe({ port: 0, dataDir: dir.dir, demo: { seed: SEED }, watch: [owner] });
    const first = await serving.monitor.invoke('portfolio', {});
    expect(first.data.wallets.map((w) => w.owner)).toEqual([owner]);
    await serving.close();

    // Second run: asked right away, before the Demo world exists, it answers from the store.
    serving = await startServe({ port: 0, dataDir: dir.dir, demo: { seed: SEED }, watch: [owner] });
    closers.push(() => serving.close());
    const asked = performance.now();
    const kept = await serving.monitor.invoke('portfolio', {});
    const tookMs = performance.now() - asked;
    expect(serving.sim!.world.built).toBe(false);
    expect(kept.data.wallets.map((w) => w.owner)).toEqual([owner]);
    expect(kept.data.wallets[0]!.positions.length).toBeGreaterThan(0);
    expect(tookMs).toBeLessThan(500);
    // And the Demo network still comes up and answers.
    await serving.sim!.ready;
    expect(serving.sim!.world.built).toBe(true);
  });
});
