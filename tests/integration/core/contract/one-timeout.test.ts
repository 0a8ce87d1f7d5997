import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServiceError } from '../../../../src/main/core/client/errors';
import { Monitor } from '../../../../src/main/core/monitor';
import { MemorySecretStore } from '../../../../src/main/core/settings';
import { HostileServer } from '../../../support/hostile-server';
import { tempDir, until } from '../../../support/monitor';

/**
 * A service that trickles every answer (one byte each 100 ms after its headers), with one answer
 * allowed 2 s. The watched wallet's first reading takes every request slot for those 2 s, so a
 * page's call waited for a slot and then gave its own request a timeout of its own: `liquidations`
 * and a Kiosk lookup answered after two timeouts (4.0 s), the kept pools after three (6.0 s), a
 * manager nothing names (its loans asked, then asked again with its liquidations) after four
 * (8.0 s). Each contract call now has one deadline in all: 2.0 s each.
 */
const TIMEOUT_MS = 2_000;
const WATCHED = `0x${'2'.repeat(64)}`;
const KIOSK = `0x${'3'.repeat(64)}`;
const UNKNOWN_MANAGER = `0x${'4'.repeat(64)}`;

let hostile: HostileServer;
let m: Monitor;
const dir = tempDir();

beforeAll(async () => {
  hostile = new HostileServer();
  hostile.trickleMs = 100;
  const url = await hostile.listen();
  // First match wins: the margin stream and the pools answer, everything else trickles.
  hostile.modes.set('/manager-updates', 'ok');
  hostile.modes.set('/get_pools', 'ok');
  hostile.modes.set('/', 'trickle');
  m = new Monitor({
    dataDir: dir.dir,
    secrets: new MemorySecretStore('trickle-key'),
    overrides: { network: 'custom', baseUrl: url, streamUrl: url },
    watch: [WATCHED],
    serviceTimeoutMs: TIMEOUT_MS,
  });
  // Kept while the service still answered it: what `pools` falls back on below.
  expect((await m.invoke('pools', {})).source).toBe('network');
  hostile.modes.set('/get_pools', 'trickle');
  m.start();
});

afterAll(async () => {
  await m?.close();
  await hostile?.close();
  dir.remove();
});

/** Requests the service has been sent, the margin stream's aside. */
const restRequests = (): number =>
  [...hostile.requests].filter(([path]) => !path.endsWith('/manager-updates')).reduce((n, [, c]) => n + c, 0);

async function timed<T>(call: () => Promise<T>): Promise<{ value: T | Error; ms: number }> {
  const started = Date.now();
  const value = await call().catch((err: unknown) => err as Error);
  return { value, ms: Date.now() - started };
}

describe('one timeout for a whole contract call', () => {
  it('liquidations, a Kiosk and a manager nothing names give up at one timeout, a kept answer shows', async () => {
    // The watched wallet's first reading holds every request slot with trickling answers.
    const slots = m.effective().concurrency;
    await until(() => restRequests() >= slots + 1, 5_000, 'the first reading to hold every slot');

    const [liquidations, kiosk, manager, pools] = await Promise.all([
      timed(() => m.invoke('liquidations', {})),
      timed(() => m.invoke('kiosk', { kioskId: KIOSK })),
      timed(() => m.invoke('manager', { managerId: UNKNOWN_MANAGER })),
      timed(() => m.invoke('pools', {})),
    ]);
    console.log(
      `one timeout of ${TIMEOUT_MS} ms: liquidations ${liquidations.ms} ms, kiosk ${kiosk.ms} ms, ` +
        `manager ${manager.ms} ms, pools ${pools.ms} ms`,
    );

    for (const { value, ms } of [liquidations, kiosk, manager]) {
      expect(value).toBeInstanceOf(ServiceError);
      const told = (value as ServiceError).toWire();
      expect(told).toEqual({
        kind: 'timeout',
        message: 'The service took longer than 2 s to answer.',
        advice:
          'The service is answering too slowly. An earlier answer is shown where Tidewatch kept one; try again in a minute.',
      });
      // The deadline, not before; and well short of two (4 s), whatever the machine's load.
      expect(ms).toBeGreaterThanOrEqual(TIMEOUT_MS - 20);
      expect(ms).toBeLessThan(TIMEOUT_MS * 1.6);
    }
    // A read that kept an answer shows it at the deadline, saying why it is not fresh.
    expect(pools.value).toMatchObject({
      source: 'cache',
      stale: true,
      error: { kind: 'timeout', message: 'The service took longer than 2 s to answer.' },
    });
    expect(pools.ms).toBeGreaterThanOrEqual(TIMEOUT_MS - 20);
    expect(pools.ms).toBeLessThan(TIMEOUT_MS * 1.6);
  }, 20_000);
});
