import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { EVENT_TYPES } from '../../../src/shared/api';
import type { AlertRecord } from '../../../src/shared/contract';
import { MonitorHarness } from '../../support/monitor-harness';
import { MemorySecretStore } from '../../../src/main/core/settings';
import { tempDir, until } from '../../support/monitor';

const OWNER = `0x${'ab'.repeat(32)}`;
const MANAGER = `0x${'cd'.repeat(32)}`;
const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** A margin stream that sends what the test gives it; every REST path answers 503 (the service's REST is down). */
async function streamOnly() {
  const open = new Set<ServerResponse>();
  let n = 0;
  const server = createServer((req, res) => {
    if (!req.url?.startsWith('/dex-margin/manager-updates')) {
      res
        .writeHead(503, { 'content-type': 'application/json', 'retry-after': '30' })
        .end('{"error":{"code":"unavailable","message":"down for maintenance"}}');
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    res.write(': hello\n\n');
    open.add(res);
    res.on('close', () => open.delete(res));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  cleanups.push(() => {
    server.closeAllConnections();
    return new Promise((r) => server.close(r));
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    connected: () => open.size > 0,
    send(type: string, data: Record<string, unknown>): string {
      const ms = Date.now();
      const id = `${ms}-${n++}`;
      const text = JSON.stringify({
        type,
        timestamp_ms: ms,
        checkpoint_id: 300_000_000 + n,
        tx_hash: `tx${id}`,
        data: { ...data, timestamp: ms },
      });
      for (const res of open) res.write(`id: ${id}\ndata: ${text}\n\n`);
      return id;
    },
  };
}

function monitor(url: string, dataDir: string, watch: string[]): { m: MonitorHarness; alerts: AlertRecord[] } {
  const m = new MonitorHarness({
    dataDir,
    secrets: new MemorySecretStore('key'),
    overrides: { network: 'custom', baseUrl: url, streamUrl: url, naming: 'spec' },
    watch,
    marginFirstStart: '$',
    log: () => {},
  }).start();
  cleanups.push(() => m.close());
  const alerts: AlertRecord[] = [];
  m.subscribe('alerts', (a) => alerts.push(...a));
  return { m, alerts };
}

const liquidation = {
  margin_manager_id: MANAGER,
  margin_pool_id: '0x2',
  liquidation_amount: 1_000_000,
  pool_reward: 40_000,
  pool_default: 0,
  risk_ratio: 1_100_000,
  remaining_base_asset: 10,
  remaining_quote_asset: 10,
};
const created = { margin_manager_id: MANAGER, balance_manager_id: MANAGER, dex_pool_id: '0x1', owner: OWNER };

/**
 * A watched manager is known from the store, not only from the REST margin managers: after a
 * restart (or when an owner is added) while the service's REST answers 503, a liquidation read
 * on the stream is alerted. Before, the app learnt a watched manager only from the manager_created
 * event it committed in this run or from REST, and such a liquidation was never alerted.
 */
describe('watched managers known from the store', () => {
  it('a restarted app alerts a watched liquidation while the REST API is down', async () => {
    const s = await streamOnly();
    const dir = tempDir();
    cleanups.push(() => dir.remove());
    const first = monitor(s.url, dir.dir, [OWNER]);
    await until(s.connected, 10_000, 'first stream connection');
    const createdId = s.send(EVENT_TYPES.managerCreated, created);
    await until(() => first.m.store.margin.cursor() === createdId, 10_000, 'manager_created stored');
    await first.m.close();
    await until(() => !s.connected(), 10_000, 'first connection closed');

    const again = monitor(s.url, dir.dir, [OWNER]);
    await until(s.connected, 10_000, 'stream reconnected after the restart');
    const id = s.send(EVENT_TYPES.liquidation, liquidation);
    await until(() => again.alerts.some((a) => a.event_id === id), 10_000, 'the liquidation alerted');
    const a = again.alerts.find((x) => x.event_id === id)!;
    expect([a.rule, a.level, a.manager_id, a.owner]).toEqual(['liquidation', 'critical', MANAGER, OWNER]);
    expect(a.id).toBeGreaterThan(0);
  }, 60_000);

  it('an owner added to the watch list is alerted for a manager the protocol-wide stream stored earlier', async () => {
    const s = await streamOnly();
    const dir = tempDir();
    cleanups.push(() => dir.remove());
    const { m, alerts } = monitor(s.url, dir.dir, []);
    await until(s.connected, 10_000, 'stream connection');
    const createdId = s.send(EVENT_TYPES.managerCreated, created);
    await until(() => m.store.margin.cursor() === createdId, 10_000, 'manager_created stored');
    await m.invoke('addWatch', { owner: OWNER });
    const id = s.send(EVENT_TYPES.liquidation, liquidation);
    await until(() => alerts.some((a) => a.event_id === id), 10_000, 'the liquidation alerted');
    expect(alerts.filter((a) => a.event_id === id)).toHaveLength(1);
  }, 40_000);
});
