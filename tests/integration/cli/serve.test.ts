import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir, until } from '../../support/monitor';
import { freePort } from '../../support/processes';

const BIN = fileURLToPath(new URL('../../../bin/tidewatch.js', import.meta.url));
const dir = tempDir();
afterAll(() => dir.remove());

describe('tidewatch serve / export / doctor on the Demo network', () => {
  it('serves, refuses requests without the token, commits on SIGTERM, and exports', async () => {
    const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--data-dir', dir.dir, '--speed', '600'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout!.on('data', (d) => (out += d));
    child.stderr!.resume();
    await until(() => out.includes('\n'), 30_000, 'the running line');
    const m = /^Tidewatch is running at (http:\/\/127\.0\.0\.1:(\d+))\/\?token=(\S+)$/m.exec(out);
    expect(m, out).not.toBeNull();
    const [, base, , token] = m!;
    expect((await fetch(`${base}/api/invoke/pools`, { method: 'POST', body: '{}' })).status).toBe(401);
    const ok = await fetch(`${base}/api/invoke/marginEvents`, {
      method: 'POST',
      body: '{"limit":5}',
      headers: { 'x-tidewatch-token': token! },
    });
    expect(ok.status).toBe(200);
    await until(
      async () => {
        const r = await fetch(`${base}/api/invoke/streamStatus`, {
          method: 'POST',
          body: '{}',
          headers: { 'x-tidewatch-token': token! },
        });
        const s = ((await r.json()) as any).result.streams.find((x: any) => x.id === 'margin');
        return s?.events > 100;
      },
      20_000,
      'margin history',
    );
    child.kill('SIGTERM');
    const [code] = await once(child, 'exit');
    expect(code).toBe(0);
    const jsonl = spawnSync(process.execPath, [BIN, 'export', 'margin-events', '--data-dir', dir.dir], {
      encoding: 'utf8',
      maxBuffer: 64 << 20,
    });
    expect(jsonl.status).toBe(0);
    const lines = jsonl.stdout.trim().split('\n');
    expect(lines.length).toBeGreaterThan(100);
    const first = JSON.parse(lines[0]!);
    expect(first.id).toMatch(/^\d+-\d+$/);
    expect(typeof first.type).toBe('string');
    const csv = spawnSync(process.execPath, [BIN, 'export', 'liquidations', '--data-dir', dir.dir, '--format', 'csv'], {
      encoding: 'utf8',
    });
    expect(csv.status).toBe(0);
    expect(csv.stdout.split('\n')[0]).toBe(
      'id,timestamp_ms,checkpoint_id,tx_hash,margin_manager_id,margin_pool_id,liquidation_amount,pool_reward,pool_default,risk_ratio,remaining_base_asset,remaining_quote_asset',
    );
    const none = spawnSync(process.execPath, [BIN, 'export', 'trades', '--data-dir', dir.dir], { encoding: 'utf8' });
    expect(none.status).toBe(2);
    expect(none.stderr).toContain('--pool');
  }, 60_000);

  it('keeps running when whoever read its output goes, and still stops on SIGTERM', async () => {
    const child = spawn(
      process.execPath,
      [BIN, 'serve', '--port', '0', '--data-dir', join(dir.dir, 'gone-output'), '--speed', '600'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    child.stdout!.on('data', (d) => (out += d));
    child.stderr!.resume();
    await until(() => out.includes('\n'), 30_000, 'the running line');
    const [, base, token] = /running at (http:\/\/127\.0\.0\.1:\d+)\/\?token=(\S+)/.exec(out)!;
    // The reader goes: every later line of serve's fails with EPIPE.
    child.stdout!.destroy();
    child.stderr!.destroy();
    await new Promise((r) => setTimeout(r, 2_000)); // at --speed 600 it logs meanwhile
    const r = await fetch(`${base}/api/invoke/streamStatus`, {
      method: 'POST',
      body: '{}',
      headers: { 'x-tidewatch-token': token! },
    });
    expect(r.status).toBe(200);
    const started = performance.now();
    child.kill('SIGTERM');
    const [code] = await once(child, 'exit');
    expect(code).toBe(0);
    expect(performance.now() - started).toBeLessThan(10_000);
  }, 40_000);

  it('doctor prints a pass/fail table and fails clearly on a wrong key', { timeout: 90_000 }, async () => {
    const demo = spawnSync(process.execPath, [BIN, 'doctor', '--data-dir', dir.dir], { encoding: 'utf8' });
    expect(demo.status, demo.stdout + demo.stderr).toBe(0);
    expect(demo.stdout).toMatch(/PASS\s+api key/);
    expect(demo.stdout).toMatch(/PASS\s+the margin stream/);
    expect(demo.stdout).toContain('all checks passed');
    const sim = spawn(process.execPath, [BIN, 'sim', '--port', '0', '--api-key', 'right'], {
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    let out = '';
    sim.stdout!.on('data', (d) => (out += d));
    await until(() => out.includes('listening on'), 30_000, 'sim');
    const url = /listening on (\S+)/.exec(out)![1]!;
    const wrong = spawn(
      process.execPath,
      [BIN, 'doctor', '--base-url', url, '--api-key', 'wrong-key-xyz', '--data-dir', dir.dir],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let text = '';
    wrong.stdout!.on('data', (d) => (text += d));
    const [code] = await once(wrong, 'exit');
    sim.kill('SIGTERM');
    expect(code).toBe(1);
    expect(text).toMatch(/FAIL\s+api key.*401/);
    expect(text).toContain('Check it in Settings');
    expect(text).not.toContain('wrong-key-xyz');
  });

  it('doctor gives one verdict when nothing answers', async () => {
    const port = await freePort();
    const r = spawnSync(
      process.execPath,
      [BIN, 'doctor', '--base-url', `http://127.0.0.1:${port}`, '--api-key', 'k-123456', '--data-dir', dir.dir],
      { encoding: 'utf8' },
    );
    expect(r.status).toBe(1);
    expect(r.stdout).toMatch(
      /FAIL\s+service\s+The service cannot be reached \(ECONNREFUSED\)\. Nothing else of the service was checked/,
    );
    expect(r.stdout.match(/FAIL/g)).toHaveLength(1);
    expect(r.stdout).not.toMatch(/GET |api-key|k-123456/);
  });

  it('doctor reports a damaged store and changes nothing', () => {
    const bad = tempDir();
    try {
      const file = join(bad.dir, 'tidewatch.sqlite');
      writeFileSync(file, 'this is not a database, but somebody may want it back');
      const before = readdirSync(bad.dir).sort();
      const r = spawnSync(process.execPath, [BIN, 'doctor', '--data-dir', bad.dir], { encoding: 'utf8' });
      expect(r.status).toBe(1);
      expect(r.stdout).toMatch(/FAIL\s+store\s+.*cannot be opened.*Nothing was changed/);
      expect(readdirSync(bad.dir).sort()).toEqual(before);
      expect(readFileSync(file, 'utf8')).toBe('this is not a database, but somebody may want it back');
    } finally {
      bad.remove();
    }
  });
});
