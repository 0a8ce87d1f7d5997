import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/main/core/store/database';
import type { IncomingMarginEvent } from '../../src/main/core/store/margin-events';
import { migrate, MIGRATIONS, SCHEMA_VERSION } from '../../src/main/core/store/migrations';
import { Store } from '../../src/main/core/store/store';
import { tempDir } from '../support/monitor';

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

describe('migrations', () => {
  it('bring every earlier version up to the current one, one transaction each', () => {
    for (let from = 0; from < SCHEMA_VERSION; from++) {
      const db = new Database(':memory:');
      migrate(db, from);
      expect(db.pragma('user_version', { simple: true })).toBe(from);
      const applied = migrate(db);
      expect(applied).toEqual(Array.from({ length: SCHEMA_VERSION - from }, (_, i) => from + i + 1));
      expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
      const tables = (db.prepare("SELECT name FROM sqlite_master WHERE type='table'").all() as Array<{ name: string }>).map((r) => r.name);
      expect(tables).toEqual(expect.arrayContaining(['margin_events', 'stream_cursors', 'trades', 'depth', 'rest_cache', 'risk_readings', 'alerts']));
      db.close();
    }
    expect(MIGRATIONS.length).toBe(SCHEMA_VERSION);
  });

  it('refuse a database from a newer Tidewatch', () => {
    const db = new Database(':memory:');
    db.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    expect(() => migrate(db)).toThrow(/newer Tidewatch/);
  });
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
      fc.property(fc.array(fc.array(fc.integer({ min: 0, max: 40 }), { maxLength: 15 }), { maxLength: 12 }), (batches) => {
        const s = Store.openInMemory();
        for (const b of batches) s.margin.commit(b.map((n) => ev(`${1000 + n}-0`)));
        const expected = [...new Set(batches.flat())].sort((a, b) => a - b).map((n) => `${1000 + n}-0`);
        expect([...s.margin.iterate()].map((e) => e.id)).toEqual(expected);
        expect(s.margin.cursor()).toBe(expected[expected.length - 1]);
        s.close();
      }),
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
});

describe('alerts', () => {
  it('are deduplicated by their key, acknowledged and snoozed', () => {
    const s = Store.openInMemory();
    const base = { rule: 'liquidation' as const, level: 'critical' as const, manager_id: '0x1', owner: '0x2', event_id: 'e1', title: 't', message: 'm', created_at: 1 };
    const a = s.risk.addAlert({ ...base, dedupe_key: 'liquidation:0x1:critical:e1' });
    expect(a?.id).toBeGreaterThan(0);
    expect(s.risk.addAlert({ ...base, dedupe_key: 'liquidation:0x1:critical:e1' })).toBeUndefined();
    expect(s.risk.acknowledge(a!.id, 5)?.acknowledged_at).toBe(5);
    expect(s.risk.snooze(a!.id, 99)?.snoozed_until).toBe(99);
    expect(s.risk.alerts(false)).toEqual([]);
  });
});
