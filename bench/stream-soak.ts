/**
 * The soak of the margin stream: `tidewatch serve` at its default settings (backoff, watchdog, group
 * commit) against a fault-injecting stream server, SIGKILLed again and again while it ingests.
 * At the end `export margin-events` is compared, by id, with what the server produced.
 *
 *   npm run soak                    100,000 events at 1,000/s, 1,000 drops, 50 SIGKILLs, retention 10,000
 *   npm run soak -- --events 20000 --kills 10 --drops 200     a shorter run
 *
 * Prints one table: lost, duplicated, malformed kept, extra, and the time to catch up after the
 * last event; exit code 1 when anything was lost or stored twice.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { DEFAULT_PLAN, FaultStreamServer } from './fault-stream-server';
import { serveArgs } from './support';

const BIN = fileURLToPath(new URL('../bin/tidewatch.js', import.meta.url));
const { values } = parseArgs({
  options: {
    events: { type: 'string' },
    kills: { type: 'string' },
    drops: { type: 'string' },
    rate: { type: 'string' },
  },
});
const plan = {
  ...DEFAULT_PLAN,
  events: Number(values.events ?? DEFAULT_PLAN.events),
  drops: Number(values.drops ?? DEFAULT_PLAN.drops),
  perSecond: Number(values.rate ?? DEFAULT_PLAN.perSecond),
};
const KILLS = Number(values.kills ?? 50);
const KEY = 'soak-key';

const server = new FaultStreamServer(plan);
const url = await server.listen();
const dir = mkdtempSync(join(tmpdir(), 'tidewatch-soak-'));

/** `serve` as a user runs it: its defaults, the stream history from the start. */
function startServe(): Promise<{ child: ChildProcess; startedMs: number }> {
  const started = Date.now();
  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', ...serveArgs(dir, url, KEY, true)], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  child.stderr!.on('data', (d) => (err = (err + d).slice(-4000)));
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d) => {
      out += d;
      if (out.includes('running at')) resolve({ child, startedMs: Date.now() - started });
    });
    child.on('exit', (code, signal) => {
      if (!out.includes('running at')) reject(new Error(`serve exited (${code ?? signal}) before it ran:\n${err}`));
    });
  });
}

/** Rows in the store, read-only while serve writes (WAL). */
function storedCount(): number {
  try {
    const db = new Database(join(dir, 'tidewatch.sqlite'), { readonly: true, fileMustExist: true });
    try {
      return (db.prepare('SELECT count(*) AS n FROM margin_events').get() as { n: number }).n;
    } finally {
      db.close();
    }
  } catch {
    return 0;
  }
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
const startedAt = Date.now();
console.log(
  `soak: ${plan.events.toLocaleString('en-US')} events at ${plan.perSecond}/s, ${plan.drops} drops (a third mid-event), ` +
    `503/429 episodes of ${plan.episodeMs} ms every ${plan.episodeEveryMs / 1000} s, retention ${plan.retention.toLocaleString('en-US')}, ${KILLS} SIGKILLs of serve`,
);
server.start();
const restartTimes: number[] = [];
for (let kill = 0; kill < KILLS; kill++) {
  const s = await startServe();
  restartTimes.push(s.startedMs);
  // Killed at a random moment of its ingest: right after start, or after it has caught up a while.
  await sleep(300 + Math.random() * 2200);
  s.child.kill('SIGKILL');
  await new Promise((r) => s.child.once('exit', r));
  if ((kill + 1) % 10 === 0)
    console.log(
      `  ${kill + 1} kills, ${storedCount().toLocaleString('en-US')} stored, ${server.produced.length.toLocaleString('en-US')} produced`,
    );
}

// The last serve runs until it holds everything.
const last = await startServe();
while (!server.done) await sleep(100);
const lastProducedAt = server.lastProducedAt;
const deadline = Date.now() + 120_000;
while (storedCount() < plan.events && Date.now() < deadline) await sleep(50);
const catchUpMs = Date.now() - lastProducedAt;
// Drops still planned happen against the caught-up client; a cut connection that carried nothing
// backs off (as it should), so this waits only a little for them.
const dropsDeadline = Date.now() + 15_000;
while (server.stats.drops < plan.drops && Date.now() < dropsDeadline) await sleep(50);
await sleep(500);
last.child.kill('SIGTERM');
await new Promise((r) => last.child.once('exit', r));

const exported = spawnSync(process.execPath, [BIN, 'export', 'margin-events', '--data-dir', dir, '--format', 'jsonl'], {
  encoding: 'utf8',
  maxBuffer: 1024 * 1024 * 1024,
});
if (exported.status !== 0) throw new Error(`export failed: ${exported.stderr}`);
const rows = exported.stdout
  .split('\n')
  .filter((l) => l.length > 0)
  .map((l) => JSON.parse(l) as { id: string; valid: boolean });
const producedIds = new Set(server.produced.map((e) => e.id));
const seen = new Map<string, number>();
for (const r of rows) seen.set(r.id, (seen.get(r.id) ?? 0) + 1);
const lost = [...producedIds].filter((id) => !seen.has(id)).length;
const duplicated = [...seen.values()].filter((n) => n > 1).length;
const extra = [...seen.keys()].filter((id) => !producedIds.has(id)).length;
const malformedKept = rows.filter((r) => server.malformedIds.has(r.id) && !r.valid).length;
await server.close();
rmSync(dir, { recursive: true, force: true });

const sorted = [...restartTimes].sort((a, b) => a - b);
const table: Array<[string, string]> = [
  ['events produced', plan.events.toLocaleString('en-US')],
  ['connections / drops (mid-event)', `${server.stats.connections} / ${server.stats.drops} (${server.stats.midEvent})`],
  ['refused: 503 / 429', `${server.stats.refused503} / ${server.stats.refused429}`],
  ['replays that began past the retention', String(server.stats.replayedFromOldest)],
  ['serve SIGKILLs', String(KILLS)],
  [
    'serve start to listening (median, max)',
    `${sorted[Math.floor(sorted.length / 2)]} ms, ${sorted[sorted.length - 1]} ms`,
  ],
  ['rows exported', rows.length.toLocaleString('en-US')],
  ['lost', String(lost)],
  ['duplicated', String(duplicated)],
  ['malformed kept (as invalid)', `${malformedKept} of ${server.malformedIds.size}`],
  ['extra (never produced)', String(extra)],
  ['catch-up after the last event', `${catchUpMs} ms`],
  ['wall time', `${Math.round((Date.now() - startedAt) / 1000)} s`],
];
const w = Math.max(...table.map(([k]) => k.length));
console.log(`\n| ${'figure'.padEnd(w)} | value |\n| ${'-'.repeat(w)} | --- |`);
for (const [k, v] of table) console.log(`| ${k.padEnd(w)} | ${v} |`);
const ok = lost === 0 && duplicated === 0 && extra === 0 && malformedKept === server.malformedIds.size;
console.log(ok ? '\nsoak: PASS (0 lost, 0 duplicated)' : '\nsoak: FAIL');
process.exit(ok ? 0 : 1);
