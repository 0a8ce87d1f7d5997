/**
 * Alert latency as the page gets it: from a watched liquidation's bytes handed to the socket to
 * the alert on `tidewatch serve`'s `/api/subscribe/alerts`, under 5,000 events/s of background on
 * the margin stream, serve started as the CLI starts it. The baseline, against the same producer
 * in the same run: a minimal relay that reads the same bytes, parses each event and "alerts" when
 * a liquidation names the manager (no store, no rules); beside it, the monitor's push inside one
 * process. The producer is its own process; the clients take turns in slices of a few seconds
 * (each started afresh each turn), so all see the same minutes of the machine. Budget, to the
 * page: p50 <= 2 ms, p99 <= 10 ms over all turns; the spread is that of the turns.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'node:http';
import { fileURLToPath } from 'node:url';
import { createParser } from 'eventsource-parser';
import { Monitor } from '../src/main/core/monitor';
import { MemorySecretStore } from '../src/main/core/settings';
import { WRITER_START_DELAY_MS } from '../src/main/core/store/margin-writer';
import { EVENT_TYPES } from '../src/shared/api';
import { printFigures, withSpread, type Figure } from './figures';
import { spawnServe } from './support';

const PER_SECOND = 5_000;
const LIQUIDATION_EVERY_MS = 25;
const SECONDS = Number(process.env['BENCH_LATENCY_SECONDS'] ?? 30);
/** Turns per client; each measures SECONDS / ROUNDS after its warm-up. */
const ROUNDS = 6;
const OWNER = `0x${'ab'.repeat(32)}`;
const MANAGER = `0x${'cd'.repeat(32)}`;
// CLOCK_MONOTONIC, shared by every process of the machine. Not performance.timeOrigin + now():
// each process samples its origin from the wall clock at start, 1-10 ms apart between processes,
// which added a constant to both clients' latencies (relay and monitor both read "10.4 ms").
const now = (): number => Number(process.hrtime.bigint()) / 1e6;

interface Producer {
  url: string;
  sent: Map<string, number>;
  child: ChildProcess;
}

async function producer(): Promise<Producer> {
  const child = fork(
    fileURLToPath(new URL('./latency-server.ts', import.meta.url)),
    [String(PER_SECOND), String(LIQUIDATION_EVERY_MS), OWNER, MANAGER],
    {
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    },
  );
  const sent = new Map<string, number>();
  const port = await new Promise<number>((resolve) => {
    child.on('message', (m: { port?: number; id?: string; at?: number }) => {
      if (m.port) resolve(m.port);
      else if (m.id) sent.set(m.id, m.at!);
    });
  });
  return { url: `http://127.0.0.1:${port}`, sent, child };
}

const pct = (xs: number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};

/** Latencies (ms) of every liquidation sent in one slice of `seconds` after `warmUpMs`, by id, from `received`. */
async function measure(
  p: Producer,
  run: (received: Map<string, number>) => Promise<() => Promise<void>>,
  warmUpMs: number,
  seconds: number,
): Promise<number[]> {
  const received = new Map<string, number>();
  const stop = await run(received);
  await new Promise((r) => setTimeout(r, warmUpMs));
  const from = now();
  await new Promise((r) => setTimeout(r, seconds * 1000));
  const to = now();
  await stop();
  const out: number[] = [];
  for (const [id, at] of p.sent) {
    const got = received.get(id);
    if (at >= from && at < to && got !== undefined) out.push(got - at);
  }
  p.sent.clear();
  return out;
}

/** The baseline: read, parse, match, note the time. */
function relay(p: Producer) {
  return async (received: Map<string, number>): Promise<() => Promise<void>> => {
    const parser = createParser({
      onEvent(e) {
        const body = JSON.parse(e.data) as { type: string; data: { margin_manager_id?: string } };
        if (body.type === EVENT_TYPES.liquidation && body.data.margin_manager_id === MANAGER && e.id)
          received.set(e.id, now());
      },
    });
    const req = request(`${p.url}/dex-margin/manager-updates?api-key=bench&last-id=$`, (res) => {
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => parser.feed(chunk));
    });
    req.on('error', () => {});
    req.end();
    return async () => void req.destroy();
  };
}

/** Tidewatch's monitor: SSE, validation, group commit with the cursor, dispatch, alert rules, push. */
function monitor(p: Producer, dataDir: string) {
  return async (received: Map<string, number>): Promise<() => Promise<void>> => {
    const m = new Monitor({
      dataDir,
      secrets: new MemorySecretStore('bench'),
      overrides: { network: 'custom', baseUrl: p.url, streamUrl: p.url, naming: 'spec' },
      watch: [OWNER],
      marginFirstStart: '$',
      log: () => {},
    }).start();
    m.subscribe('alerts', (alerts) => {
      const at = now();
      // The first push of an alert counts (one shown before its write is not pushed again).
      for (const a of alerts) if (a.event_id && !received.has(a.event_id)) received.set(a.event_id, at);
    });
    return () => m.close();
  };
}

/** `tidewatch serve` as the CLI starts it: the alert as the page's `/api/subscribe/alerts` receives it. */
function served(p: Producer, dataDir: string) {
  return async (received: Map<string, number>): Promise<() => Promise<void>> => {
    const serve = await spawnServe('latency', [
      '--data-dir',
      dataDir,
      '--base-url',
      p.url,
      '--stream-url',
      p.url,
      '--api-key',
      'bench',
      '--watch',
      OWNER,
      '--no-history',
    ]);
    const off = await serve.subscribe('alerts', (data) => {
      const at = now();
      for (const a of JSON.parse(data) as Array<{ event_id?: string | null }>)
        if (a.event_id && !received.has(a.event_id)) received.set(a.event_id, at);
    });
    return async () => {
      off();
      serve.child.kill('SIGTERM');
      await once(serve.child, 'exit');
    };
  };
}

const PART = 'Alert latency, 5,000 events/s of background';

export async function alertLatencyBench(): Promise<Figure[]> {
  console.log(
    `\n${PART}: liquidation bytes on the socket -> the alert, ${SECONDS} s each in ${ROUNDS} turns taken in alternation (producer in its own process)`,
  );
  const p = await producer();
  const dir = mkdtempSync(join(tmpdir(), 'tw-bench-latency-'));
  try {
    const base: number[][] = [];
    const page: number[][] = [];
    const inProcess: number[][] = [];
    const slice = SECONDS / ROUNDS;
    for (let round = 0; round < ROUNDS; round++) {
      // Warm-up, not counted: the connection, JIT, and for the monitor its first commits and the
      // margin writer's thread, which starts WRITER_START_DELAY_MS after the store opens (before,
      // commits run on the alerting thread). Each turn's monitor has a store of its own.
      base.push(await measure(p, relay(p), 1_500, slice));
      page.push(await measure(p, served(p, mkdtempSync(join(dir, 'serve-'))), WRITER_START_DELAY_MS + 1_500, slice));
      inProcess.push(
        await measure(p, monitor(p, mkdtempSync(join(dir, 'turn-'))), WRITER_START_DELAY_MS + 1_500, slice),
      );
    }
    const all = (xs: number[][]): number[] => xs.flat();
    const row = (name: string, xs: number[][]): void =>
      console.log(
        `${name.padEnd(46)} n ${String(all(xs).length).padStart(5)}  p50 ${withSpread(
          xs.map((x) => pct(x, 50)),
          2,
          'ms',
        )}  p99 ${withSpread(
          xs.map((x) => pct(x, 99)),
          2,
          'ms',
        )}`,
      );
    row('baseline: minimal relay (parse + match)', base);
    row("serve: the page's /api/subscribe/alerts", page);
    row("in process: the monitor's push", inProcess);
    const turns = (xs: number[][], q: number): string => {
      const each = xs.map((x) => pct(x, q));
      return `${Math.min(...each).toFixed(2)}-${Math.max(...each).toFixed(2)}`;
    };
    const figure = (q: 50 | 99, budget: number): Figure => {
      const ours = pct(all(page), q);
      const relayQ = pct(all(base), q);
      return {
        part: PART,
        name: `a watched liquidation to the page: p${q}`,
        // Over all turns, with the turns' own spread: the budget holds for the whole.
        value: `${ours.toFixed(2)} ms (turns ${turns(page, q)}); in process ${pct(all(inProcess), q).toFixed(2)} ms (n ${all(page).length})`,
        baseline: `a minimal relay: ${relayQ.toFixed(2)} ms (turns ${turns(base, q)})`,
        ratio: `${(ours / relayQ).toFixed(2)}x`,
        budget: `≤ ${budget} ms`,
        met: all(page).length > 0 && ours <= budget,
      };
    };
    const figures = [figure(50, 2), figure(99, 10)];
    printFigures(figures);
    return figures;
  } finally {
    p.child.kill();
    rmSync(dir, { recursive: true, force: true });
  }
}
