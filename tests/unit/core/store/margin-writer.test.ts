import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { IncomingMarginEvent } from '../../../../src/main/core/store/margin-events';
import { StoreWriteError } from '../../../../src/main/core/store/margin-committer';
import {
  CATCH_UP_BATCH,
  CATCH_UP_QUIET_MS,
  MarginWriter,
  WRITER_HIGH_WATER,
  WRITER_START_DELAY_MS,
} from '../../../../src/main/core/store/margin-writer';
import type { WriterReply } from '../../../../src/main/core/store/margin-writer-thread';
import { Store, STORE_FILE } from '../../../../src/main/core/store/store';
import { tempDir } from '../../../support/monitor';

const ev = (i: number, manager = `0x${(i % 7).toString(16).padStart(64, '0')}`): IncomingMarginEvent => ({
  id: `${1_800_000_000_000 + i}-0`,
  type: 'dex_margin_manager_updates_deposit',
  timestamp_ms: 1_800_000_000_000 + i,
  checkpoint_id: i,
  tx_hash: `tx${i}`,
  margin_manager_id: manager,
  data: JSON.stringify({ margin_manager_id: manager, quote_asset_amount: i, pad: 'x'.repeat(400) }),
  valid: true,
  problem: null,
});
const range = (from: number, to: number): IncomingMarginEvent[] =>
  Array.from({ length: to - from }, (_, k) => ev(from + k));

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** A store whose writer thread has started: its start delay passed on a fake clock, the thread itself real. */
async function open(): Promise<Store> {
  const d = tempDir();
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
  const store = Store.open(d.dir);
  vi.advanceTimersByTime(WRITER_START_DELAY_MS);
  vi.useRealTimers();
  cleanups.push(
    () => d.remove(),
    () => store.shutdown(),
  );
  expect(store.marginWriter).toBeInstanceOf(MarginWriter);
  expect(await (store.marginWriter as MarginWriter).ready).toBe(true);
  return store;
}

describe('the margin writer thread', () => {
  it('commits in the calling thread until it has started, so a first start does not wait for it', async () => {
    const d = tempDir();
    // The start delay on a fake clock; the thread itself is real.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    const store = Store.open(d.dir);
    cleanups.push(
      () => d.remove(),
      () => store.shutdown(),
      () => void vi.useRealTimers(),
    );
    const writer = store.marginWriter as MarginWriter;
    const before = writer.commit(range(0, 5));
    expect(store.margin.count()).toBe(5); // already written, on the app's connection
    expect(await before).toHaveLength(5);
    vi.advanceTimersByTime(WRITER_START_DELAY_MS - 1);
    expect((writer as unknown as { worker?: Worker }).worker).toBeUndefined();
    vi.advanceTimersByTime(1);
    vi.useRealTimers();
    expect(await writer.ready).toBe(true);
    expect(await writer.commit(range(5, 10))).toHaveLength(5);
    expect(store.margin.count()).toBe(10);
  });

  it('starts only once a catch-up has ended: its batches are committed in the calling thread anyway', async () => {
    const d = tempDir();
    const store = Store.open(d.dir);
    // The writer's start timer and its quiet clock run on a fake clock; the thread itself is real.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    const writer = MarginWriter.start(`${d.dir}/${STORE_FILE}`, 1000, store.margin, () => {}, 50);
    const spawned = (): boolean => (writer as unknown as { worker?: Worker }).worker !== undefined;
    cleanups.push(
      () => d.remove(),
      () => store.shutdown(),
      () => writer.close(),
      () => void vi.useRealTimers(),
    );
    // A catch-up's batches, one every 100 ms for 1 s: past the 50 ms delay, the thread waits.
    for (let b = 0; b < 10; b++) {
      expect(await writer.commit(range(b * CATCH_UP_BATCH, (b + 1) * CATCH_UP_BATCH))).toHaveLength(CATCH_UP_BATCH);
      vi.advanceTimersByTime(b < 9 ? 100 : 0);
      expect(spawned()).toBe(false);
    }
    // It starts no sooner than CATCH_UP_QUIET_MS after the last catch-up batch, and then at once.
    vi.advanceTimersByTime(CATCH_UP_QUIET_MS - 1);
    expect(spawned()).toBe(false);
    vi.advanceTimersByTime(1);
    expect(spawned()).toBe(true);
    expect(await writer.ready).toBe(true);
    expect(await writer.commit(range(20_000, 20_010))).toHaveLength(10);
    expect(store.margin.count()).toBe(10 * CATCH_UP_BATCH + 10);
  });

  it('commits batches in order on its own connection; the new events come back as the objects handed over, and the app reads what it wrote', async () => {
    const store = await open();
    const first = range(0, 300);
    const second = [...range(250, 400)]; // 50 repeats
    const [a, b] = await Promise.all([store.marginWriter.commit(first), store.marginWriter.commit(second)]);
    expect(a).toHaveLength(300);
    expect(a.every((e, i) => e === first[i])).toBe(true);
    expect(b).toEqual(second.slice(50));
    expect(b[0]).toBe(second[50]);
    await store.marginWriter.idle();
    expect(store.margin.count()).toBe(400);
    expect(store.margin.cursor()).toBe(ev(399).id);
  });

  it('learns an owner the app recorded after the manager was first seen (no stale "unknown owner"), also for rows it was writing meanwhile', async () => {
    const store = await open();
    const manager = `0x${'a'.repeat(64)}`;
    await store.marginWriter.commit([ev(1, manager)]);
    // Handed over before the app notes the owner, possibly written after the app's backfill.
    const meanwhile = store.marginWriter.commit(Array.from({ length: 3000 }, (_, k) => ev(10 + k, manager)));
    store.margin.noteOwners([{ id: manager, owner: '0xowner' }]);
    await meanwhile;
    await store.marginWriter.commit([ev(5000, manager)]);
    const rows = store.db
      .prepare('SELECT count(*) FROM margin_events WHERE margin_manager_id = ? AND wid IS NULL')
      .pluck()
      .get(manager);
    expect(rows).toBe(0);
    expect(store.margin.list({ owner: '0xowner', limit: 5000 })).toHaveLength(3002);
  });

  it('commits while the app writes on its own connection: no "database is locked" (write transactions take the lock when they begin)', async () => {
    const store = await open();
    const writes: Array<Promise<IncomingMarginEvent[]>> = [];
    for (let b = 0; b < 200; b++) {
      writes.push(store.marginWriter.commit(range(b * 50, b * 50 + 50)));
      // The app's own writes meanwhile: owners learnt (read, then write) and a recovered liquidation.
      store.margin.noteOwners([{ id: `0x${(b % 7).toString(16).padStart(64, '0')}`, owner: `0xowner${b}` }]);
      store.margin.addRecovered([
        { ...ev(1_000_000 + b), id: `rest-${b}`, type: 'dex_margin_manager_updates_liquidation', recovered: true },
      ]);
      await new Promise((r) => setImmediate(r));
    }
    const outcomes = await Promise.allSettled(writes);
    expect(
      outcomes.filter((o) => o.status === 'rejected').map((o) => String((o as PromiseRejectedResult).reason)),
    ).toEqual([]);
    expect(store.margin.count()).toBe(200 * 50 + 200);
  });

  it('holds a reader that outpaces it: past WRITER_HIGH_WATER events in flight `room()` is a wait that ends once it has caught up', async () => {
    const store = await open();
    const writer = store.marginWriter;
    expect(writer.room()).toBeUndefined();
    const batches: Array<Promise<IncomingMarginEvent[]>> = [];
    // Live-sized batches (a catch-up's, 1,000 and more, go in this thread when nothing is in flight).
    for (let from = 0; from < WRITER_HIGH_WATER + 5000; from += 500)
      batches.push(writer.commit(range(from, from + 500)));
    const wait = writer.room();
    expect(wait).toBeInstanceOf(Promise);
    let settledBefore = 0;
    for (const b of batches) void b.then(() => settledBefore++);
    await wait;
    // It ends when no more than a fifth of the high-water mark is left in flight (two batches here),
    // the batch whose answer ended the wait counted after it: most batches are answered.
    expect(settledBefore).toBeGreaterThanOrEqual(batches.length - 3);
    expect(writer.room()).toBeUndefined();
    await Promise.all(batches);
    expect(store.margin.count()).toBe(batches.length * 500);
  });

  it("commits a catch-up's batch in the calling thread when nothing is in flight, and behind what is, in order", async () => {
    const store = await open();
    const writer = store.marginWriter as MarginWriter;
    const posted = vi.spyOn(writer as unknown as { post(m: unknown): void }, 'post');
    const commits = () => posted.mock.calls.filter(([m]) => (m as { kind: string }).kind === 'commit').length;
    // Nothing in flight: a batch of CATCH_UP_BATCH is written before commit() returns, here.
    const inline = writer.commit(range(0, CATCH_UP_BATCH));
    expect(store.margin.count()).toBe(CATCH_UP_BATCH);
    expect(commits()).toBe(0);
    await inline;
    // A live batch goes to the thread; a catch-up batch behind it follows it there, in order.
    const live = writer.commit(range(CATCH_UP_BATCH, CATCH_UP_BATCH + 10));
    const behind = writer.commit(range(CATCH_UP_BATCH + 10, 2 * CATCH_UP_BATCH + 10));
    expect(commits()).toBe(2);
    expect((await live).length + (await behind).length).toBe(CATCH_UP_BATCH + 10);
    expect(store.margin.count()).toBe(2 * CATCH_UP_BATCH + 10);
    expect(store.margin.cursor()).toBe(ev(2 * CATCH_UP_BATCH + 9).id);
  });

  it('after a failed commit writes nothing more until resumed, then the failed batch and what follows go in, in order', async () => {
    const store = await open();
    await store.marginWriter.commit(range(0, 100));
    // The disk is full for the writer's connection: not one more page.
    const pages = store.db.pragma('page_count', { simple: true }) as number;
    store.marginWriter.pragma(`max_page_count = ${pages}`);
    const failed = range(100, 900);
    const after = range(900, 1000);
    const results = await Promise.allSettled([store.marginWriter.commit(failed), store.marginWriter.commit(after)]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    const [e1, e2] = results.map((r) => (r as PromiseRejectedResult).reason as StoreWriteError);
    expect(e1).toBeInstanceOf(StoreWriteError);
    expect(e1!.reason).toBe('cannot write to the store: disk full');
    expect(e1!.code).toBe('SQLITE_FULL');
    expect(e2!.code).toBe('SKIPPED');
    expect(store.margin.count()).toBe(100);
    expect(store.margin.cursor()).toBe(ev(99).id);

    store.marginWriter.pragma('max_page_count = 1073741823');
    await expect(store.marginWriter.commit(range(1000, 1001))).rejects.toThrow(/earlier batch failed/);
    // Not in this thread either, though nothing is in flight: a catch-up's batch waits for resume too.
    await expect(store.marginWriter.commit(range(1000, 1000 + CATCH_UP_BATCH))).rejects.toThrow(/earlier batch failed/);
    expect(store.margin.count()).toBe(100);
    store.marginWriter.resume();
    expect(await store.marginWriter.commit(failed)).toHaveLength(800);
    expect(await store.marginWriter.commit(after)).toHaveLength(100);
    expect(store.margin.count()).toBe(1000);
  });

  it("when the thread dies, what it had not answered fails and later batches commit on the app's connection", async () => {
    const store = await open();
    const writer = store.marginWriter as MarginWriter;
    await writer.commit(range(0, 10));
    const pending = writer.commit(range(10, 900));
    await (writer as unknown as { worker: Worker }).worker.terminate();
    const outcome = await pending.then(
      () => 'committed',
      (err: StoreWriteError) => err.reason,
    );
    // Either the thread committed it before it was stopped, or it failed with the thread's end.
    expect(outcome === 'committed' || /margin writer thread/.test(outcome)).toBe(true);
    const fresh = await writer.commit(range(10, 1000));
    expect(store.margin.count()).toBe(1000);
    expect(fresh.length).toBe(outcome === 'committed' ? 100 : 990);
  });
});

describe('the built margin writer thread (the Electron bundle)', () => {
  it('is an entry beside the main bundle and commits in a worker', async () => {
    const built = fileURLToPath(new URL('../../../../out/main/margin-writer-thread.js', import.meta.url));
    expect(existsSync(built), "run `npx electron-vite build` first (README's test command does)").toBe(true);
    const d = tempDir();
    cleanups.push(() => d.remove());
    Store.open(d.dir).close();
    const worker = new Worker(built, { workerData: { file: `${d.dir}/${STORE_FILE}`, autocheckpointPages: 1000 } });
    cleanups.push(() => void worker.terminate());
    const replies: WriterReply[] = [];
    const committed = new Promise<WriterReply>((resolve) =>
      worker.on('message', (m: WriterReply) => {
        replies.push(m);
        if (m.kind === 'committed' || m.kind === 'failed') resolve(m);
      }),
    );
    worker.postMessage({ kind: 'commit', n: 1, events: range(0, 3), now: 1 });
    expect(await committed).toEqual({ kind: 'committed', n: 1, fresh: [0, 1, 2] });
    expect(replies[0]).toEqual({ kind: 'ready' });
  });
});
