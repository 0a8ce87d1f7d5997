import { afterAll, describe, expect, it } from 'vitest';
import { MonitorHarness } from '../../../support/monitor-harness';
import { CADENCE_RULES } from '../../../../src/main/core/risk/cadence';
import { MemorySecretStore } from '../../../../src/main/core/settings';
import { tempDir, until } from '../../../support/monitor';
import { startTestSim, TEST_KEY } from '../../../support/sim';

const cleanups: Array<() => Promise<void> | void> = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

/**
 * The tray monitor's reads (docs/credits.md), against the sim as a metered service: what it asks,
 * per asset and per owner, and which streams it opens when nothing is on screen.
 */
describe('the guard reads where the risk is', () => {
  it('a tray watching a wallet: the margin stream only, one last-trade read per asset, records once; a pool page streams only while shown', async () => {
    const t = await startTestSim({ historyDays: 0.2 });
    const dir = tempDir();
    const owners = (t.sim.world.owners() as Array<{ owner: string; loans: number }>)
      .filter((o) => o.loans > 0)
      .sort((a, b) => b.loans - a.loans);
    const owner = owners[0]!.owner;
    const other = owners[1]!.owner;
    const asked: string[] = [];
    const counting: typeof fetch = async (input, init) => {
      const url = new URL(String(input instanceof Request ? input.url : input));
      const res = await fetch(input, init);
      if (res.ok && !(res.headers.get('content-type') ?? '').includes('event-stream'))
        asked.push(`${url.pathname}${url.searchParams.get('limit') ? `?limit=${url.searchParams.get('limit')}` : ''}`);
      return res;
    };
    const m = new MonitorHarness({
      dataDir: dir.dir,
      secrets: new MemorySecretStore(TEST_KEY),
      overrides: { network: 'custom', baseUrl: t.sim.url, streamUrl: t.sim.url, plan: 'builder', streamBudget: 3 },
      watch: [owner, other],
      fetch: counting,
    }).start();
    cleanups.push(
      () => dir.remove(),
      () => t.close(),
      () => m.close(),
    );
    await until(() => (m.status().reads?.prices.length ?? 0) > 0, 20_000, 'the read plan');
    await until(
      () => m.streams.supervisor.statuses().some((s) => s.id === 'margin' && s.state === 'open'),
      10_000,
      'margin open',
    );
    // Nothing streams for the tray: the margin stream alone.
    expect(m.streams.supervisor.statuses().map((s) => s.id)).toEqual(['margin']);
    // Prices: each asset once, from its last trade; never the book, never per position or pool.
    const trades = asked.filter((p) => /^\/dex\/[^/]+\/trades\?limit=1$/.test(p));
    expect(new Set(trades).size).toBe(trades.length);
    expect(asked.filter((p) => p.endsWith('/order-book-depth'))).toEqual([]);
    const plan = m.status().reads!;
    expect(plan.prices.length).toBe(trades.length);
    for (const p of plan.prices) {
      expect(p.everyMs).toBeGreaterThanOrEqual(CADENCE_RULES.guard.minMs);
      expect(p.everyMs).toBeLessThanOrEqual(CADENCE_RULES.guard.maxMs);
      expect(p.why).toMatch(/liquidation|threshold/);
    }
    // The owner's records: one read of each list at start, no page asked ahead.
    expect(asked.filter((p) => p === `/dex-margin/margin-managers/${owner}`)).toHaveLength(1);
    expect(asked.filter((p) => p === `/dex-margin/margin-managers/${other}`)).toHaveLength(1);
    expect(plan.recordsEveryMs).toBe(3 * 3_600_000);
    // The forecast counts what is scheduled: prices at 20 credits a read.
    const f = await m.invoke('creditForecast', {});
    const priceLines = f.lines.filter((l) => / price$/.test(l.what));
    expect(priceLines).toHaveLength(plan.prices.length);
    for (const l of priceLines) {
      const read = plan.prices.find((p) => `${p.symbol} price` === l.what)!;
      expect(l.perDay).toBe(Math.round((86_400_000 / read.everyMs!) * 20));
    }

    // An event of one owner's manager: that owner's records are read again, not the other's; its
    // assets' prices only where the schedule has them due (each was read at start, every 45 s at
    // the most), so an event spends a records read, not a price read per asset besides.
    const positionsBefore = (await m.invoke('portfolio', {})).data.wallets.map((w) => [w.owner, w.positions.length]);
    asked.length = 0;
    const at = Date.now();
    const due = m.status().reads!.prices.filter((p) => p.readAt !== null && p.readAt + p.everyMs! <= at + 2_000);
    m.risk.refresh.refreshSoon(new Set([owner]));
    await until(() => asked.some((p) => p === `/dex-margin/margin-managers/${owner}`), 10_000, "the owner's records");
    await new Promise((r) => setTimeout(r, 500));
    expect(asked.filter((p) => p.includes(other))).toEqual([]);
    expect(asked.filter((p) => p.endsWith('trades?limit=1')).length).toBeLessThanOrEqual(due.length);
    expect((await m.invoke('portfolio', {})).data.wallets.map((w) => [w.owner, w.positions.length])).toEqual(
      positionsBefore,
    );

    // A pool page: its stream opens while shown (the plan allows one more), and closes when left.
    const off = m.subscribe('pool:SUI_USDC', () => {});
    await until(
      () => m.streams.supervisor.statuses().some((s) => s.id === 'pool:SUI_USDC' && s.state === 'open'),
      10_000,
      'pool open',
    );
    expect((await m.invoke('creditForecast', {})).poolStreams.map((p) => p.pool)).toEqual(['SUI_USDC']);
    off();
    await until(() => !m.streams.supervisor.statuses().some((s) => s.id === 'pool:SUI_USDC'), 10_000, 'pool closed');
    expect((await m.invoke('creditForecast', {})).poolStreams).toEqual([]);
  }, 70_000);

  it('on the Free plan a pool page waits: the one stream is the margin stream', async () => {
    const t = await startTestSim({ historyDays: 0.2, plan: 'free' });
    const dir = tempDir();
    const m = new MonitorHarness({
      dataDir: dir.dir,
      secrets: new MemorySecretStore(TEST_KEY),
      overrides: { network: 'custom', baseUrl: t.sim.url, streamUrl: t.sim.url },
    }).start();
    cleanups.push(
      () => dir.remove(),
      () => t.close(),
      () => m.close(),
    );
    await until(
      () => m.streams.supervisor.statuses().some((s) => s.id === 'margin' && s.state === 'open'),
      10_000,
      'margin open',
    );
    const off = m.subscribe('pool:SUI_USDC', () => {});
    cleanups.push(off);
    await until(
      () => m.streams.supervisor.statuses().find((s) => s.id === 'pool:SUI_USDC')?.state === 'waiting-budget',
      10_000,
      'pool waiting',
    );
    expect(m.streams.supervisor.statuses().find((s) => s.id === 'margin')?.state).toBe('open');
  }, 40_000);
});
