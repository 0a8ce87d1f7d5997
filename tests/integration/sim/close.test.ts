import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SIM = fileURLToPath(new URL('../../../src/sim/index.ts', import.meta.url));

/**
 * The process that hosts the Demo network ends by itself once the sim is closed, also when a
 * stream was requested while the history was still being generated and the client left before it
 * was ready: `serve` restarted on a big store answers from it at once, and a quit in those first
 * seconds used to leave a stream's heartbeat, and so the process, running forever.
 */
describe('closing the Demo network during its gradual start', () => {
  it('leaves nothing running: the process exits on its own', async () => {
    const program = `
      import { startSim } from ${JSON.stringify(SIM)};
      const sim = await startSim({ apiKeys: ['k'], port: 0, gradual: true });
      const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
      const c = new AbortController();
      const asked = fetch(sim.url + '/dex-margin/manager-updates?api-key=k&last-id=0', { signal: c.signal }).catch(() => {});
      await sleep(50);
      if (sim.world.built) throw new Error('the history was ready too soon for this test');
      c.abort();
      await asked;
      await sleep(50);
      await sim.close();
      console.log('closed');
    `;
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', program], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout!.on('data', (d) => (out += d));
    const code = await new Promise<number | null | 'timeout'>((resolve) => {
      const t = setTimeout(() => resolve('timeout'), 20_000);
      child.on('exit', (c) => {
        clearTimeout(t);
        resolve(c);
      });
    });
    if (code === 'timeout') child.kill('SIGKILL');
    expect(out).toContain('closed');
    expect(code).toBe(0);
  }, 30_000);
});
