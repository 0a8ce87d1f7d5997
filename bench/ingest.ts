/**
 * The margin stream's ingest inside one process, to take it apart (serve-ingest.ts measures what
 * the user gets, and uses the two baselines here):
 *  - one INSERT per event (each its own transaction), and raw INSERTs 1,000 per transaction;
 *  - the ingest alone: a fast SSE stream read, parsed, validated and committed with its cursor,
 *    and the bytes the process wrote to disk per event (/proc/self/io write_bytes);
 *  - reading + parsing the same stream without storing it.
 * No budgets: `npx tsx bench/ingest.ts` prints the breakdown.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { IncomingMarginEvent } from '../src/main/core/store/margin-events';
import { Store } from '../src/main/core/store/store';
import { StreamSupervisor } from '../src/main/core/streams/supervisor';
import { marginEvent, startEventServer } from './event-server';
import { ingestInto } from './support';

const N = Number(process.env['BENCH_EVENTS'] ?? 100_000);

function incoming(i: number): IncomingMarginEvent {
  const e = marginEvent(i);
  const env = JSON.parse(e.json);
  return {
    id: e.id,
    type: env.type,
    timestamp_ms: env.timestamp_ms,
    checkpoint_id: env.checkpoint_id,
    tx_hash: env.tx_hash,
    margin_manager_id: env.data.margin_manager_id,
    data: JSON.stringify(env.data),
    valid: true,
    problem: null,
  };
}

/** Raw INSERTs into the store's own schema (its indexes included), `batch` rows per transaction. */
export function rawInsertBench(batch: number, count = batch === 1 ? Math.min(N, 10_000) : N): number {
  const dir = mkdtempSync(join(tmpdir(), 'tw-bench-'));
  const store = Store.open(dir);
  // The same columns and indexes the store writes (the manager as its small integer id), without the store's code around them.
  const insert = store.db.prepare(`INSERT OR IGNORE INTO margin_events
    (id, ms, seq, type, timestamp_ms, checkpoint_id, tx_hash, margin_manager_id, data, valid, problem, received_at, mid, wid)
    VALUES (@id, @ms, @seq, @type, @timestamp_ms, @checkpoint_id, @tx_hash, @margin_manager_id, @data, 1, NULL, @received_at, @mid, NULL)`);
  const rows = Array.from({ length: count }, (_, i) => {
    const e = incoming(i);
    const [ms, seq] = e.id.split('-').map(Number);
    return { ...e, ms, seq, received_at: 0, mid: i % 500 };
  });
  const many = store.db.transaction((part: typeof rows) => {
    for (const r of part) insert.run(r);
  });
  const start = performance.now();
  for (let i = 0; i < count; i += batch) many(rows.slice(i, i + batch));
  const rate = count / ((performance.now() - start) / 1000);
  store.close();
  rmSync(dir, { recursive: true, force: true });
  return rate;
}

/** Bytes a process (default this one) has written to storage so far (Linux). */
function writtenBytes(pid: number | 'self' = 'self'): number {
  try {
    return Number(/write_bytes: (\d+)/.exec(readFileSync(`/proc/${pid}/io`, 'utf8'))?.[1] ?? NaN);
  } catch {
    return NaN;
  }
}

let bytesPerEvent = NaN;
let commits = 0;

export async function streamBench(persist: boolean): Promise<number> {
  // The stream's bytes are made before the clock starts (bench/event-server.ts).
  const server = await startEventServer(N);
  const url = `${server.url}/dex-margin/manager-updates?last-id=0`;
  const dir = mkdtempSync(join(tmpdir(), 'tw-bench-'));
  const store = Store.open(dir);
  const bytesBefore = writtenBytes();
  const start = performance.now();
  if (persist) {
    commits = 0;
    await ingestInto(url, store, N, () => commits++);
  } else {
    // The same stream read and parsed, nothing stored: what the client costs before the store.
    const sup = new StreamSupervisor({ budget: 1, redact: (s) => s });
    let seen = 0;
    await new Promise<void>((resolve) =>
      sup.add({ id: 'margin', priority: 0, url: () => url, onEvent: () => void (++seen >= N && resolve()) }),
    );
    sup.stopAll();
  }
  const rate = N / ((performance.now() - start) / 1000);
  // The checkpointer's copies of the WAL into the file count too (its own process), and the
  // writer's last checkpoint at shutdown.
  const checkpointer = store.checkpointerPid;
  const byCheckpointer = checkpointer === undefined ? 0 : writtenBytes(checkpointer);
  await store.shutdown();
  bytesPerEvent = (writtenBytes() - bytesBefore + byCheckpointer) / N;
  rmSync(dir, { recursive: true, force: true });
  await server.close();
  return rate;
}

export async function ingestBench(): Promise<void> {
  console.log(`\nMargin stream ingest, ${N} events (medians of 3 for the budgeted figures)`);
  // Medians of 3 (alternating, so a slow minute of the machine hits every figure alike): single
  // runs of these swung by 1.5x between runs on 2 shared cores.
  const ones: number[] = [];
  const raws: number[] = [];
  const ends: number[] = [];
  let parserBytes = NaN;
  let parserCommits = 0;
  const parseOnly = await streamBench(false);
  for (let i = 0; i < 3; i++) {
    ones.push(rawInsertBench(1));
    raws.push(rawInsertBench(1000));
    ends.push(await streamBench(true));
    if (i === 0) [parserBytes, parserCommits] = [bytesPerEvent, commits];
  }
  [bytesPerEvent, commits] = [parserBytes, parserCommits];
  const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[1]!;
  const one = median(ones);
  const raw = median(raws);
  const persisted = median(ends);
  const row = (name: string, rate: number, ratio: string): void =>
    console.log(`${name.padEnd(52)} ${rate.toFixed(0).padStart(8)} events/s  ${ratio}`);
  row('one INSERT per event (own transaction)', one, 'baseline');
  row('raw INSERT, 1,000 per transaction', raw, `${(raw / one).toFixed(2)}x one-per-event`);
  row('SSE read + parse, not stored', parseOnly, 'baseline for the stream');
  row(
    'end to end: SSE + parse + validate + commit + cursor',
    persisted,
    `${(persisted / one).toFixed(2)}x one-per-event, ${(persisted / raw).toFixed(2)}x raw batched, ${(persisted / parseOnly).toFixed(2)}x not stored`,
  );
  console.log(
    `bytes written per event (store + WAL + checkpoint): ${Number.isNaN(bytesPerEvent) ? 'unknown (no /proc/self/io)' : bytesPerEvent.toFixed(0)}; ${commits} commits, ${(N / commits).toFixed(0)} events each`,
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await ingestBench();
