import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AlertRecord } from '../../src/shared/contract';
import { EVENT_TYPES } from '../../src/shared/api';
import { AlertEngine } from '../../src/main/core/alerts/alert-engine';
import { EventUnits } from '../../src/main/core/risk/event-amounts';
import type { IncomingMarginEvent } from '../../src/main/core/store/margin-events';
import { Store, STORE_FILE } from '../../src/main/core/store/store';
import { GroupCommit, GROUP_MAX_MS } from '../../src/main/core/streams/group-commit';
import { alertOnReceipt, dispatchMarginEvents } from '../../src/main/core/streams/margin-dispatch';
import { tempDir } from '../support/monitor';

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

describe('group commit (issue 12: ingest)', () => {
  it('an event on an idle stream is committed within the same turn of the event loop', async () => {
    const batches: number[][] = [];
    const g = new GroupCommit<number>((b) => batches.push(b));
    g.push(1);
    await new Promise((r) => setImmediate(r));
    await new Promise((r) => setImmediate(r));
    expect(batches).toEqual([[1]]);
  });

  it('a steady stream in 1 ms chunks commits at most every 5 ms, never holding an event much longer', async () => {
    const batches: Array<{ at: number; items: Array<{ n: number; at: number }> }> = [];
    const g = new GroupCommit<{ n: number; at: number }>((items) => batches.push({ at: performance.now(), items }));
    for (let n = 0; n < 300; n++) {
      g.push({ n, at: performance.now() });
      await sleep(1);
    }
    await sleep(GROUP_MAX_MS * 3);
    const all = batches.flatMap((b) => b.items.map((i) => i.n));
    expect(all).toEqual(Array.from({ length: 300 }, (_, i) => i));
    // 300 chunks over >= 300 ms: far fewer commits than chunks.
    expect(batches.length).toBeLessThan(150);
    const gaps = batches.slice(1).map((b, i) => b.at - batches[i]!.at);
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(GROUP_MAX_MS - 1);
    // The longest any event waited: one hold, plus a loaded machine's timer slack.
    const waits = batches.flatMap((b) => b.items.map((i) => b.at - i.at));
    expect(Math.max(...waits)).toBeLessThan(GROUP_MAX_MS + 50);
  });

  it('a burst within one turn closes at the item limit', () => {
    const batches: number[] = [];
    const g = new GroupCommit<number>((b) => batches.push(b.length), 1_000);
    for (let n = 0; n < 2_500; n++) g.push(n);
    expect(batches).toEqual([1_000, 1_000]);
    g.flush();
    expect(batches).toEqual([1_000, 1_000, 500]);
  });
});

function liquidation(id: string, manager: string, ms: number): IncomingMarginEvent {
  return {
    id,
    type: EVENT_TYPES.liquidation,
    timestamp_ms: ms,
    checkpoint_id: 1,
    tx_hash: `tx-${id}`,
    margin_manager_id: manager,
    data: JSON.stringify({ margin_manager_id: manager, liquidation_amount: 10, risk_ratio: 1_100_000_000, timestamp: ms }),
    valid: true,
    problem: null,
  };
}

describe('a watched liquidation is alerted on receipt (issue 12: alert latency)', () => {
  it('alerts before the commit, once, and the commit and a replay do not alert again', () => {
    const store = Store.openInMemory();
    cleanups.push(() => store.close());
    const owner = `0x${'ab'.repeat(32)}`;
    const manager = `0x${'cd'.repeat(32)}`;
    store.settings.addWatch(owner, null, 0);
    const pushed: AlertRecord[] = [];
    const alerts = new AlertEngine(store.risk, (a) => pushed.push(...a), 60_000);
    const deps = { watchList: () => store.settings.watchList(), watchedManagers: new Map([[manager, owner]]), eventUnits: new EventUnits(store.margin, store.cache, () => undefined), alerts };
    const e = liquidation('1800000000000-0', manager, 1_800_000_000_000);

    alertOnReceipt(e, deps);
    expect(pushed.map((a) => [a.rule, a.event_id, a.manager_id])).toEqual([['liquidation', e.id, manager]]);
    expect(store.margin.cursor()).toBeUndefined();

    const fresh = store.margin.commit([e]);
    dispatchMarginEvents(fresh, { ...deps, checkLarge: () => {}, publish: () => {}, refreshSoon: () => {} });
    alertOnReceipt(e, deps); // the same event again after a reconnect
    expect(pushed).toHaveLength(1);
    expect(store.risk.alerts().filter((a) => a.rule === 'liquidation')).toHaveLength(1);

    // Another manager's liquidation, and other event types, alert nothing.
    alertOnReceipt(liquidation('1800000000001-0', `0x${'ee'.repeat(32)}`, 1_800_000_000_001), deps);
    alertOnReceipt({ ...liquidation('1800000000002-0', manager, 1_800_000_000_002), type: EVENT_TYPES.deposit }, deps);
    expect(pushed).toHaveLength(1);
  });
});

describe('WAL checkpoints on a worker thread (issue 12: ingest without writer stalls)', () => {
  it('keeps the WAL small while the writer commits, and closes with the WAL folded into the file', async () => {
    const dir = tempDir();
    cleanups.push(() => dir.remove());
    const store = Store.open(dir.dir);
    const wal = join(dir.dir, `${STORE_FILE}-wal`);
    // The writer's own checkpoint is pushed out to 64 MB of WAL: what keeps it small below is the worker.
    expect(store.db.pragma('wal_autocheckpoint', { simple: true })).toBe(16_384);
    // ~40 MB of events in 200 commits: without checkpoints the WAL would hold all of it.
    const big = 'x'.repeat(2_000);
    for (let c = 0; c < 200; c++) {
      const batch: IncomingMarginEvent[] = [];
      for (let i = 0; i < 100; i++) {
        const n = c * 100 + i;
        batch.push({ ...liquidation(`${1_800_000_000_000 + n}-0`, `0x${(n % 50).toString(16).padStart(64, '0')}`, 1_800_000_000_000 + n), type: EVENT_TYPES.deposit, data: JSON.stringify({ pad: big, n }) });
      }
      store.margin.commit(batch);
      if (c % 20 === 0) await sleep(300); // turns in which the checkpointer works
    }
    await sleep(600);
    store.margin.commit([{ ...liquidation('1800000099999-0', '0x1', 1_800_000_099_999), type: EVENT_TYPES.deposit }]);
    // The writer restarted the WAL after the checkpoints, and journal_size_limit bounds the file.
    expect(statSync(wal).size).toBeLessThanOrEqual(64 * 1024 * 1024);
    const pages = store.db.pragma('wal_checkpoint(PASSIVE)', { simple: false }) as Array<{ log: number }>;
    expect(pages[0]!.log).toBeLessThan(2_000);
    await store.shutdown();
    expect(existsSync(wal)).toBe(false);
    const again = Store.open(dir.dir);
    expect(again.margin.count()).toBe(20_001);
    await again.shutdown();
  });
});
