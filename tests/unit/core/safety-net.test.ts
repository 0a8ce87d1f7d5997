import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const NET = fileURLToPath(new URL('../../../src/main/core/safety-net.ts', import.meta.url));
/** A process that installs the net, then lets a promise reject with nobody listening. */
const script = `
  const { installSafetyNet } = await import(${JSON.stringify(NET)});
  installSafetyNet({ log: (l) => console.error(l), onError: (e) => console.log('noted: ' + e.message) });
  Promise.reject(new Error('a page fetched ahead failed'));
  setTimeout(() => console.log('still alive'), 100);
`;
const run = (env: Record<string, string>) =>
  spawnSync(process.execPath, ['--import', 'tsx/esm', '--input-type=module', '-e', script], {
    encoding: 'utf8',
    env: { ...process.env, ...env },
    timeout: 30_000,
  });

describe('the shells\u2019 safety net', () => {
  it('logs an unhandled rejection, notes it for the status, and keeps the process alive', () => {
    const r = run({ TIDEWATCH_STRICT: '0' });
    expect(r.status).toBe(0);
    expect(r.stderr).toContain('unhandled rejection (survived)');
    expect(r.stdout).toContain('noted: a page fetched ahead failed');
    expect(r.stdout).toContain('still alive');
  });

  it('ends the process with code 70 under TIDEWATCH_STRICT=1, so no test can lean on it', () => {
    const r = run({ TIDEWATCH_STRICT: '1' });
    expect(r.status).toBe(70);
    expect(r.stdout).not.toContain('still alive');
  });
});
