/**
 * The baseline for `serve`'s ingest: a plain client of the margin stream, as someone would write
 * it without Tidewatch. It reads the stream with eventsource-parser, parses each event, validates
 * it with the same compiled check, and inserts it into the same schema (the store's own tables and
 * indexes, the manager as its small id) with the stream's cursor, one transaction per read.
 * Once `count` events are stored it waits for SIGTERM, as serve does, so the harness reads its
 * figures from outside, as it reads serve's.
 *
 * argv: <stream url> <data dir> <count>
 */
import { createParser } from 'eventsource-parser';
import { MarginEventSchema, quickCheck } from '../src/shared/api';
import { Store } from '../src/main/core/store/store';

const [url, dataDir, countArg] = process.argv.slice(2);
const count = Number(countArg);
const store = Store.open(dataDir!);
const db = store.db;
const valid = quickCheck(MarginEventSchema);
const insert = db.prepare(`INSERT OR IGNORE INTO margin_events
  (id, ms, seq, type, timestamp_ms, checkpoint_id, tx_hash, margin_manager_id, data, valid, problem, received_at, mid, wid)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL)`);
const midPut = db.prepare('INSERT OR IGNORE INTO managers (manager_id) VALUES (?)');
const midGet = db.prepare('SELECT mid FROM managers WHERE manager_id = ?').pluck();
const cursorSet = db.prepare(`INSERT INTO stream_cursors (stream, last_id, updated_at) VALUES ('margin', ?, ?)
  ON CONFLICT (stream) DO UPDATE SET last_id = excluded.last_id, updated_at = excluded.updated_at`);
const mids = new Map<string, number>();
const midOf = (id: string): number => {
  let mid = mids.get(id);
  if (mid === undefined) {
    midPut.run(id);
    mid = midGet.get(id) as number;
    mids.set(id, mid);
  }
  return mid;
};
type Row = [string, number, number, string, number, number, string, string, string, number, null, number, number];
const commit = db.transaction((rows: Row[]) => {
  for (const r of rows) insert.run(...r);
  cursorSet.run(rows[rows.length - 1]![0], Date.now());
});

let stored = 0;
let batch: Row[] = [];
const parser = createParser({
  onEvent(m) {
    const env = JSON.parse(m.data) as {
      type: string;
      timestamp_ms: number;
      checkpoint_id: number;
      tx_hash: string;
      data: { margin_manager_id: string };
    };
    if (!valid(env)) throw new Error(`invalid event ${m.id}`);
    const [ms, seq] = m.id!.split('-').map(Number) as [number, number];
    const managerId = env.data.margin_manager_id;
    batch.push([
      m.id!,
      ms,
      seq,
      env.type,
      env.timestamp_ms,
      env.checkpoint_id,
      env.tx_hash,
      managerId,
      JSON.stringify(env.data),
      1,
      null,
      Date.now(),
      midOf(managerId),
    ]);
  },
});

const res = await fetch(`${url}/dex-margin/manager-updates?last-id=0&api-key=bench`);
const decoder = new TextDecoder();
for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
  parser.feed(decoder.decode(chunk, { stream: true }));
  if (batch.length > 0) {
    commit(batch);
    stored += batch.length;
    batch = [];
  }
  if (stored >= count) break;
}
process.once('SIGTERM', () => {
  store.close();
  process.exit(0);
});
setInterval(() => {}, 60_000);
