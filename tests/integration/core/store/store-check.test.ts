import { closeSync, existsSync, openSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Monitor } from '../../../../src/main/core/monitor';
import { Store } from '../../../../src/main/core/store/store';
import type { StatusSnapshot } from '../../../../src/shared/contract';
import { monitorOn, tempDir, until } from '../../../support/monitor';
import { startTestSim, type TestSim } from '../../../support/sim';

const cleanups: Array<() => Promise<unknown> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

describe('a store damaged after a clean shutdown', () => {
  it('starts without waiting for the check, then says so in the status, and the next start moves it aside', async () => {
    const t: TestSim = await startTestSim();
    const dir = tempDir();
    cleanups.push(
      () => t.close(),
      () => dir.remove(),
    );
    // A run that closed cleanly, with enough rows for a page near the end to hold only theirs.
    const first = Store.open(dir.dir);
    const pad = 'x'.repeat(2000);
    first.margin.commit(
      Array.from({ length: 400 }, (_, i) => ({
        id: `${3000 + i}-0`,
        type: 'dex_margin_manager_updates_deposit',
        timestamp_ms: 3000 + i,
        checkpoint_id: i,
        tx_hash: `t${i}`,
        margin_manager_id: '0xm',
        data: JSON.stringify({ pad }),
        valid: true,
        problem: null,
      })),
    );
    await first.shutdown();
    const file = join(dir.dir, 'tidewatch.sqlite');
    expect(existsSync(`${file}.closed-cleanly`)).toBe(true);
    // A disk's fault between the two runs.
    const fd = openSync(file, 'r+');
    writeSync(fd, Buffer.alloc(4096, 0xa5), 0, 4096, statSync(file).size - 8 * 4096);
    closeSync(fd);

    const logs: string[] = [];
    const m: Monitor = monitorOn(t, dir.dir, { log: (line) => logs.push(line) }).start();
    const pushed: StatusSnapshot[] = [];
    m.subscribe('status', (s) => pushed.push(s as StatusSnapshot));
    expect(m.status().storeNotice).toBeNull();
    await until(() => pushed.some((s) => s.storeNotice !== null), 15_000, 'a status push with the notice');
    const notice = pushed.find((s) => s.storeNotice !== null)!.storeNotice!;
    expect(notice).toMatch(/damaged\. Quit Tidewatch and start it again/);
    expect(notice).not.toMatch(/quick_check|Page \d|\*\*\*/);
    expect(logs.some((l) => /check found damage/.test(l))).toBe(true);
    await m.close();
    expect(existsSync(`${file}.closed-cleanly`)).toBe(false);

    const next = monitorOn(t, dir.dir).start();
    cleanups.push(() => next.close());
    expect(next.status().storeNotice).toMatch(/moved to .*tidewatch\.sqlite\.broken-/);
  });
});
