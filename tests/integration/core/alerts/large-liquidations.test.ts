import { afterAll, describe, expect, it } from 'vitest';
import { monitorOn, tempDir, until } from '../../../support/monitor';
import { startTestSim, type TestSim } from '../../../support/sim';

let t: TestSim;
const dir = tempDir();
afterAll(async () => {
  await t?.close();
  dir.remove();
});

describe('the optional large-liquidation alert', () => {
  it('is off by default, and fires for live liquidations above the USD threshold once set', async () => {
    t = await startTestSim({ speed: 3000, historyDays: 0.5 });
    const m = monitorOn(t, dir.dir, { marginFirstStart: '0' }).start();
    try {
      await until(
        () =>
          m.store.margin.list({ type: 'dex_margin_manager_updates_liquidation', fromMs: Date.now() - 60_000 }).length >
          0,
        30_000,
        'a live liquidation',
      );
      expect(m.store.risk.alerts().filter((a) => a.rule === 'large-liquidation')).toEqual([]);
      await m.invoke('updateSettings', { largeLiquidationUsd: 1 });
      await until(
        () => m.store.risk.alerts().some((a) => a.rule === 'large-liquidation'),
        30_000,
        'a large-liquidation alert',
      );
      const a = m.store.risk.alerts().find((x) => x.rule === 'large-liquidation')!;
      expect(a.level).toBe('warning');
      // Money in full: cents below $10,000, whole dollars above (docs/formats.md).
      expect(a.title).toMatch(/^Large liquidation: \$\d{1,3}(,\d{3})*(\.\d{2})?$/);
      // Only live ones: nothing replayed from the history before the monitor started.
      expect(Number(a.event_id!.split('-')[0])).toBeGreaterThan(Date.now() - 120_000);
    } finally {
      await m.close();
    }
  }, 70_000);
});
