import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { Store } from '../../../src/main/core/store/store';
import { tempDir, until } from '../../support/monitor';
import { startTestSim, TEST_KEY, type TestSim } from '../../support/sim';

const BIN = fileURLToPath(new URL('../../../bin/tidewatch.js', import.meta.url));
const dir = tempDir();
let t: TestSim;

afterAll(async () => {
  await t?.close();
  dir.remove();
});

function serve(simUrl: string): { child: ChildProcess; ready: Promise<void>; stderr: () => string } {
  const child = spawn(
    process.execPath,
    [BIN, 'serve', '--port', '0', '--data-dir', dir.dir, '--base-url', simUrl, '--api-key', TEST_KEY, '--history'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  let err = '';
  child.stderr!.on('data', (d) => (err += d));
  const ready = new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (d) => {
      out += d;
      if (out.includes('Tidewatch is running at')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`serve exited early with ${code}`)));
  });
  return { child, ready, stderr: () => err };
}

function storedCount(): number {
  try {
    const s = Store.openReadOnly(dir.dir);
    try {
      return s.margin.count();
    } finally {
      s.close();
    }
  } catch {
    return 0;
  }
}

describe('a monitor killed with SIGKILL during ingest', () => {
  it('stores exactly the service log after restarts: no gap, no duplicate', async () => {
    t = await startTestSim({ speed: 3000, heartbeatMs: 500 });
    const kills: number[] = [];
    for (let round = 0; round < 4; round++) {
      const { child, ready } = serve(t.sim.url);
      await ready;
      const before = storedCount();
      await until(() => storedCount() > before + 5, 20_000, 'ingest');
      await new Promise((r) => setTimeout(r, 100 + round * 150));
      child.kill('SIGKILL');
      await once(child, 'exit');
      kills.push(storedCount());
    }
    // Kills happened while events were still arriving.
    expect(kills.every((n, i) => i === 0 || n > kills[i - 1]!)).toBe(true);
    const last = serve(t.sim.url);
    await last.ready;
    await until(() => storedCount() >= t.sim.world.log.size - 2, 20_000, 'catch up');
    last.child.kill('SIGTERM');
    const [code, signal] = await once(last.child, 'exit');
    expect({ code, signal, stderr: last.stderr().slice(-2000) }).toMatchObject({ code: 0, signal: null });

    const exported = spawnSync(
      process.execPath,
      [BIN, 'export', 'margin-events', '--data-dir', dir.dir, '--format', 'jsonl'],
      {
        encoding: 'utf8',
        maxBuffer: 64 * 1024 * 1024,
      },
    );
    expect(exported.status).toBe(0);
    const rows = exported.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    for (const r of rows.slice(0, 5)) {
      expect(Object.keys(r)).toEqual(expect.arrayContaining(['id', 'type', 'timestamp_ms', 'checkpoint_id', 'data']));
    }
    const ids = rows.map((r) => r.id as string);
    const sent = t.sim.world.log.since('all').map((e) => e.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual(sent.slice(0, ids.length));
    expect(ids.length).toBeGreaterThanOrEqual(sent.length - 50);
    expect(JSON.stringify(rows)).not.toContain(TEST_KEY);
  }, 180_000);
});
