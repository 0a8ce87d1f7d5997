import type Database from 'better-sqlite3';
import type { HistoryGap } from '../../../shared/contract';

/** Spans of the margin stream's history the service could no longer replay, as told to the user. */
export class GapRepo {
  constructor(private readonly db: Database.Database) {}

  add(gap: HistoryGap, now = Date.now()): void {
    this.db
      .prepare('INSERT INTO history_gaps (from_ms, to_ms, recovered, message, created_at) VALUES (?, ?, ?, ?, ?)')
      .run(gap.fromMs, gap.toMs, gap.recoveredLiquidations, gap.message, now);
  }

  /** Newest first. */
  recent(limit = 5): HistoryGap[] {
    const rows = this.db
      .prepare('SELECT from_ms, to_ms, recovered, message FROM history_gaps ORDER BY id DESC LIMIT ?')
      .all(limit) as Array<{ from_ms: number; to_ms: number; recovered: number; message: string }>;
    return rows.map((r) => ({
      fromMs: r.from_ms,
      toMs: r.to_ms,
      recoveredLiquidations: r.recovered,
      message: r.message,
    }));
  }
}
