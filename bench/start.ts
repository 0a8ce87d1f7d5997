/**
 * `serve` start to the first Portfolio answer (a watched owner with loans), with an empty store
 * (the first start: the answer needs the network) and restarted on a store of 200,000 events and
 * the Portfolio the last run kept, against the same run's `tidewatch --help` (the cost of
 * starting Node, tsx and the command line at all). Medians of 5 rounds, each round the baseline
 * and both starts, so they share the machine's state. Budget (issue 12): <= 3x --help.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { World } from '../src/sim';
import { Store } from '../src/main/core/store/store';

const BIN = fileURLToPath(new URL('../bin/tidewatch.js', import.meta.url));
const SEED = 20_251_122;
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const ROUNDS = 5;

/** Fill a store with `n` stream #22 events through its own commit (what a long run leaves). */
function filledStore(n: number): string {
  const dir = mkdtempSync(join(tmpdir(), 'tw-bench-start-'));
  const store = Store.open(dir);
  for (let from = 0; from < n; from += 5_000) {
    const batch = [];
    for (let i = from; i < Math.min(n, from + 5_000); i++) {
      const ms = 1_700_000_000_000 + i;
      const m = `0x${(i % 2000).toString(16).padStart(64, '0')}`;
      batch.push({ id: `${ms}-0`, type: 'dex_margin_manager_updates_deposit', timestamp_ms: ms, checkpoint_id: i, tx_hash: `t${i}`, margin_manager_id: m, data: `{"margin_manager_id":"${m}"}`, valid: true, problem: null });
    }
    store.margin.commit(batch);
  }
  store.close();
  return dir;
}

/** ms from spawning `serve` to a `portfolio` answer that lists the watched wallet. */
async function serveToPortfolio(dataDir: string, owner: string): Promise<number> {
  const start = performance.now();
  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--data-dir', dataDir, '--seed', String(SEED), '--watch', owner], { stdio: ['ignore', 'pipe', 'ignore'] });
  try {
    const url = await new Promise<URL>((resolve, reject) => {
      let out = '';
      child.stdout!.on('data', (d) => {
        out += d;
        const m = /running at (\S+)/.exec(out);
        if (m) resolve(new URL(m[1]!));
      });
      child.once('exit', (code) => reject(new Error(`serve exited with ${code}`)));
    });
    for (;;) {
      const r = await fetch(`${url.origin}/api/invoke/portfolio`, { method: 'POST', body: '{}', headers: { 'x-tidewatch-token': url.searchParams.get('token')! } }).catch(() => undefined);
      if (r?.ok) {
        const body = (await r.json()) as { result: { data: { wallets: unknown[] } } };
        if (body.result.data.wallets.length > 0) return performance.now() - start;
      }
      await new Promise((res) => setTimeout(res, 10));
    }
  } finally {
    child.kill('SIGTERM');
    await new Promise((res) => child.once('exit', res));
  }
}

export async function startBench(): Promise<Array<[string, boolean]>> {
  const world = new World({ seed: SEED, historyDays: 0.01 });
  const owner = world.describe().owners.find((o) => o.loans > 0)!.owner;
  const help = (): number => {
    const s = performance.now();
    spawnSync(process.execPath, [BIN, '--help'], { stdio: 'ignore' });
    return performance.now() - s;
  };
  // A restart meets what the last run kept (the Portfolio among it): one unmeasured run first.
  const kept = filledStore(200_000);
  await serveToPortfolio(kept, owner);
  // Rounds of the three, interleaved, so the baseline and the runs share the machine's moods.
  const runs = { help: [] as number[], empty: [] as number[], restarted: [] as number[] };
  for (let r = 0; r < ROUNDS; r++) {
    runs.help.push(help());
    const dir = mkdtempSync(join(tmpdir(), 'tw-bench-start-'));
    runs.empty.push(await serveToPortfolio(dir, owner));
    rmSync(dir, { recursive: true, force: true });
    runs.restarted.push(await serveToPortfolio(kept, owner));
  }
  rmSync(kept, { recursive: true, force: true });
  const base = median(runs.help);
  console.log(`\n\`serve\` start to the first Portfolio answer (medians of ${ROUNDS})`);
  console.log(`${'baseline: tidewatch --help'.padEnd(44)} ${base.toFixed(0).padStart(6)} ms`);
  const results: Array<[string, boolean]> = [];
  for (const [name, xs] of [
    ['empty store (first start)', runs.empty],
    ['store of 200,000 events, restarted', runs.restarted],
  ] as const) {
    const ms = median(xs);
    console.log(`${`serve to Portfolio, ${name}`.padEnd(44)} ${ms.toFixed(0).padStart(6)} ms  ${(ms / base).toFixed(2)}x --help  (runs ${xs.map((x) => x.toFixed(0)).join(', ')})`);
    results.push([`serve to first Portfolio, ${name} <= 3x --help (${(ms / base).toFixed(2)}x)`, ms / base <= 3]);
  }
  for (const [what, ok] of results) console.log(`  budget ${(ok ? 'met' : 'MISSED').padEnd(6)} ${what}`);
  return results;
}
