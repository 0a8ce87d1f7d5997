import { afterEach, describe, expect, it } from 'vitest';
import type { MonitorHarness } from '../../../support/monitor-harness';
import type { MarginEventRow, StoredMarginEvent } from '../../../../src/shared/contract';
import { monitorOn, tempDir, until } from '../../../support/monitor';
import { startTestSim, type TestSim } from '../../../support/sim';

/**
 * On a first start Live events is often opened before the pool list is read: its rows' amounts
 * cannot be put in units yet. The call waits for the list a little; rows it answers without units
 * are pushed again with them once it is read, and so are events pushed live meanwhile.
 */
describe('Live events answered before the pool list is read', () => {
  let t: TestSim | undefined;
  let m: MonitorHarness | undefined;
  let dir: ReturnType<typeof tempDir> | undefined;

  afterEach(async () => {
    await m?.close();
    await t?.close();
    dir?.remove();
  });

  /** A monitor on a fresh store whose pool list answers only once `open()` is called, and what it pushes. */
  async function start(): Promise<{ open: () => void; pushes: StoredMarginEvent[][] }> {
    t = await startTestSim({ speed: 600 });
    dir = tempDir();
    let open!: () => void;
    const gate = new Promise<void>((r) => (open = r));
    const gated: typeof fetch = async (input, init) => {
      const url = String(input instanceof Request ? input.url : input);
      if (url.includes('/dex/get_pools')) await gate;
      return fetch(input, init);
    };
    m = monitorOn(t, dir.dir, { fetch: gated }).start();
    const pushes: StoredMarginEvent[][] = [];
    m.subscribe('margin', (events) => pushes.push(events));
    await until(() => flows(m!.store.margin.list({ limit: 500 })).length >= 10, 60_000, 'deposits and withdrawals');
    return { open, pushes };
  }

  const flows = <E extends MarginEventRow>(rows: readonly E[]): E[] =>
    rows.filter((e) => e.valid && (e.type.endsWith('_deposit') || e.type.endsWith('_withdraw')));

  it('answers within its wait, then pushes the rows again with their units once the pools are read', async () => {
    const { open, pushes } = await start();
    const t0 = Date.now();
    const { data } = await m!.invoke('marginEvents', { limit: 200 });
    expect(Date.now() - t0).toBeLessThan(10_000); // waits ~2 s, not for the pool list
    const bare = flows(data).filter((e) => e.amounts === undefined);
    expect(bare.length).toBe(flows(data).length);
    expect(bare.length).toBeGreaterThan(0);
    const livePushedBare = pushes.flat().filter((e) => flows([e]).length > 0 && e.amounts === undefined);
    expect(livePushedBare.length).toBeGreaterThan(0);

    open();
    const again = (): Map<string, StoredMarginEvent> =>
      new Map(
        pushes
          .flat()
          .filter((e) => e.replaces)
          .map((e) => [e.id, e]),
      );
    await until(() => bare.every((e) => again().has(e.id)), 30_000, 'every row pushed again');
    for (const e of bare) {
      const late = again().get(e.id)!;
      expect(late.amounts?.length).toBeGreaterThan(0);
      for (const a of late.amounts!) expect(a.symbol).toMatch(/^[A-Z]+$/);
    }
    // What was pushed live without units meanwhile is pushed again too.
    await until(() => livePushedBare.every((e) => again().has(e.id)), 30_000, 'live events pushed again');
    // A new call answers them with their units at once.
    const now = await m!.invoke('marginEvents', { limit: 200 });
    expect(flows(now.data).filter((e) => e.amounts === undefined)).toEqual([]);
  }, 150_000);

  it('answers with the units when the pools are read within its wait, and pushes nothing again', async () => {
    const { open, pushes } = await start();
    const before = pushes.length;
    const opening = setTimeout(open, 300);
    const { data } = await m!.invoke('marginEvents', { limit: 200 });
    clearTimeout(opening);
    expect(flows(data).length).toBeGreaterThan(0);
    expect(flows(data).filter((e) => e.amounts === undefined)).toEqual([]);
    await new Promise((r) => setTimeout(r, 500));
    const answered = new Set(data.map((e) => e.id));
    const repushed = pushes
      .slice(before)
      .flat()
      .filter((e) => e.replaces && answered.has(e.id));
    // A row the answer had units for comes again only if it was also pushed live before the pools were read.
    const pushedLive = new Set(
      pushes
        .flat()
        .filter((e) => !e.replaces)
        .map((e) => e.id),
    );
    expect(repushed.filter((e) => !pushedLive.has(e.id))).toEqual([]);
  }, 120_000);
});
