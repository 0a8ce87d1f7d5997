import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MonitorOptions } from '../../src/main/core/monitor';
import { MemorySecretStore } from '../../src/main/core/settings';
import { MonitorHarness } from './monitor-harness';
import { TEST_KEY, type TestSim } from './sim';

export function tempDir(prefix = 'tidewatch-test-'): { dir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A monitor on the given sim as its Demo network, at production stream timings (backoff, watchdog), its services shown. */
export function monitorOn(t: TestSim, dataDir: string, extra: Partial<MonitorOptions> = {}): MonitorHarness {
  return new MonitorHarness({
    dataDir,
    demo: { baseUrl: t.sim.url, apiKey: TEST_KEY },
    secrets: new MemorySecretStore(),
    ...extra,
  });
}

export async function until(
  predicate: () => boolean | Promise<boolean>,
  timeoutMs = 15_000,
  what = 'condition',
): Promise<void> {
  const start = Date.now();
  while (!(await predicate())) {
    if (Date.now() - start > timeoutMs) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
