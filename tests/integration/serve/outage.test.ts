import { afterAll, describe, expect, it } from 'vitest';
import { tempDir, until } from '../../support/monitor';
import { Processes, watchingServe } from '../../support/processes';

const KEY = 'outage-key';
const SEED = 7;
const processes = new Processes();
const dir = tempDir();
afterAll(() => {
  processes.killAll();
  dir.remove();
});

/**
 * The service goes away for two minutes under a watching `serve`, at production defaults
 * (backoff 1-30 s, 45 s watchdog, 10 s / 30 s request timeouts, 30 s risk refresh): the Demo
 * network runs as its own process and is SIGKILLed, then started again on the same port with the
 * same chain. `serve` must stay up, answer every query from its cache marked stale, say since
 * when it is offline, and come back by itself: streams reconnect and risk refresh resumes.
 */
describe('an outage of the service under a watching serve', () => {
  it('rides out 2 minutes without the service and recovers by itself', async () => {
    const {
      demo,
      sim,
      serve,
      api,
      owners,
      marginState: margin,
    } = await watchingServe(processes, {
      key: KEY,
      seed: SEED,
      speed: 60,
      dataDir: dir.dir,
    });
    // What the views ask for, cached while the service is there.
    const queries: Array<[string, unknown]> = [
      ['pools', {}],
      ...owners.flatMap((owner): Array<[string, unknown]> => [
        ['activeLoans', { owner, perPage: 50 }],
        ['marginManagers', { owner, perPage: 10 }],
        ['liquidations', { owner, perPage: 10 }],
      ]),
    ];
    for (const [method, args] of queries) expect((await api.invoke(method, args)).body.result.stale).toBe(false);
    const managers = (await api.invoke('activeLoans', { owner: owners[0], perPage: 50 })).body.result.data.items.map(
      (l: { margin_manager_id: string }) => l.margin_manager_id,
    );
    const readings = async (after: number) => {
      let n = 0;
      for (const managerId of managers)
        n += (await api.invoke('riskHistory', { managerId, fromMs: after })).body.result.data.length;
      return n;
    };
    await until(async () => (await readings(0)) > 0, 60_000, 'first risk readings');

    // The service dies.
    sim.child.kill('SIGKILL');
    const killedAt = Date.now();
    let slowest = 0;
    let offlineSeenAt = 0;
    while (Date.now() - killedAt < 120_000) {
      for (const [method, args] of queries) {
        const r = await api.invoke(method, args);
        expect(r.status, `${method} during the outage`).toBe(200);
        expect(r.body.result).toMatchObject({ stale: true, source: 'cache' });
        expect(r.body.result.error.message).not.toMatch(/api-key|GET \//);
        slowest = Math.max(slowest, r.ms);
      }
      const status = (await api.invoke('streamStatus')).body.result;
      if (!status.online && offlineSeenAt === 0) {
        offlineSeenAt = Date.now();
        expect(status.offlineSince).toBeGreaterThanOrEqual(killedAt - 1000);
      }
      expect(serve.exited()).toBe(false);
      await new Promise((r) => setTimeout(r, 10_000));
    }
    expect(offlineSeenAt).toBeGreaterThan(0);
    expect(await margin()).not.toBe('open');

    // The service is back, same port, same chain.
    await demo.start();
    const backAt = Date.now();
    await until(async () => (await margin()) === 'open', 45_000, 'margin stream reopened');
    const streamBackMs = Date.now() - backAt;
    await until(async () => (await api.invoke('pools')).body.result.stale === false, 15_000, 'fresh answers');
    await until(async () => (await readings(backAt)) > 0, 60_000, 'risk refresh resumed');
    const riskBackMs = Date.now() - backAt;
    const status = (await api.invoke('streamStatus')).body.result;
    expect(status.online).toBe(true);
    expect(serve.exited()).toBe(false);
    expect(serve.err()).not.toMatch(/unhandled|uncaught/i);
    console.log(
      `outage 120 s: slowest cached answer ${slowest} ms; offline shown ${offlineSeenAt - killedAt} ms after the kill; ` +
        `after restart: margin stream open in ${streamBackMs} ms, a new risk reading in ${riskBackMs} ms`,
    );
  }, 330_000);
});
