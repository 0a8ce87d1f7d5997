import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { World } from '../../../src/sim';

const BIN = fileURLToPath(new URL('../../../bin/tidewatch.js', import.meta.url));

function run(args: string[]): { child: ChildProcess; stdout: () => string; stderr: () => string } {
  const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (err += d));
  return { child, stdout: () => out, stderr: () => err };
}

async function exitOf(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null) return child.exitCode;
  const [code] = await once(child, 'exit');
  return code as number | null;
}

async function waitFor(predicate: () => boolean, ms: number): Promise<void> {
  const start = Date.now();
  while (!predicate()) {
    if (Date.now() - start > ms) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('tidewatch sim (command line)', () => {
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`prints the listening line once it accepts connections, serves, and stops on ${signal}`, async () => {
      const p = run(['sim', '--port', '0', '--api-key', 'KEY', '--seed', '7', '--speed', '60']);
      await waitFor(() => p.stdout().includes('\n'), 30_000);
      const line = p.stdout().split('\n')[0]!;
      const m = /^Tidewatch demo network listening on http:\/\/127\.0\.0\.1:(\d+)$/.exec(line);
      expect(m, line).not.toBeNull();
      const port = Number(m![1]);
      expect(port).toBeGreaterThan(0);
      const res = await fetch(`http://127.0.0.1:${port}/dex/get_pools?api-key=KEY`);
      expect(res.status).toBe(200);
      expect(((await res.json()) as unknown[]).length).toBeGreaterThanOrEqual(4);
      expect((await fetch(`http://127.0.0.1:${port}/dex/get_pools?api-key=other`)).status).toBe(401);
      p.child.kill(signal);
      expect(await exitOf(p.child)).toBe(0);
    }, 45_000);
  }

  it(
    '--describe prints one JSON object of what the API cannot discover, the same for the same seed',
    { timeout: 90_000 },
    async () => {
      const p = run(['sim', '--describe', '--seed', '7']);
      expect(await exitOf(p.child)).toBe(0);
      const described = JSON.parse(p.stdout());
      expect(Object.keys(described).sort()).toEqual([
        'collections',
        'kiosks',
        'marginOwners',
        'owners',
        'pools',
        'wallets',
      ]);
      expect(described).toEqual(new World({ seed: 7 }).describe());
      expect(described.wallets.length).toBeGreaterThan(10);
      expect(described.kiosks.length).toBeGreaterThan(3);
      expect(described.collections.length).toBeGreaterThanOrEqual(3);
      expect(described.pools).toContain('SUI_USDC');
      expect(described.marginOwners.length).toBeGreaterThan(5);
      // Owners with what they hold, so a user knows which wallet to open on the Demo network.
      expect(described.owners[0]).toEqual({
        owner: expect.stringMatching(/^0x[0-9a-f]{64}$/),
        nfts: expect.any(Number),
        kiosks: expect.any(Number),
        managers: expect.any(Number),
        loans: expect.any(Number),
      });
      expect(described.owners.some((o: { nfts: number }) => o.nfts > 0)).toBe(true);
      expect(described.owners.some((o: { loans: number }) => o.loans > 0)).toBe(true);
      for (const a of [...described.wallets, ...described.kiosks, ...described.marginOwners])
        expect(a).toMatch(/^0x[0-9a-f]{64}$/);
    },
  );

  it("--plan takes the service's four plans, each told in the usage; another name is a usage error naming them", async () => {
    const help = run(['sim', '--help']);
    expect(await exitOf(help.child)).toBe(0);
    expect(help.stdout()).toContain('[--plan free|builder|scale|pro] [--bill-log]');
    expect(help.stdout()).toContain('free 10 req/s, 1 stream, 250,000 credits a month');
    expect(help.stdout()).toContain('pro 100 req/s, 25 streams, 50,000,000 credits a month');
    const p = run(['sim', '--plan', 'starter']);
    expect(await exitOf(p.child)).toBe(2);
    expect(p.stderr()).toContain('--plan must be one of free, builder, scale, pro (got "starter")');
  });

  it('serve --plan takes the same four plans; another name is a usage error before anything starts', async () => {
    const help = run(['serve', '--help']);
    expect(await exitOf(help.child)).toBe(0);
    expect(help.stdout()).toContain('[--plan free|builder|scale|pro]');
    const p = run(['serve', '--plan', 'business', '--port', '0']);
    expect(await exitOf(p.child)).toBe(2);
    expect(p.stderr()).toContain('--plan must be one of free, builder, scale, pro (got "business")');
  });

  it('exits 2 with the usage on a bad option', async () => {
    const p = run(['sim', '--speed', 'fast']);
    expect(await exitOf(p.child)).toBe(2);
    expect(p.stderr()).toContain('--speed');
    expect(p.stderr()).toContain('tidewatch sim --port 0');
  });
});
