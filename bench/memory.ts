/**
 * Memory over a long ingest: 1,000,000 margin stream events end to end (SSE, parse, validate,
 * commit with the cursor) into a fresh store. Heap after a full GC before and after, and the
 * peak RSS while it runs, against the process before it starts. The events are made as they are
 * sent (a payload built up front would be the server's memory, not the client's).
 * Budgets: heap after <= start + 50 MB; peak RSS <= start + 100 MB.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Store } from '../src/main/core/store/store';
import { printFigures, type Figure } from './figures';
import { ingestInto } from './support';

const EVENTS = Number(process.env['BENCH_MEMORY_EVENTS'] ?? 1_000_000);
const MB = 1024 * 1024;

function line(i: number): string {
  // Sent by the server process (this function's source is its code).
  const ms = 1_800_000_000_000 + Math.floor(i / 3);
  const m = `0x${(i % 500).toString(16).padStart(64, '0')}`;
  return `id: ${ms}-${i % 3}\ndata: {"type":"dex_margin_manager_updates_deposit","timestamp_ms":${ms},"checkpoint_id":${100_000_000 + i},"tx_hash":"tx${i}","data":{"margin_manager_id":"${m}","base_asset_amount":0,"quote_asset_amount":${1_000_000 + i},"timestamp":${ms}}}\n\n`;
}

const gc = (): void => (globalThis as { gc?: () => void }).gc?.();

/** The service, in its own process: what it allocates is not the client's memory. */
const SERVER = `
const http = require('node:http');
const N = Number(process.argv[1]);
${line.toString()}
const server = http.createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  let i = 0;
  const pump = () => {
    while (i < N) {
      let chunk = '';
      for (let k = 0; k < 200 && i < N; k++) chunk += line(i++);
      if (!res.write(chunk)) { res.once('drain', pump); return; }
    }
  };
  pump();
});
server.listen(0, '127.0.0.1', () => process.stdout.write(String(server.address().port) + '\\n'));
`;

export async function memoryBench(): Promise<Figure[]> {
  const child = spawn(process.execPath, ['-e', SERVER, String(EVENTS)], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout!.once('data', (d: Buffer) => resolve(Number(String(d).trim())));
    child.once('exit', (code) => reject(new Error(`the stream server exited with ${code}`)));
  });
  const url = `http://127.0.0.1:${port}/dex-margin/manager-updates`;
  const dir = mkdtempSync(join(tmpdir(), 'tw-bench-mem-'));
  const store = Store.open(dir);
  gc();
  const heapStart = process.memoryUsage().heapUsed;
  const rssStart = process.memoryUsage().rss;
  let rssPeak = rssStart;
  let heapPeak = 0;
  let externalPeak = 0;
  const sampler = setInterval(() => {
    const u = process.memoryUsage();
    rssPeak = Math.max(rssPeak, u.rss);
    heapPeak = Math.max(heapPeak, u.heapTotal);
    externalPeak = Math.max(externalPeak, u.external + u.arrayBuffers);
  }, 50);
  const start = performance.now();
  await ingestInto(url, store, EVENTS);
  const seconds = (performance.now() - start) / 1000;
  clearInterval(sampler);
  gc();
  const heapEnd = process.memoryUsage().heapUsed;
  const stored = store.margin.count();
  store.close();
  rmSync(dir, { recursive: true, force: true });
  child.kill();
  const heapGrowth = (heapEnd - heapStart) / MB;
  const rssGrowth = (rssPeak - rssStart) / MB;
  console.log(
    `\nMemory over ${EVENTS.toLocaleString('en-US')} events end to end (${(EVENTS / seconds).toFixed(0)} events/s, ${stored.toLocaleString('en-US')} stored)`,
  );
  console.log(
    `heap after a full GC: ${(heapStart / MB).toFixed(1)} MB before, ${(heapEnd / MB).toFixed(1)} MB after (${heapGrowth >= 0 ? '+' : ''}${heapGrowth.toFixed(1)} MB)`,
  );
  console.log(
    `RSS: ${(rssStart / MB).toFixed(0)} MB before, peak ${(rssPeak / MB).toFixed(0)} MB (+${rssGrowth.toFixed(0)} MB); peak JS heap reserved ${(heapPeak / MB).toFixed(0)} MB, buffers ${(externalPeak / MB).toFixed(0)} MB`,
  );
  const part = `Memory over ${EVENTS.toLocaleString('en-US')} events through the ingest (in process)`;
  const figures: Figure[] = [
    {
      part,
      name: 'heap after a full collection, growth',
      value: `${heapGrowth >= 0 ? '+' : ''}${heapGrowth.toFixed(1)} MB`,
      baseline: `heap at the start: ${(heapStart / MB).toFixed(1)} MB`,
      ratio: '',
      budget: '≤ +50 MB',
      met: heapGrowth <= 50,
    },
    {
      part,
      name: 'peak RSS during the ingest, growth',
      value: `+${rssGrowth.toFixed(0)} MB`,
      baseline: `RSS at the start: ${(rssStart / MB).toFixed(0)} MB`,
      ratio: '',
      budget: '≤ +100 MB',
      met: rssGrowth <= 100,
    },
  ];
  printFigures(figures);
  return figures;
}
