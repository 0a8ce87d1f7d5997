import { afterAll, describe, expect, it } from 'vitest';
import { EVENT_TYPES } from '../../../../src/shared/api';
import { GAP_CHECK_AFTER_MS } from '../../../../src/main/core/streams/history-recovery';
import { monitorOn, tempDir, until } from '../../../support/monitor';
import { startTestSim } from '../../../support/sim';

const cleanups: Array<() => Promise<void> | void> = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

/**
 * A laptop asleep past the service's retention: the replay cannot bring back what it no longer
 * holds. At production thresholds (more than a minute away), the monitor reads the liquidations
 * since its last checkpoint over REST, stores those the stream missed once, alerts the watched
 * ones, and tells the user which span could not be replayed.
 */
describe('a gap beyond the stream retention', () => {
  it('is recovered over REST, without duplicates, and told to the user', async () => {
    const t = await startTestSim({ speed: 3000, historyDays: 0.3, retention: 40 });
    const dir = tempDir();
    const owners = t.sim.world.describe().marginOwners.slice(0, 5);
    let m = monitorOn(t, dir.dir, { marginFirstStart: '0', watch: owners }).start();
    cleanups.push(
      () => dir.remove(),
      () => t.close(),
    );
    await until(() => m.store.margin.count() >= 30, 20_000, 'the retained history');
    const checkpoint = m.store.margin.lastCheckpoint();
    await m.close();

    // Away for longer than the gap threshold while the chain goes on (far past 40 retained events).
    await new Promise((r) => setTimeout(r, GAP_CHECK_AFTER_MS + 5_000));
    m = monitorOn(t, dir.dir, { watch: owners }).start();
    cleanups.push(() => m.close());
    await until(() => m.status().historyGaps.length > 0, 30_000, 'the gap to be told');
    const gap = m.status().historyGaps[0]!;
    expect(gap.toMs - gap.fromMs).toBeGreaterThan(GAP_CHECK_AFTER_MS);
    expect(gap.recoveredLiquidations).toBeGreaterThan(0);
    expect(gap.message).toMatch(/could no longer replay/);

    // Every liquidation the service has since that checkpoint is stored, exactly once.
    const rest = await t.allPages('/dex-margin/liquidations', { fromCheckpoint: checkpoint! });
    const stored = [...m.store.margin.iterate()].filter((e) => e.type === EVENT_TYPES.liquidation);
    const keys = stored.map((e) => `${e.tx_hash}|${e.margin_manager_id}`);
    expect(new Set(keys).size).toBe(keys.length);
    for (const l of rest) expect(keys).toContain(`${l.digest}|${l.margin_manager_id}`);
    const recovered = stored.filter((e) => e.recovered);
    console.log(
      `gap of ${Math.round((gap.toMs - gap.fromMs) / 1000)} s: ${rest.length} liquidations on the service since the checkpoint, ${recovered.length} recovered over REST, ${stored.length - recovered.length} from the stream`,
    );
    // The alert says so, and watched managers' recovered liquidations are alerted.
    const alerts = m.store.risk.alerts();
    expect(alerts.some((a) => a.rule === 'history-gap')).toBe(true);
    // Liquidations from before the owners were watched (the first run may stop while still replaying history) are stored, never alerted.
    const watchedSince = Math.min(...m.store.settings.watchList().map((w) => w.added_at));
    const watchedRecovered = recovered.filter(
      (e) => e.margin_manager_id && m.watch.managers.has(e.margin_manager_id) && (e.timestamp_ms ?? 0) >= watchedSince,
    );
    for (const e of watchedRecovered)
      expect(alerts.some((a) => a.rule === 'liquidation' && a.event_id === e.id)).toBe(true);
  }, 150_000);
});
