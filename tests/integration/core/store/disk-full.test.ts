import { afterAll, describe, expect, it } from 'vitest';
import type { AlertRecord } from '../../../../src/shared/contract';
import { LIQUIDATION_MAP_STORE_RETRY_MS } from '../../../../src/main/core/risk/liquidation-map';
import { BLOCKED_RETRY_MS } from '../../../../src/main/core/streams/supervisor';
import { monitorOn, tempDir, until } from '../../../support/monitor';
import { startTestSim } from '../../../support/sim';

const cleanups: Array<() => Promise<void> | void> = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

/**
 * The disk fills while the margin stream is busy. SQLite's `max_page_count` (on both connections that
 * write: the app's and the margin writer thread's) is the full disk here: the store cannot grow, and every commit fails with SQLITE_FULL ("database or disk is full"), the
 * same error a full volume gives. Nothing after the cursor may be acknowledged, and once space
 * is back the stream resumes from the stored cursor: no event lost, none twice.
 */
describe('a store that cannot be written', () => {
  it('stops the stream with "disk full" in the status and an alert, then resumes from the cursor losing nothing', async () => {
    const t = await startTestSim({ speed: 3000, historyDays: 0.3 });
    const dir = tempDir();
    const m = monitorOn(t, dir.dir, { marginFirstStart: '0' }).start();
    cleanups.push(
      () => dir.remove(),
      () => t.close(),
      () => m.close(),
    );
    const alerts: AlertRecord[] = [];
    cleanups.push(m.subscribe('alerts', (a) => alerts.push(...a)));
    const margin = () => m.streams.supervisor.statuses().find((s) => s.id === 'margin')!;
    await until(() => m.store.margin.count() >= t.sim.world.log.size - 1, 20_000, 'history');

    // The disk is full: not one more page.
    const pages = m.store.db.pragma('page_count', { simple: true }) as number;
    m.store.db.pragma(`max_page_count = ${pages}`);
    m.store.marginWriter.pragma(`max_page_count = ${pages}`);
    await until(() => m.status().storeError !== null, 60_000, 'a failed commit');
    expect(m.status().storeError).toBe('cannot write to the store: disk full');
    await until(() => margin().state === 'stopped-store', 10_000, 'the stream stopped');
    expect(margin().lastError).toBe('cannot write to the store: disk full');
    expect(alerts.some((a) => a.rule === 'store-write' && a.level === 'critical' && /disk full/.test(a.message))).toBe(
      true,
    );
    // Nothing moves while the disk is full.
    const cursor = m.store.margin.cursor();
    const count = m.store.margin.count();
    await new Promise((r) => setTimeout(r, BLOCKED_RETRY_MS + 1000));
    expect(m.store.margin.cursor()).toBe(cursor);
    expect(m.store.margin.count()).toBe(count);
    expect(margin().state).toBe('stopped-store');

    // Space is freed.
    const freedAt = Date.now();
    const sentWhenFreed = t.sim.world.log.size;
    m.store.db.pragma('max_page_count = 1073741823');
    m.store.marginWriter.pragma('max_page_count = 1073741823');
    await until(() => margin().state === 'open', BLOCKED_RETRY_MS + 10_000, 'the stream reopened');
    console.log(`disk freed -> stream open again: ${Date.now() - freedAt} ms`);
    // Every writer that failed meanwhile has written again: the stream's batch, and the liquidation
    // map's read if one landed in the spell (written again on its own 5 s retry, so not
    // necessarily before the stream reopens).
    await until(
      () => m.status().storeError === null,
      LIQUIDATION_MAP_STORE_RETRY_MS + 5_000,
      'the store error cleared',
    );
    console.log(`disk freed -> status clear: ${Date.now() - freedAt} ms`);
    await until(() => m.store.margin.count() >= sentWhenFreed, 20_000, 'the backlog');
    const sent = t.sim.world.log.since('all').map((e) => e.id);
    const stored = [...m.store.margin.iterate()].map((e) => e.id);
    expect(new Set(stored).size).toBe(stored.length);
    expect(stored).toEqual(sent.slice(0, stored.length));
  }, 150_000);

  it("stops a pool page's stream too, says so once, and once space is freed has every trade the service sent meanwhile", async () => {
    const POOL = 'SUI_USDC';
    const t = await startTestSim({ speed: 120, historyDays: 0.1 });
    const dir = tempDir();
    const logs: string[] = [];
    const m = monitorOn(t, dir.dir, { log: (line) => logs.push(line) }).start();
    cleanups.push(
      () => dir.remove(),
      () => t.close(),
      () => m.close(),
    );
    const pushes: number[] = [];
    cleanups.push(m.subscribe(`pool:${POOL}`, (p) => pushes.push(p.trades.length)));
    const pool = () => m.streams.supervisor.statuses().find((s) => s.id === `pool:${POOL}`)!;
    await until(() => m.store.market.lastTradeStreamId(POOL) !== undefined, 30_000, 'a trade from the pool stream');
    const digests = (): Set<string> =>
      new Set(m.store.db.prepare('SELECT event_digest FROM trades WHERE pool = ?').pluck().all(POOL) as string[]);

    const pages = m.store.db.pragma('page_count', { simple: true }) as number;
    m.store.db.pragma(`max_page_count = ${pages}`);
    m.store.marginWriter.pragma(`max_page_count = ${pages}`);
    await until(() => pool().state === 'stopped-store', 60_000, 'the pool stream stopped');
    expect(pool().lastError).toBe('cannot write to the store: disk full');
    expect(m.status().storeError).toBe('cannot write to the store: disk full');
    const lastMs = m.store.market.lastTradeMs(POOL)!;
    const count = digests().size;
    const pushed = pushes.length;
    await new Promise((r) => setTimeout(r, BLOCKED_RETRY_MS * 2 + 1000));
    // Stopped, not retrying each batch: one line, nothing stored or shown meanwhile.
    expect(logs.filter((l) => l.startsWith(`pool ${POOL}:`) && /disk full/.test(l))).toHaveLength(1);
    expect(digests().size).toBe(count);
    expect(pushes.length).toBe(pushed);

    m.store.db.pragma('max_page_count = 1073741823');
    m.store.marginWriter.pragma('max_page_count = 1073741823');
    await until(() => pool().state === 'open', BLOCKED_RETRY_MS + 10_000, 'the pool stream reopened');
    const back = Date.now();
    // Every trade since the last one stored before the disk filled, as the service's REST answers them.
    const sent: string[] = [];
    for (let sec = Math.floor(lastMs / 1000); sec <= Math.floor(back / 1000) - 1; sec++) {
      const r = await t.get(`/dex/${POOL}/trades`, { from: sec, to: sec, limit: 100 });
      const trades = r.body as Array<{ event_digest: string; checkpoint_timestamp_ms: number }>;
      expect(trades.length).toBeLessThan(100);
      sent.push(...trades.filter((x) => x.checkpoint_timestamp_ms > lastMs).map((x) => x.event_digest));
    }
    expect(sent.length).toBeGreaterThan(0);
    await until(() => sent.every((d) => digests().has(d)), 20_000, 'every trade sent while the disk was full').catch(
      () => {},
    );
    expect(sent.filter((d) => !digests().has(d))).toEqual([]);
    await until(() => m.status().storeError === null, 10_000, 'the store error cleared');
  }, 150_000);
});
