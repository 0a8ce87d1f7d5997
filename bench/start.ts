/**
 * `serve` start to the first Portfolio answer (a watched owner with loans) and to its position rows
 * visible in Chromium, with an empty store (the first start: the answer needs the network) and
 * restarted on a store of 200,000 events (and of 1,000,000: a start must not grow with the store)
 * and the Portfolio the last run kept, against the same run's `tidewatch --help` (the cost of
 * starting Node, tsx and the command line at all). Medians
 * of 5 rounds, each round the baseline and every case, so they share the machine's state.
 * Budgets: the answer <= 3x --help, the rows <= 4.5x.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { World } from '../src/sim';
import { Store } from '../src/main/core/store/store';
import { printFigures, withSpread, type Figure } from './figures';

const BIN = fileURLToPath(new URL('../bin/tidewatch.js', import.meta.url));
const SEED = 20_251_122;
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const ROUNDS = 5;
const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
/**
 * In the page: the wall-clock time of the first frame after a loan row is in the document (the
 * driver's own polling, ~0.1-0.3 s on 2 busy cores, is not the app's).
 */
const SEEN_ROWS = `(() => {
  const seen = () => {
    if (window.__rowsPaintedAt || !document.querySelector('[data-testid="position-row"]')) return;
    window.__rowsPaintedAt = -1;
    requestAnimationFrame(() => (window.__rowsPaintedAt = performance.timeOrigin + performance.now()));
  };
  new MutationObserver(seen).observe(document, { subtree: true, childList: true });
})();`;

/** Fill a store with `n` margin stream events through its own commit (what a long run leaves). */
function filledStore(n: number): string {
  const dir = mkdtempSync(join(tmpdir(), 'tw-bench-start-'));
  const store = Store.open(dir);
  for (let from = 0; from < n; from += 5_000) {
    const batch = [];
    for (let i = from; i < Math.min(n, from + 5_000); i++) {
      const ms = 1_700_000_000_000 + i;
      const m = `0x${(i % 2000).toString(16).padStart(64, '0')}`;
      batch.push({
        id: `${ms}-0`,
        type: 'dex_margin_manager_updates_deposit',
        timestamp_ms: ms,
        checkpoint_id: i,
        tx_hash: `t${i}`,
        margin_manager_id: m,
        data: `{"margin_manager_id":"${m}"}`,
        valid: true,
        problem: null,
      });
    }
    store.margin.commit(batch);
  }
  store.close();
  return dir;
}

/**
 * ms from spawning `serve` to what `until` waits for: a `portfolio` answer that lists the watched
 * wallet, or (with a browser) its position rows visible in a fresh Chromium page opened as soon as
 * `serve` prints its address.
 */
async function serveTo(dataDir: string, owner: string, browser?: Browser): Promise<number> {
  // The browser is already open, as a trader's is (a new page costs ~0.5 s on 2 cores by itself).
  const context = await browser?.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context?.newPage();
  if (page) {
    await page.addInitScript(SEEN_ROWS);
    await page.goto('about:blank');
    await new Promise((res) => setTimeout(res, 1_000)); // the new page's own start settles first
  }
  const start = performance.now();
  const child = spawn(
    process.execPath,
    [BIN, 'serve', '--port', '0', '--data-dir', dataDir, '--seed', String(SEED), '--watch', owner],
    { stdio: ['ignore', 'pipe', 'ignore'] },
  );
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
    if (page) {
      await page.goto(url.href);
      await page.getByTestId('position-row').first().waitFor({ state: 'visible', timeout: 60_000 });
      // When the page painted them (its clock, on the same wall clock), not when the driver noticed.
      const paintedAt = (await page.evaluate('window.__rowsPaintedAt')) as number;
      return paintedAt - (performance.timeOrigin + start);
    }
    for (;;) {
      const r = await fetch(`${url.origin}/api/invoke/portfolio`, {
        method: 'POST',
        body: '{}',
        headers: { 'x-tidewatch-token': url.searchParams.get('token')! },
      }).catch(() => undefined);
      if (r?.ok) {
        const body = (await r.json()) as { result: { data: { wallets: unknown[] } } };
        if (body.result.data.wallets.length > 0) return performance.now() - start;
      }
      await new Promise((res) => setTimeout(res, 10));
    }
  } finally {
    child.kill('SIGTERM');
    await new Promise((res) => child.once('exit', res));
    await context?.close();
  }
}

export async function startBench(): Promise<Figure[]> {
  const world = new World({ seed: SEED, historyDays: 0.01 });
  const owner = world.describe().owners.find((o) => o.loans > 0)!.owner;
  const help = (): number => {
    const s = performance.now();
    spawnSync(process.execPath, [BIN, '--help'], { stdio: 'ignore' });
    return performance.now() - s;
  };
  const canBrowse = existsSync(CHROMIUM) && existsSync('out/renderer/index.html');
  const browser = canBrowse
    ? await chromium.launch({
        executablePath: CHROMIUM,
        headless: true,
        args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
      })
    : undefined;
  // A restart meets what the last run kept (the Portfolio among it): one unmeasured run first.
  const kept = filledStore(200_000);
  await serveTo(kept, owner);
  // A store weeks old: the start should not grow with it (the file's check runs off the thread).
  const big = filledStore(1_000_000);
  await serveTo(big, owner);
  // Rounds of all of them, interleaved, so the baseline and the runs share the machine's moods.
  const cases = [
    { name: 'serve to Portfolio, empty store (first start)', budget: 3, fresh: true, browse: false },
    { name: 'serve to Portfolio, store of 200,000 events, restarted', budget: 3, fresh: false, browse: false },
    {
      name: 'serve to Portfolio, store of 1,000,000 events, restarted',
      budget: 3,
      fresh: false,
      browse: false,
      dir: big,
    },
    { name: 'serve to position rows in Chromium, empty store', budget: 4.5, fresh: true, browse: true },
    { name: 'serve to position rows in Chromium, 200,000 events, restarted', budget: 4.5, fresh: false, browse: true },
  ].filter((c) => !c.browse || browser);
  const helpRuns: number[] = [];
  const runs = cases.map(() => [] as number[]);
  try {
    for (let r = 0; r < ROUNDS; r++) {
      helpRuns.push(help());
      for (const [i, c] of cases.entries()) {
        const dir = c.fresh ? mkdtempSync(join(tmpdir(), 'tw-bench-start-')) : (c.dir ?? kept);
        runs[i]!.push(await serveTo(dir, owner, c.browse ? browser : undefined));
        if (c.fresh) rmSync(dir, { recursive: true, force: true });
      }
    }
  } finally {
    await browser?.close();
    rmSync(kept, { recursive: true, force: true });
    rmSync(big, { recursive: true, force: true });
  }
  const base = median(helpRuns);
  const part = '`serve` start, as the CLI starts it';
  console.log(
    `\n${part}: to the first Portfolio answer and to position rows in Chromium (medians of ${ROUNDS} interleaved rounds)`,
  );
  console.log(`${'baseline: tidewatch --help'.padEnd(58)} ${withSpread(helpRuns, 0, 'ms')}`);
  const figures: Figure[] = [];
  for (const [i, c] of cases.entries()) {
    const ms = median(runs[i]!);
    console.log(`${c.name.padEnd(58)} ${withSpread(runs[i]!, 0, 'ms')}  ${(ms / base).toFixed(2)}x --help`);
    figures.push({
      part,
      name: c.name,
      value: withSpread(runs[i]!, 0, 'ms'),
      baseline: `tidewatch --help: ${withSpread(helpRuns, 0, 'ms')}`,
      ratio: `${(ms / base).toFixed(2)}x`,
      budget: `≤ ${c.budget}x`,
      met: ms / base <= c.budget,
    });
  }
  if (!browser)
    figures.push({
      part,
      name: 'serve to position rows in Chromium',
      value: `not measured: ${existsSync(CHROMIUM) ? 'run `npm run build` first' : `no Chromium at ${CHROMIUM}`}`,
      baseline: '',
      ratio: '',
      budget: '≤ 4.5x',
      met: false,
    });
  printFigures(figures);
  return figures;
}
