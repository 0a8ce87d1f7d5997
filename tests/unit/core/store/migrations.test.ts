import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate, MIGRATIONS, SCHEMA_VERSION } from '../../../../src/main/core/store/migrations';
import { LiquidationMapRepo } from '../../../../src/main/core/store/liquidation-map-repo';
import { SettingsRepo } from '../../../../src/main/core/store/settings-repo';

describe('migrations', () => {
  it('bring every earlier version up to the current one, one transaction each', () => {
    for (let from = 0; from < SCHEMA_VERSION; from++) {
      const db = new Database(':memory:');
      migrate(db, from);
      expect(db.pragma('user_version', { simple: true })).toBe(from);
      const applied = migrate(db);
      expect(applied).toEqual(Array.from({ length: SCHEMA_VERSION - from }, (_, i) => from + i + 1));
      expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
      const tables = (
        db.prepare("SELECT name FROM sqlite_master WHERE type='table'").all() as Array<{ name: string }>
      ).map((r) => r.name);
      expect(tables).toEqual(
        expect.arrayContaining([
          'margin_events',
          'stream_cursors',
          'trades',
          'depth',
          'rest_cache',
          'risk_readings',
          'alerts',
        ]),
      );
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

describe('migration 4', () => {
  it('keeps every event, fills owners from the stored manager_created events, and spreads recovered rows', () => {
    const db = new Database(':memory:');
    migrate(db, 3);
    const insert = db.prepare(
      'INSERT INTO margin_events (id, ms, seq, type, timestamp_ms, checkpoint_id, tx_hash, margin_manager_id, data, valid, problem, received_at, recovered) VALUES (?, ?, ?, ?, ?, 1, ?, ?, ?, 1, NULL, 0, ?)',
    );
    insert.run(
      '1-0',
      1,
      0,
      'dex_margin_manager_updates_manager_created',
      1,
      'h1',
      '0xa',
      JSON.stringify({ owner: '0xo', dex_pool_id: '0xp' }),
      0,
    );
    for (let i = 2; i < 1002; i++)
      insert.run(`${i}-0`, i, 0, 'dex_margin_manager_updates_deposit', i, `h${i}`, i % 2 ? '0xa' : '0xb', '{}', 0);
    insert.run('rest-x-0xa', 7, 2 ** 31, 'dex_margin_manager_updates_liquidation', 7, 'x', '0xa', '{}', 1);
    insert.run('rest-y-0xa', 7, 2 ** 31, 'dex_margin_manager_updates_liquidation', 7, 'y', '0xa', '{}', 1);
    expect(migrate(db, 7)).toEqual([4, 5, 6, 7]);
    expect((db.prepare('SELECT count(*) AS n FROM margin_events').get() as { n: number }).n).toBe(1003);
    const wid = db.prepare("SELECT wid FROM owners WHERE owner = '0xo'").pluck().get();
    expect((db.prepare('SELECT count(*) AS n FROM margin_events WHERE wid = ?').get(wid) as { n: number }).n).toBe(
      1 + 500 + 2,
    );
    expect(db.prepare("SELECT owner, dex_pool_id FROM managers WHERE manager_id = '0xa'").get()).toEqual({
      owner: '0xo',
      dex_pool_id: '0xp',
    });
    expect(db.prepare("SELECT owner FROM managers WHERE manager_id = '0xb'").pluck().get()).toBeNull();
    const seqs = (
      db.prepare('SELECT seq FROM margin_events WHERE recovered = 1 ORDER BY seq').all() as Array<{ seq: number }>
    ).map((r) => r.seq);
    expect(seqs).toEqual([2 ** 31, 2 ** 31 + 1]);
    db.close();
  });
});

describe('migration 7', () => {
  it('keeps every risk reading, the position figures of the older ones empty, and stores them for new ones', () => {
    const db = new Database(':memory:');
    migrate(db, 6);
    db.prepare(
      'INSERT INTO risk_readings (manager_id, owner, ts_ms, risk_ratio, debt_usd, assets_usd, distance_pct) VALUES (?, ?, ?, ?, ?, ?, ?)',
    ).run('0xm', '0xo', 1, 1.3, 100, 130, -12.5);
    expect(migrate(db, 7)).toEqual([7]);
    expect(db.prepare('SELECT * FROM risk_readings').get()).toEqual({
      manager_id: '0xm',
      owner: '0xo',
      ts_ms: 1,
      risk_ratio: 1.3,
      debt_usd: 100,
      assets_usd: 130,
      distance_pct: -12.5,
      pool: null,
      side: null,
      size: null,
      base_symbol: null,
      quote_symbol: null,
      price_usd: null,
      break_even_price: null,
      liquidation_price: null,
      level: null,
    });
    db.close();
  });
});

describe('migration 9', () => {
  it('puts every wallet already watched in the group "mine", label and time kept, and lets one move', () => {
    const db = new Database(':memory:');
    migrate(db, 8);
    const add = db.prepare('INSERT INTO watch_list (owner, label, added_at) VALUES (?, ?, ?)');
    add.run('0xa', 'desk', 10);
    add.run('0xb', null, 20);
    expect(migrate(db, 9)).toEqual([9]);
    const repo = new SettingsRepo(db);
    expect(repo.watchList()).toEqual([
      { owner: '0xa', label: 'desk', group: 'mine', added_at: 10 },
      { owner: '0xb', label: null, group: 'mine', added_at: 20 },
    ]);
    // A new wallet is the trader's own unless a group is given; adding again keeps its group.
    repo.addWatch('0xc', 'whale', 30, 'watched');
    repo.addWatch('0xc', null, 40);
    expect(repo.watchGroup('0xc')).toBe('watched');
    expect(repo.updateWatch('0xb', { group: 'watched', label: 'fund' })).toBe(true);
    expect(repo.updateWatch('0xa', { label: null })).toBe(true);
    expect(repo.updateWatch('0xz', { label: 'x' })).toBe(false);
    expect(repo.watchList().map((w) => [w.owner, w.label, w.group])).toEqual([
      ['0xa', null, 'mine'],
      ['0xb', 'fund', 'watched'],
      ['0xc', 'whale', 'watched'],
    ]);
    db.close();
  });
});

describe('migration 10', () => {
  it("keeps every pool's liquidation map as last read, each read replacing the one before", () => {
    const db = new Database(':memory:');
    migrate(db, 9);
    expect(migrate(db, 10)).toEqual([10]);
    // The repository as it is now (migration 11 added the liquidation mark).
    migrate(db);
    const repo = new LiquidationMapRepo(db);
    expect(repo.lastRead()).toBeNull();
    const entry = (id: string, price: number) =>
      ({ manager_id: id, side: 'long', price, debt: 100, repay: 62.5, base: 20, own: false }) as const;
    repo.replace(
      { readAt: 10, pages: 3, loans: 120, unplaced: {} },
      new Map([['SUI_USDC', [entry('b', 2.5), entry('a', 2.4)]]]),
    );
    repo.replace(
      { readAt: 20, pages: 4, loans: 150, unplaced: { SUI_USDC: 1 } },
      new Map([['SUI_USDC', [entry('c', 2.6), entry('a', 2.41)]]]),
    );
    expect(repo.entries('SUI_USDC').map((e) => [e.manager_id, e.price])).toEqual([
      ['a', 2.41],
      ['c', 2.6],
    ]);
    expect(repo.entries('WAL_USDC')).toEqual([]);
    expect(repo.lastRead()).toEqual({ readAt: 20, pages: 4, loans: 150, unplaced: { SUI_USDC: 1 } });
    db.close();
  });
});

describe('migration 11', () => {
  it('keeps the map read before it, and marks the managers liquidated since a read until the next', () => {
    const db = new Database(':memory:');
    migrate(db, 10);
    const repo = new LiquidationMapRepo(db);
    const entry = (id: string, price: number) =>
      ({ manager_id: id, side: 'long', price, debt: 100, repay: 62.5, base: 20, own: false }) as const;
    repo.replace(
      { readAt: 20, pages: 1, loans: 2, unplaced: {} },
      new Map([['SUI_USDC', [entry('a', 2.4), entry('b', 2.5)]]]),
    );
    expect(migrate(db)).toEqual([11]);
    expect(repo.entries('SUI_USDC').map((e) => e.manager_id)).toEqual(['a', 'b']);
    // b liquidated after the read: marked; a before it: the read's own business.
    expect(
      repo.markLiquidated([
        { manager_id: 'a', at: 19 },
        { manager_id: 'b', at: 25 },
      ]),
    ).toBe(1);
    expect(repo.entries('SUI_USDC').map((e) => e.manager_id)).toEqual(['a']);
    expect(repo.liquidatedSince('SUI_USDC')).toBe(1);
    repo.replace(
      { readAt: 30, pages: 1, loans: 2, unplaced: {} },
      new Map([['SUI_USDC', [entry('a', 2.4), entry('b', 2.2)]]]),
    );
    expect(repo.entries('SUI_USDC').map((e) => e.manager_id)).toEqual(['b', 'a']);
    expect(repo.liquidatedSince('SUI_USDC')).toBe(0);
    db.close();
  });
});
