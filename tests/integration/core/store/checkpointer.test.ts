import { execFileSync, spawn } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EVENT_TYPES } from '../../../../src/shared/api';
import { Checkpointer, FALLBACK_AUTOCHECKPOINT_PAGES } from '../../../../src/main/core/store/checkpointer';
import { openDatabase, WAL_AUTOCHECKPOINT_PAGES } from '../../../../src/main/core/store/database';
import { MarginEventRepo, type IncomingMarginEvent } from '../../../../src/main/core/store/margin-events';
import { Store, STORE_FILE } from '../../../../src/main/core/store/store';
import { tempDir } from '../../../support/monitor';

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** Processes whose command line names `dir` (the checkpointer carries its store's path). */
function processesNaming(dir: string): number[] {
  const out = execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' });
  return out
    .split('\n')
    .filter((l) => l.includes(dir) && l.includes('wal_checkpoint'))
    .map((l) => Number(l.trim().split(/\s+/)[0]));
}

function deposit(n: number, pad: string): IncomingMarginEvent {
  const ms = 1_800_000_000_000 + n;
  const manager = `0x${(n % 50).toString(16).padStart(64, '0')}`;
  return {
    id: `${ms}-0`,
    type: EVENT_TYPES.deposit,
    timestamp_ms: ms,
    checkpoint_id: 1,
    tx_hash: `tx-${n}`,
    margin_manager_id: manager,
    data: JSON.stringify({ pad, n }),
    valid: true,
    problem: null,
  };
}

describe('WAL checkpoints off the writer (ingest and alerts without writer stalls)', () => {
  it('keeps the WAL small while the writer commits, and closes with the WAL folded into the file', async () => {
    const dir = tempDir();
    cleanups.push(() => dir.remove());
    const store = Store.open(dir.dir);
    const wal = join(dir.dir, `${STORE_FILE}-wal`);
    // The writer's own checkpoint is pushed out to 64 MB of WAL: what keeps it small below is the checkpointer.
    expect(store.db.pragma('wal_autocheckpoint', { simple: true })).toBe(FALLBACK_AUTOCHECKPOINT_PAGES);
    expect(processesNaming(dir.dir)).toHaveLength(1);
    // ~40 MB of events in 200 commits: without checkpoints the WAL would hold all of it.
    const big = 'x'.repeat(2_000);
    for (let c = 0; c < 200; c++) {
      store.margin.commit(Array.from({ length: 100 }, (_, i) => deposit(c * 100 + i, big)));
      if (c % 40 === 0) await sleep(600); // turns in which the checkpointer works
    }
    await sleep(700);
    store.margin.commit([deposit(99_999, 'last')]);
    // The writer restarted the WAL after the checkpoints, and journal_size_limit bounds the file.
    expect(statSync(wal).size).toBeLessThanOrEqual(64 * 1024 * 1024);
    const pages = store.db.pragma('wal_checkpoint(PASSIVE)', { simple: false }) as Array<{ log: number }>;
    expect(pages[0]!.log).toBeLessThan(2_000);
    await store.shutdown();
    expect(existsSync(wal)).toBe(false);
    expect(processesNaming(dir.dir)).toHaveLength(0);
    const again = Store.open(dir.dir);
    expect(again.margin.count()).toBe(20_001);
    await again.shutdown();
  });

  it('as a worker thread (what Electron runs, where the app cannot start itself as Node) keeps the WAL small too', async () => {
    const dir = tempDir();
    cleanups.push(() => dir.remove());
    // The store without its own checkpointer, the writer's automatic one pushed out: only the thread checkpoints.
    const file = join(dir.dir, STORE_FILE);
    const { db } = openDatabase(file);
    db.pragma(`wal_autocheckpoint = ${FALLBACK_AUTOCHECKPOINT_PAGES}`);
    const repo = new MarginEventRepo(db);
    const thread = Checkpointer.start(file, () => {}, 'thread')!;
    expect(thread.pid).toBeUndefined();
    const big = 'y'.repeat(2_000);
    for (let c = 0; c < 100; c++) {
      repo.commit(Array.from({ length: 100 }, (_, i) => deposit(c * 100 + i, big)));
      if (c % 25 === 0) await sleep(600);
    }
    await sleep(700);
    repo.commit([deposit(99_999, 'last')]);
    const pages = db.pragma('wal_checkpoint(PASSIVE)', { simple: false }) as Array<{ log: number }>;
    expect(pages[0]!.log).toBeLessThan(2_000);
    await thread.close();
    db.close();
    expect(existsSync(`${file}-wal`)).toBe(false);
  });

  it('gives the writer its own checkpoints back when the checkpointer dies', async () => {
    const dir = tempDir();
    cleanups.push(() => dir.remove());
    const lines: string[] = [];
    const store = Store.open(dir.dir, (l) => lines.push(l));
    cleanups.push(() => store.shutdown());
    expect(store.db.pragma('wal_autocheckpoint', { simple: true })).toBe(FALLBACK_AUTOCHECKPOINT_PAGES);
    process.kill(store.checkpointerPid!, 'SIGKILL');
    const until = Date.now() + 5_000;
    while (store.db.pragma('wal_autocheckpoint', { simple: true }) !== WAL_AUTOCHECKPOINT_PAGES && Date.now() < until)
      await sleep(50);
    expect(store.db.pragma('wal_autocheckpoint', { simple: true })).toBe(WAL_AUTOCHECKPOINT_PAGES);
    expect(lines.join('\n')).toMatch(/the checkpointer stopped .*the writer checkpoints itself/);
    store.margin.commit([deposit(1, 'still writes')]);
    expect(store.margin.count()).toBe(1);
  });

  it('leaves no checkpointer behind when the app is killed (SIGKILL)', async () => {
    const dir = tempDir();
    cleanups.push(() => dir.remove());
    const program = `import { Store } from ${JSON.stringify(new URL('../../../../src/main/core/store/store.ts', import.meta.url).pathname)}; Store.open(process.argv.at(-1)); console.log('open'); setInterval(() => {}, 1000);`;
    const app = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', program, dir.dir], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    cleanups.push(() => app.kill('SIGKILL'));
    await new Promise<void>((resolve) => app.stdout!.once('data', () => resolve()));
    await sleep(300);
    const [checkpointer] = processesNaming(dir.dir);
    expect(checkpointer).toBeGreaterThan(0);
    app.kill('SIGKILL');
    const until = Date.now() + 10_000;
    while (processesNaming(dir.dir).length > 0 && Date.now() < until) await sleep(100);
    expect(processesNaming(dir.dir)).toHaveLength(0);
  });
});
