import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { Store } from '../../../src/main/core/store/store';
import { FaultyStreamServer } from '../../support/faulty-stream-server';
import { tempDir, until } from '../../support/monitor';

const BIN = fileURLToPath(new URL('../../../bin/tidewatch.js', import.meta.url));
const dir = tempDir();
const faulty = new FaultyStreamServer(7);
afterAll(async () => {
  await faulty.close();
  dir.remove();
});

function storedIds(): string[] {
  try {
    const s = Store.openReadOnly(dir.dir);
    try {
      return [...s.margin.iterate()].map((e) => e.id);
    } finally {
      s.close();
    }
  } catch {
    return [];
  }
}

function serve(url: string): { child: ChildProcess; ready: Promise<void> } {
  const child = spawn(
    process.execPath,
    [BIN, 'serve', '--port', '0', '--data-dir', dir.dir, '--base-url', url, '--stream-url', url, '--api-key', 'k'],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  child.stderr!.resume();
  const ready = new Promise<void>((resolve) => {
    child.stdout!.on('data', (d) => {
      out += d;
      if (out.includes('running at')) resolve();
    });
  });
  return { child, ready };
}

describe('serve against a faulty stream server, killed during ingest', () => {
  it('exports exactly the events that were sent: none lost, none twice', async () => {
    const url = await faulty.listen();
    faulty.produce(3);
    for (let round = 0; round < 3; round++) {
      const { child, ready } = serve(url);
      await ready;
      const before = storedIds().length;
      await until(() => storedIds().length > before + 20, 30_000, 'ingest');
      child.kill('SIGKILL');
      await once(child, 'exit');
    }
    const last = serve(url);
    await last.ready;
    // Keep producing until the server has refused or cut the client several times.
    await until(() => faulty.refused + faulty.cut >= 8, 60_000, 'faults');
    faulty.stopProducing();
    // Everything logged from the first stored event on (the first start asked for new events only,
    // $): an event produced while no connection was open comes with the next connection's replay,
    // and the server cuts every connection within 400 ms, so the client catches up on all of it.
    const first = storedIds()[0]!;
    const logged = faulty.log.map((e) => e.id);
    const fromFirst = logged.slice(logged.indexOf(first));
    await until(() => storedIds().length >= fromFirst.length, 30_000, 'catch up');
    expect(fromFirst.every((id) => faulty.sentIds.has(id))).toBe(true);
    last.child.kill('SIGTERM');
    expect((await once(last.child, 'exit'))[0]).toBe(0);

    const out = spawnSync(
      process.execPath,
      [BIN, 'export', 'margin-events', '--data-dir', dir.dir, '--format', 'jsonl'],
      { encoding: 'utf8', maxBuffer: 64 << 20 },
    );
    expect(out.status).toBe(0);
    const rows = out.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    const ids = rows.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual(fromFirst);
    // Messages that were not JSON are kept, marked invalid, with the reason.
    const broken = rows.filter((r) => !r.valid);
    expect(broken.length).toBeGreaterThan(0);
    expect(
      broken.every((r) => faulty.log.findIndex((e) => e.id === r.id) % 50 === 7 && /not JSON/.test(r.problem)),
    ).toBe(true);
    expect(faulty.refused + faulty.cut).toBeGreaterThanOrEqual(8);
    console.log(
      `faulty server: ${faulty.connections} connections, ${faulty.refused} refused (503/429), ${faulty.cut} cut mid-message; ${ids.length} events stored, all sent, none twice`,
    );
  }, 240_000);
});
