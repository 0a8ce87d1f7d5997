/**
 * Stream #22 ingest throughput. Baselines in the same run:
 *  - store: one transaction per event vs the group commit the monitor uses;
 *  - end to end: reading + parsing a fast SSE stream without storing vs storing it.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NAMING_PROFILES } from '../src/main/core/client/naming';
import type { IncomingMarginEvent } from '../src/main/core/store/margin-events';
import { Store } from '../src/main/core/store/store';
import { marginStream } from '../src/main/core/streams/margin-stream';
import { StreamSupervisor } from '../src/main/core/streams/supervisor';

const N = Number(process.env['BENCH_EVENTS'] ?? 20_000);

function event(i: number): { id: string; json: string } {
  const ms = 1_800_000_000_000 + Math.floor(i / 3);
  const id = `${ms}-${i % 3}`;
  const json = JSON.stringify({
    type: 'dex_margin_manager_updates_deposit',
    timestamp_ms: ms,
    checkpoint_id: 100_000_000 + i,
    tx_hash: `tx${i}`,
    data: { margin_manager_id: `0x${(i % 500).toString(16).padStart(64, '0')}`, base_asset_amount: 0, quote_asset_amount: 1_000_000 + i, timestamp: ms },
  });
  return { id, json };
}

function incoming(i: number): IncomingMarginEvent {
  const e = event(i);
  const env = JSON.parse(e.json);
  return { id: e.id, type: env.type, timestamp_ms: env.timestamp_ms, checkpoint_id: env.checkpoint_id, tx_hash: env.tx_hash, margin_manager_id: env.data.margin_manager_id, data: JSON.stringify(env.data), valid: true, problem: null };
}

function storeBench(batch: number): number {
  const dir = mkdtempSync(join(tmpdir(), 'tw-bench-'));
  const store = Store.open(dir);
  const events = Array.from({ length: N }, (_, i) => incoming(i));
  const start = performance.now();
  for (let i = 0; i < N; i += batch) store.margin.commit(events.slice(i, i + batch));
  const rate = N / ((performance.now() - start) / 1000);
  store.close();
  rmSync(dir, { recursive: true, force: true });
  return rate;
}

async function streamBench(persist: boolean): Promise<number> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    let i = 0;
    const pump = (): void => {
      while (i < N) {
        const e = event(i++);
        if (!res.write(`id: ${e.id}\ndata: ${e.json}\n\n`)) {
          res.once('drain', pump);
          return;
        }
      }
    };
    pump();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/dex-margin/manager-updates`;
  const dir = mkdtempSync(join(tmpdir(), 'tw-bench-'));
  const store = Store.open(dir);
  let seen = 0;
  const start = performance.now();
  const sup = new StreamSupervisor({ budget: 1, redact: (s) => s });
  const done = new Promise<void>((resolve) => {
    const ingest = marginStream({
      repo: store.margin,
      naming: () => NAMING_PROFILES.spec,
      urlFor: () => url,
      firstStart: () => '0',
      onStoreState: (reason) => {
        if (reason) throw new Error(reason);
      },
      onCommitted: (events) => {
        seen += events.length;
        if (seen >= N) resolve();
      },
    });
    sup.add(
      persist
        ? ingest.spec
        : {
            id: 'margin',
            priority: 0,
            url: () => url,
            onEvent: () => {
              if (++seen >= N) resolve();
            },
          },
    );
  });
  await done;
  sup.stopAll();
  const rate = N / ((performance.now() - start) / 1000);
  store.close();
  rmSync(dir, { recursive: true, force: true });
  server.closeAllConnections();
  server.close();
  return rate;
}

export async function ingestBench(): Promise<void> {
  console.log(`\nStream #22 ingest, ${N} events`);
  const one = storeBench(1);
  const grouped = storeBench(1000);
  console.log(`store, one transaction per event      ${one.toFixed(0).padStart(8)} events/s  ratio 1.00`);
  console.log(`store, group commit (1000 per tx)     ${grouped.toFixed(0).padStart(8)} events/s  ratio ${(grouped / one).toFixed(2)}`);
  const parseOnly = await streamBench(false);
  const persisted = await streamBench(true);
  console.log(`SSE read + parse, not stored          ${parseOnly.toFixed(0).padStart(8)} events/s  ratio 1.00`);
  console.log(`SSE read + parse + validate + commit  ${persisted.toFixed(0).padStart(8)} events/s  ratio ${(persisted / parseOnly).toFixed(2)}`);
}
