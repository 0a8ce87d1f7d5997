import type Database from 'better-sqlite3';
import type { Thresholds, WatchEntry, WatchGroup } from '../../../shared/contract';

/** Key/value settings (JSON values), the watch list and per-manager thresholds. */
export class SettingsRepo {
  /** The watch list is read for every batch of stream events: kept until it changes. */
  private watched: WatchEntry[] | undefined;
  /** Settings are read on every commit (the effective connection): their stored text is kept, by key, until written. */
  private readonly values = new Map<string, string | undefined>();

  constructor(private readonly db: Database.Database) {}

  get<T>(key: string): T | undefined {
    if (!this.values.has(key)) {
      const row = this.db.prepare('SELECT value FROM settings WHERE key = ?').get(key) as { value: string } | undefined;
      this.values.set(key, row?.value);
    }
    const text = this.values.get(key);
    // Parsed on each read: callers get their own copy to change.
    return text === undefined ? undefined : (JSON.parse(text) as T);
  }

  set(key: string, value: unknown): void {
    const text = JSON.stringify(value);
    this.values.delete(key);
    this.db
      .prepare('INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value')
      .run(key, text);
    this.values.set(key, text);
  }

  delete(key: string): void {
    this.values.delete(key);
    this.db.prepare('DELETE FROM settings WHERE key = ?').run(key);
    this.values.set(key, undefined);
  }

  watchList(): WatchEntry[] {
    return this.entries().map((w) => ({ ...w }));
  }

  /** When `owner` joined the watch list (ms), undefined when it is not on it: read from the kept list, nothing copied. */
  watchedSince(owner: string): number | undefined {
    return this.entries().find((w) => w.owner === owner)?.added_at;
  }

  /** The group `owner` is in, undefined when it is not on the list (read from the kept list, nothing copied). */
  watchGroup(owner: string): WatchGroup | undefined {
    return this.entries().find((w) => w.owner === owner)?.group;
  }

  private entries(): WatchEntry[] {
    return (this.watched ??= this.db
      .prepare('SELECT owner, label, watch_group AS "group", added_at FROM watch_list ORDER BY added_at, owner')
      .all() as WatchEntry[]);
  }

  /** Watch `owner` (in `group`, `mine` when new and none is given); watched already: a label or group given replaces its own. */
  addWatch(owner: string, label: string | null, now = Date.now(), group: WatchGroup | null = null): void {
    this.db
      .prepare(
        `INSERT INTO watch_list (owner, label, added_at, watch_group) VALUES (@owner, @label, @now, coalesce(@group, 'mine'))
        ON CONFLICT (owner) DO UPDATE SET label = coalesce(excluded.label, label), watch_group = coalesce(@group, watch_group)`,
      )
      .run({ owner, label, now, group });
    this.watched = undefined;
  }

  /** Change a watched wallet's label (null: none) or group; false when `owner` is not on the list. */
  updateWatch(owner: string, change: { label?: string | null; group?: WatchGroup }): boolean {
    const entry = this.entries().find((w) => w.owner === owner);
    if (!entry) return false;
    this.db
      .prepare('UPDATE watch_list SET label = ?, watch_group = ? WHERE owner = ?')
      .run(change.label === undefined ? entry.label : change.label, change.group ?? entry.group, owner);
    this.watched = undefined;
    return true;
  }

  removeWatch(owner: string): void {
    this.db.prepare('DELETE FROM watch_list WHERE owner = ?').run(owner);
    this.watched = undefined;
  }

  thresholds(): Record<string, Thresholds> {
    const rows = this.db.prepare('SELECT manager_id, warning, critical FROM thresholds').all() as Array<
      { manager_id: string } & Thresholds
    >;
    return Object.fromEntries(rows.map((r) => [r.manager_id, { warning: r.warning, critical: r.critical }]));
  }

  setThreshold(managerId: string, t: Thresholds): void {
    this.db
      .prepare(
        'INSERT INTO thresholds (manager_id, warning, critical) VALUES (?, ?, ?) ON CONFLICT (manager_id) DO UPDATE SET warning = excluded.warning, critical = excluded.critical',
      )
      .run(managerId, t.warning, t.critical);
  }

  clearThreshold(managerId: string): void {
    this.db.prepare('DELETE FROM thresholds WHERE manager_id = ?').run(managerId);
  }
}
