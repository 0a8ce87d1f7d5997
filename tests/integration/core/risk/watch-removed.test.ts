import { afterAll, describe, expect, it } from 'vitest';
import type { MonitorHarness } from '../../../support/monitor-harness';
import { monitorOn, tempDir } from '../../../support/monitor';
import { startTestSim, type TestSim } from '../../../support/sim';

/**
 * A wallet removed from the watch list while a read that included it is under way: that read
 * must not bring it back. It once did (the read, started when the wallet was added, kept its
 * records and judged its positions after the removal), and a trader who removed a wallet still
 * got its critical alerts; the contract test saw it under load.
 */
describe('a wallet removed while a read of it is under way', () => {
  let t: TestSim;
  let m: MonitorHarness;
  const dir = tempDir();
  afterAll(async () => {
    await m?.close();
    await t?.close();
    dir.remove();
  });

  it('is in no Portfolio, reading or alert after the read ends', async () => {
    t = await startTestSim({ speed: 1 });
    const [mine, other] = t.sim.world.describe().marginOwners as [string, string];
    m = monitorOn(t, dir.dir, { watch: [mine] }).start();
    await m.refreshRisk();
    // Everything below these: every position judged crosses into critical.
    await m.invoke('updateSettings', { warningRatio: 900, criticalRatio: 800 });
    // Added (a read of both wallets starts) and removed before that read answers.
    await m.invoke('addWatch', { owner: other });
    await m.invoke('removeWatch', { owner: other });
    await m.refreshRisk();
    await m.refreshRisk();
    const owners = (await m.invoke('portfolio', {})).data.wallets.map((w) => w.owner);
    expect(owners).toEqual([mine]);
    const alerted = new Set(m.store.risk.alerts().map((a) => a.owner));
    expect(alerted.has(other)).toBe(false);
    expect(alerted.has(mine)).toBe(true);
    expect([...m.watch.managers.values()].every((o) => o === mine)).toBe(true);
  });
});
