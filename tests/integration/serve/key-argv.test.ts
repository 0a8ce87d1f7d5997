import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir, until } from '../../support/monitor';
import { BIN } from '../../support/processes';
import { startTestSim, type TestSim } from '../../support/sim';

/**
 * The key never sits on a command line another local user can read: `serve` takes it from the
 * environment (or a file, or a prompt); given with --api-key it warns, writes over its own command
 * line, and the re-exec onto the pinned Node passes it in the environment, not in argv.
 */
const CANARY = 'canary-Key+9/x=Z';
const STREAM_CANARY = 'canary-stream-77';
const dir = tempDir();
const running: ChildProcess[] = [];
let t: TestSim | undefined;

afterAll(async () => {
  for (const p of running) p.kill('SIGTERM');
  await t?.close();
  dir.remove();
});

/** The command lines of a process and all its descendants (Linux /proc). */
function commandLines(pid: number): string[] {
  const out: string[] = [];
  const walk = (p: number): void => {
    try {
      out.push(readFileSync(`/proc/${p}/cmdline`, 'utf8').split('\0').join(' '));
    } catch {
      return;
    }
    const kids = spawnSync('pgrep', ['-P', String(p)], { encoding: 'utf8' })
      .stdout.split('\n')
      .filter(Boolean)
      .map(Number);
    for (const k of kids) walk(k);
  };
  walk(pid);
  return out;
}

async function serve(
  node: string,
  args: string[],
  env: Record<string, string>,
): Promise<{ child: ChildProcess; err: () => string }> {
  const child = spawn(node, [BIN, 'serve', '--port', '0', '--data-dir', dir.dir, '--base-url', t!.sim.url, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, TIDEWATCH_STRICT: '1', ...env },
  });
  running.push(child);
  let out = '';
  let err = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (err += d));
  await until(() => out.includes('is running at') || child.exitCode !== null, 60_000, 'serve');
  expect(out, err).toContain('is running at');
  return { child, err: () => err };
}

describe('the key and the command line', () => {
  it.runIf(process.platform === 'linux')('from TIDEWATCH_API_KEY: on no command line, no warning', async () => {
    t = await startTestSim({ apiKeys: [CANARY] });
    const s = await serve(process.execPath, [], { TIDEWATCH_API_KEY: CANARY });
    const lines = commandLines(s.child.pid!);
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.filter((l) => l.includes('canary'))).toEqual([]);
    expect(s.err()).not.toContain('warning');
    s.child.kill('SIGTERM');
  });

  it.runIf(process.platform === 'linux')(
    'given with --api-key to the pinned Node itself (as `npm run` starts it), the key leaves the command line at once',
    async () => {
      const s = await serve(process.execPath, ['--api-key', CANARY], {});
      const lines = commandLines(s.child.pid!);
      expect(lines.length).toBeGreaterThan(0);
      expect(lines.filter((l) => l.includes('canary'))).toEqual([]);
      expect(lines[0]).toMatch(/^tidewatch serve/);
      expect(s.err()).toContain('--api-key puts the key on the command line');
      s.child.kill('SIGTERM');
    },
  );

  it.runIf(
    process.platform === 'linux' &&
      spawnSync('/usr/bin/node', ['--version'], { encoding: 'utf8' }).stdout.startsWith('v20'),
  )(
    '--api-key and --stream-key warn, and the re-exec onto the pinned Node carries them in the environment only',
    async () => {
      const s = await serve('/usr/bin/node', ['--api-key', CANARY, `--stream-key=${STREAM_CANARY}`], {});
      const lines = commandLines(s.child.pid!);
      // The parent (Node 20) was given it by the user and wrote over it; its child (the pinned Node 24) never had it.
      expect(lines.length).toBeGreaterThanOrEqual(2);
      expect(lines.filter((l) => l.includes('canary'))).toEqual([]);
      expect(s.err()).toContain('--api-key puts the key on the command line');
      expect(s.err()).toContain('--stream-key puts the key on the command line');
      s.child.kill('SIGTERM');
    },
  );
});
