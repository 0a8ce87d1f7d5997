import { closeSync, existsSync, openSync, readdirSync, statSync, writeFileSync, writeSync } from 'node:fs';
import type Database from 'better-sqlite3';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { MMAP_BYTES, openDatabase } from '../../../../src/main/core/store/database';
import type { IncomingMarginEvent } from '../../../../src/main/core/store/margin-events';
import { NO_CHANNELS, UnroutedAlertError } from '../../../../src/main/core/store/risk-alert-repo';
import { Store } from '../../../../src/main/core/store/store';
import type { AlertRecord } from '../../../../src/shared/contract';
import { tempDir } from '../../../support/monitor';
import { EventBus, type CoreEvents } from '../../../../src/main/core/events';

const ev = (id: string, type = 'dex_margin_manager_updates_deposit'): IncomingMarginEvent => ({
  id,
  type,
  timestamp_ms: Number(id.split('-')[0]),
  checkpoint_id: 1,
  tx_hash: 'h',
  margin_manager_id: '0xm',
  data: JSON.stringify({ margin_manager_id: '0xm' }),
  valid: true,
  problem: null,
});

describe('opening the store', () => {
  it('uses WAL and synchronous=NORMAL', () => {
    const t = tempDir();
    const s = Store.open(t.dir);
    expect(s.db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(s.db.pragma('synchronous', { simple: true })).toBe(1);
    s.close();
    t.remove();
  });

  it('moves a file that is not a database aside with a timestamp and starts fresh, saying so', () => {
    const t = tempDir();
    writeFileSync(join(t.dir, 'tidewatch.sqlite'), 'this is not a database at all'.repeat(200));
    const s = Store.open(t.dir);
    expect(s.notice).toMatch(/moved to .*tidewatch\.sqlite\.broken-/);
    expect(s.margin.count()).toBe(0);
    expect(readdirSync(t.dir).some((f) => f.startsWith('tidewatch.sqlite.broken-'))).toBe(true);
    s.close();
    t.remove();
  });

  it('opens a file the last run closed cleanly without checking it first, checks it off the thread, then maps it', async () => {
    const t = tempDir();
    const first = Store.open(t.dir);
    first.margin.commit(Array.from({ length: 500 }, (_, i) => ev(`${2000 + i}-0`)));
    await first.shutdown();
    expect(existsSync(join(t.dir, 'tidewatch.sqlite.closed-cleanly'))).toBe(true);
    const lines: string[] = [];
    const s = Store.open(t.dir, (line) => lines.push(line));
    // The mark is taken at once: a run that dies leaves none, and the next start checks first.
    expect(existsSync(join(t.dir, 'tidewatch.sqlite.closed-cleanly'))).toBe(false);
    const reader = (): Database.Database | undefined => (s as unknown as { reader?: Database.Database }).reader;
    // Until the checkpointer's check passes, Live events read on the app's connection.
    expect(s.margin.list({ limit: 3 }).map((e) => e.id)).toEqual(['2499-0', '2498-0', '2497-0']);
    await vi.waitFor(() => expect(reader()).toBeDefined(), { timeout: 10_000 });
    expect(reader()!.pragma('mmap_size', { simple: true })).toBe(MMAP_BYTES);
    expect(s.margin.list({ limit: 3 }).map((e) => e.id)).toEqual(['2499-0', '2498-0', '2497-0']);
    expect(lines.filter((l) => l.includes('damage'))).toEqual([]);
    await s.shutdown();
    expect(existsSync(join(t.dir, 'tidewatch.sqlite.closed-cleanly'))).toBe(true);
    t.remove();
  });

  it('a file damaged after a clean close: the check off the thread says so, and the next start moves it aside', async () => {
    const t = tempDir();
    const first = Store.open(t.dir);
    const pad = 'x'.repeat(2000);
    first.margin.commit(
      Array.from({ length: 400 }, (_, i) => ({ ...ev(`${3000 + i}-0`), data: JSON.stringify({ pad }) })),
    );
    await first.shutdown();
    // A disk's fault between two runs: a page near the end of the file (the events' rows) overwritten.
    const file = join(t.dir, 'tidewatch.sqlite');
    const size = statSync(file).size;
    const fd = openSync(file, 'r+');
    writeSync(fd, Buffer.alloc(4096, 0xa5), 0, 4096, size - 8 * 4096);
    closeSync(fd);
    const lines: string[] = [];
    const events = new EventBus<CoreEvents>();
    const told: string[] = [];
    events.on('storeDamageFound', ({ notice }) => told.push(notice));
    const s = Store.open(t.dir, (line) => lines.push(line), events);
    expect(s.notice).toBeNull();
    await vi.waitFor(() => expect(lines.some((l) => /check found damage/.test(l))).toBe(true), { timeout: 10_000 });
    expect(told).toEqual([s.notice]);
    expect(s.notice).toMatch(/^The local store is damaged\. Quit Tidewatch and start it again/);
    expect((s as unknown as { reader?: Database.Database }).reader).toBeUndefined();
    await s.shutdown();
    // No mark: the next start checks the file first, and moves it aside.
    expect(existsSync(join(t.dir, 'tidewatch.sqlite.closed-cleanly'))).toBe(false);
    const next = Store.open(t.dir);
    expect(next.notice).toMatch(/moved to .*tidewatch\.sqlite\.broken-/);
    await next.shutdown();
    t.remove();
  });

  it('reads Live events through a mapped connection of its own, which sees every commit and writes nothing', async () => {
    const t = tempDir();
    const s = Store.open(t.dir);
    const reader = (s as unknown as { reader: Database.Database }).reader;
    expect(reader.pragma('mmap_size', { simple: true })).toBe(MMAP_BYTES);
    expect(s.db.pragma('mmap_size', { simple: true })).toBe(0);
    expect(() => reader.exec('DELETE FROM margin_events')).toThrow(/readonly|query_only/i);
    s.margin.commit([ev('1000-0'), ev('1000-1')]);
    expect(s.margin.list({ limit: 10 }).map((e) => e.id)).toEqual(['1000-1', '1000-0']);
    s.margin.commit([ev('1001-0')]);
    expect(s.margin.byIds(['1001-0', '1000-0']).map((e) => e.id)).toEqual(['1001-0', '1000-0']);
    // Closed before the app's connection, which then checkpoints and removes the WAL.
    await s.shutdown();
    expect(reader.open).toBe(false);
    expect(existsSync(join(t.dir, 'tidewatch.sqlite-wal'))).toBe(false);
    t.remove();
  });

  it('opens a fresh file without notice', () => {
    const t = tempDir();
    const r = openDatabase(join(t.dir, 'x.sqlite'));
    expect(r.recovered).toBeUndefined();
    expect(existsSync(join(t.dir, 'x.sqlite'))).toBe(true);
    r.db.close();
    t.remove();
  });
});

describe('margin events and the cursor', () => {
  it('commit a batch with the cursor; a repeated id is ignored', () => {
    const s = Store.openInMemory();
    expect(s.margin.commit([ev('1000-0'), ev('1000-1'), ev('1001-0')]).length).toBe(3);
    expect(s.margin.cursor()).toBe('1001-0');
    expect(s.margin.commit([ev('1000-1'), ev('1001-0'), ev('1002-0')]).map((e) => e.id)).toEqual(['1002-0']);
    expect(s.margin.count()).toBe(4);
    expect(s.margin.cursor()).toBe('1002-0');
    // An older id arriving late never moves the cursor back.
    s.margin.commit([ev('999-0')]);
    expect(s.margin.cursor()).toBe('1002-0');
    expect([...s.margin.iterate()].map((e) => e.id)).toEqual(['999-0', '1000-0', '1000-1', '1001-0', '1002-0']);
  });

  it('any interleaving of batches with repeats stores each id once, in order', () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(fc.integer({ min: 0, max: 40 }), { maxLength: 15 }), { maxLength: 12 }),
        (batches) => {
          const s = Store.openInMemory();
          for (const b of batches) s.margin.commit(b.map((n) => ev(`${1000 + n}-0`)));
          const expected = [...new Set(batches.flat())].sort((a, b) => a - b).map((n) => `${1000 + n}-0`);
          expect([...s.margin.iterate()].map((e) => e.id)).toEqual(expected);
          expect(s.margin.cursor()).toBe(expected[expected.length - 1]);
          s.close();
        },
      ),
      { numRuns: 50 },
    );
  });

  it('resumes from the newest new id in arrival order when ids are not <ms>-<seq>', () => {
    const s = Store.openInMemory();
    s.margin.commit([ev('a1'), ev('a2')]);
    expect(s.margin.cursor()).toBe('a2');
    s.margin.commit([ev('a2'), ev('a3')]);
    expect(s.margin.cursor()).toBe('a3');
    s.margin.commit([{ ...ev('noid-1f'), id: 'noid-1f' }]);
    expect(s.margin.cursor()).toBe('a3');
    expect([...s.margin.iterate()].map((e) => e.id)).toEqual(['a1', 'a2', 'a3', 'noid-1f']);
  });

  it('lists newest first with filters and pages backwards', () => {
    const s = Store.openInMemory();
    s.margin.commit([ev('1-0'), ev('2-0', 'dex_margin_manager_updates_liquidation'), ev('3-0'), ev('4-0')]);
    expect(s.margin.list({ limit: 2 }).map((e) => e.id)).toEqual(['4-0', '3-0']);
    expect(s.margin.list({ beforeId: '3-0' }).map((e) => e.id)).toEqual(['2-0', '1-0']);
    expect(s.margin.list({ type: 'dex_margin_manager_updates_liquidation' }).map((e) => e.id)).toEqual(['2-0']);
    expect(s.margin.list({ fromMs: 2, toMs: 3 }).map((e) => e.id)).toEqual(['3-0', '2-0']);
  });

  it('every Live events query is one index range in stream order: no scan, no sort', () => {
    const s = Store.openInMemory();
    s.margin.commit([ev('1-0'), ev('2-0')]);
    const shapes = [
      {},
      { beforeId: '2-0' },
      { type: 'dex_margin_manager_updates_liquidation' },
      { type: 'dex_margin_manager_updates_liquidation', beforeId: '2-0' },
      { managerId: '0xm' },
      { managerId: '0xm', beforeId: '2-0' },
      { owner: '0xo' },
      { owner: '0xo', beforeId: '2-0' },
      { fromMs: 1, toMs: 2 },
      { type: 'dex_margin_manager_updates_deposit', fromMs: 1 },
    ];
    for (const f of shapes) {
      const plan = s.margin.plan(f).join(' | ');
      expect(plan, JSON.stringify(f)).not.toMatch(/TEMP B-TREE/);
      expect(plan, JSON.stringify(f)).toMatch(/(SEARCH|SCAN) margin_events USING INDEX margin_events_(\w+_)?order\b/);
      // A filter or a page boundary is a range of the index, not a scan of it.
      if (Object.keys(f).length > 0) expect(plan, JSON.stringify(f)).toMatch(/^SEARCH /);
    }
  });

  it('knows owners from manager_created events and from REST, on every event of the manager', () => {
    const s = Store.openInMemory();
    const created = {
      ...ev('1-0', 'dex_margin_manager_updates_manager_created'),
      margin_manager_id: '0xa',
      data: JSON.stringify({ margin_manager_id: '0xa', owner: '0xowner', dex_pool_id: '0xpool' }),
    };
    s.margin.commit([
      created,
      { ...ev('2-0'), margin_manager_id: '0xa' },
      { ...ev('3-0'), margin_manager_id: '0xb' },
      { ...ev('4-0'), margin_manager_id: '0xb' },
    ]);
    expect(s.margin.list({ owner: '0xowner' }).map((e) => e.id)).toEqual(['2-0', '1-0']);
    expect(s.margin.managersOfOwner('0xowner')).toEqual(['0xa']);
    expect(s.margin.dexPoolsOfManagers(['0xa', '0xb'])).toEqual(new Map([['0xa', '0xpool']]));
    // 0xb's owner is learnt over REST: its stored events follow.
    s.margin.noteOwners([{ id: '0xb', owner: '0xowner', dexPoolId: '0xpool2' }]);
    expect(s.margin.list({ owner: '0xowner' }).map((e) => e.id)).toEqual(['4-0', '3-0', '2-0', '1-0']);
    expect(s.margin.list({ owner: '0xowner', beforeId: '3-0' }).map((e) => e.id)).toEqual(['2-0', '1-0']);
    expect(s.margin.ownerOfManager('0xb')).toBe('0xowner');
  });

  it('recovered rows of the same millisecond each keep their place, and page like any other', () => {
    const s = Store.openInMemory();
    s.margin.commit([ev('5-0')]);
    const rec = (tx: string) => ({
      ...ev(`rest-${tx}-0xm`, 'dex_margin_manager_updates_liquidation'),
      id: `rest-${tx}-0xm`,
      tx_hash: tx,
      timestamp_ms: 5,
      recovered: true,
    });
    expect(s.margin.addRecovered([rec('t1'), rec('t2'), rec('t3')])).toHaveLength(3);
    const all = s.margin.list({}).map((e) => e.id);
    expect(all).toEqual(['rest-t3-0xm', 'rest-t2-0xm', 'rest-t1-0xm', '5-0']);
    expect(s.margin.list({ beforeId: 'rest-t2-0xm' }).map((e) => e.id)).toEqual(['rest-t1-0xm', '5-0']);
  });
});

describe('alerts', () => {
  it('are deduplicated by their key, acknowledged and snoozed', () => {
    const s = Store.openInMemory();
    s.risk.routeWith(NO_CHANNELS);
    const base = {
      rule: 'liquidation' as const,
      level: 'critical' as const,
      manager_id: '0x1',
      owner: '0x2',
      event_id: 'e1',
      title: 't',
      message: 'm',
      created_at: 1,
    };
    const a = s.risk.addAlert({ ...base, dedupe_key: 'liquidation:0x1:critical:e1' });
    expect(a?.id).toBeGreaterThan(0);
    expect(s.risk.addAlert({ ...base, dedupe_key: 'liquidation:0x1:critical:e1' })).toBeUndefined();
    expect(s.risk.acknowledge(a!.id, 5)?.acknowledged_at).toBe(5);
    expect(s.risk.snooze(a!.id, 99)?.snoozed_until).toBe(99);
    expect(s.risk.alerts(false)).toEqual([]);
  });

  it('are never stored unrouted: before routeWith one throws and nothing is written or queued', () => {
    const s = Store.openInMemory();
    const alert = {
      dedupe_key: 'k1',
      rule: 'liquidation' as const,
      level: 'critical' as const,
      manager_id: '0x1',
      owner: '0x2',
      event_id: 'e1',
      title: 't',
      message: 'm',
      created_at: 1,
    };
    expect(() => s.risk.addAlert(alert)).toThrow(UnroutedAlertError);
    expect(() => s.risk.addAlert(alert, () => {})).toThrow(UnroutedAlertError);
    expect(s.risk.alerts()).toEqual([]);
    expect(s.risk.outbox.pendingCount()).toBe(0);
    s.risk.routeWith(NO_CHANNELS);
    expect(s.risk.addAlert(alert)?.rule).toBe('liquidation');
  });

  it('can be shown before they are written: the record shown is the row stored, with the id AUTOINCREMENT gives, once per key', () => {
    const s = Store.openInMemory();
    s.risk.routeWith(NO_CHANNELS);
    const base = {
      rule: 'liquidation' as const,
      level: 'critical' as const,
      manager_id: '0x1',
      owner: '0x2',
      event_id: 'e1',
      title: 't',
      message: 'm',
      created_at: 1,
    };
    const shown: AlertRecord[] = [];
    const rowsWhenShown: number[] = [];
    const show = (r: AlertRecord): void => {
      shown.push(r);
      rowsWhenShown.push(s.risk.alerts().length);
    };
    const first = s.risk.addAlert({ ...base, dedupe_key: 'k1' }, show);
    expect(shown).toEqual([first]);
    expect(rowsWhenShown).toEqual([0]);
    expect(s.risk.alert(first!.id)).toEqual(first);
    expect(s.risk.addAlert({ ...base, dedupe_key: 'k1' }, show)).toBeUndefined();
    expect(shown).toHaveLength(1);
    // Mixed with the plain path, ids keep counting up and are never reused after a delete.
    const plain = s.risk.addAlert({ ...base, dedupe_key: 'k2' })!;
    s.db.prepare('DELETE FROM alerts WHERE id = ?').run(plain.id);
    const third = s.risk.addAlert({ ...base, dedupe_key: 'k3' }, show)!;
    expect([first!.id, plain.id, third.id]).toEqual([1, 2, 3]);
    expect(s.risk.alert(3)).toEqual(third);
  });

  it("shown first for a newer stream event without a read, and deduplicated across a restart by the store's rows", () => {
    const { dir, remove } = tempDir();
    const base = {
      rule: 'liquidation' as const,
      level: 'critical' as const,
      manager_id: '0x1',
      owner: '0x2',
      title: 't',
      message: 'm',
      created_at: 1,
    };
    const alert = (eventId: string) => ({
      ...base,
      event_id: eventId,
      dedupe_key: `liquidation:0x1:critical:${eventId}`,
    });
    const shown: number[] = [];
    const show = (r: AlertRecord): void => void shown.push(r.id);
    let s = Store.open(dir);
    s.risk.routeWith(NO_CHANNELS);
    s.risk.addAlert(alert('1000-0'), show);
    s.risk.addAlert({
      ...alert('1000-5'),
      rule: 'large-liquidation',
      dedupe_key: 'large-liquidation:0x1:warning:1000-5',
    });
    // Newer than every stored key: no lookup on the way to the trader.
    const lookups = vi.spyOn(
      (s.risk as unknown as { shownFirst: { exists: { get(k: string): unknown } } }).shownFirst.exists,
      'get',
    );
    expect(s.risk.addAlert(alert('1000-6'), show)?.id).toBe(3);
    expect(lookups).not.toHaveBeenCalled();
    // Not newer than a stored key (the plain path's 1000-5): looked up, and new.
    expect(s.risk.addAlert(alert('1000-4'), show)?.id).toBe(4);
    expect(lookups).toHaveBeenCalledTimes(1);
    s.close();
    // After a restart the stream replays from its cursor: what was alerted is not shown again.
    s = Store.open(dir);
    s.risk.routeWith(NO_CHANNELS);
    for (const id of ['1000-0', '1000-4', '1000-6']) expect(s.risk.addAlert(alert(id), show)).toBeUndefined();
    expect(s.risk.addAlert(alert('1001-0'), show)?.id).toBe(5);
    expect(s.risk.addAlert({ ...alert('x'), dedupe_key: 'liquidation:0x1:critical:noid-ab12' }, show)?.id).toBe(6);
    expect(s.risk.addAlert({ ...alert('x'), dedupe_key: 'liquidation:0x1:critical:noid-ab12' }, show)).toBeUndefined();
    expect(shown).toEqual([1, 3, 4, 5, 6]);
    expect(
      s.risk
        .alerts()
        .map((a) => a.id)
        .sort(),
    ).toEqual([1, 2, 3, 4, 5, 6]);
    s.close();
    remove();
  });
});
