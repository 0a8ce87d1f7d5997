import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PortfolioSummary } from '../../../src/shared/contract';
import { CORE_LOCALE, dayText, distanceText } from '../../../src/shared/format';
import { ratioText } from '../../../src/shared/units';
import { positionWords } from '../../../src/main/core/alerts/position-text';
import { parseNotifyConfig } from '../../../src/main/core/notify/config';
import { PORTFOLIO_CACHE_KEY } from '../../../src/main/core/risk/risk-refresh';
import type { MonitorHarness } from '../../support/monitor-harness';
import { monitorOn, tempDir, until } from '../../support/monitor';
import { Receivers } from '../../support/receivers';
import { startTestSim, type TestSim } from '../../support/sim';
import { ManualClock } from '../../support/manual-clock';

/**
 * Issue 41's done-when: the daily digest arrives on a local ntfy server at the chosen time, on a
 * clock the test moves (no sleep waits for 08:00), once: a restart after it went sends none, and
 * the next day's comes the next day.
 */

const DAY = 86_400_000;
let t: TestSim;
let rx: Receivers;
const dir = tempDir();

beforeAll(async () => {
  t = await startTestSim({ historyDays: 0.2 });
  rx = await Receivers.start();
});
afterAll(async () => {
  await rx.close();
  await t.close();
  dir.remove();
});

describe('the daily digest', () => {
  it('arrives on a local ntfy server at the chosen time, once across a restart, and again the next day', async () => {
    const d = t.sim.world.describe();
    const [mine, theirs] = [d.marginOwners[0]!, d.marginOwners[1]!];
    // The next 08:00 of the machine's zone (tests run in UTC); the clock starts a minute before.
    const due = new Date();
    due.setHours(8, 0, 0, 0);
    if (due.getTime() <= Date.now()) due.setDate(due.getDate() + 1);
    const at = due.getTime();
    const clock = new ManualClock(at - 60_000);
    const file = {
      path: 'test.json',
      ...parseNotifyConfig(
        JSON.stringify({ channels: rx.channels().filter((c) => c['type'] === 'ntfy' || c['type'] === 'webhook') }),
        {},
      ),
    };
    const open = (): MonitorHarness =>
      monitorOn(t, dir.dir, { notifyFile: file, notifyClock: clock.now, digestClock: clock, watch: [mine] }).start();
    const digests = (): typeof rx.arrivals => rx.of('ntfy').filter((a) => a.title.startsWith('Tidewatch digest'));

    let m = open();
    await m.invoke('updateWatch', { owner: mine, label: 'desk' });
    await m.invoke('addWatch', { owner: theirs, label: 'whale', group: 'watched' });
    // A channel name that matches none is refused in plain words, naming the channels there are.
    await expect(m.invoke('updateSettings', { digestAt: '08:00', digestChannels: ['ntfy', 'phone'] })).rejects.toThrow(
      /no notification channel is named "phone"\. Pick the digest's channels from: .*ntfy/,
    );
    expect((await m.invoke('settings', {})).digestAt).toBeNull();
    // To the ntfy channel only: the webhook is not named.
    await m.invoke('updateSettings', { digestAt: '08:00', digestChannels: ['ntfy'] });
    await m.refreshRisk();
    // The tray's readings say whether a loan's wallet is alerted: not once its group records at info.
    const alerted = (owner: string) =>
      m
        .latestReadings()
        .readings.filter((r) => r.owner === owner)
        .map((r) => r.alerted);
    expect(alerted(mine).length).toBeGreaterThan(0);
    expect(alerted(mine).every(Boolean)).toBe(true);
    expect(alerted(theirs).some(Boolean)).toBe(false);
    await m.invoke('updateWatch', { owner: mine, group: 'watched' });
    expect(alerted(mine).some(Boolean)).toBe(false);
    await m.invoke('updateWatch', { owner: mine, group: 'mine' });
    const kept = m.store.cache.load<PortfolioSummary>(PORTFOLIO_CACHE_KEY)!.data;
    const own = kept.wallets.find((w) => w.owner === mine)!.positions.filter((p) => p.debts.length > 0);
    expect(own.length).toBeGreaterThan(0);
    // The risk history 24 h before the digest: each own position at 1.500, 20 % from liquidation.
    m.store.risk.addReadings(
      own.map((p) => ({
        manager_id: p.manager_id,
        owner: mine,
        ts_ms: at - DAY - 30 * 60_000,
        risk_ratio: 1.5,
        debt_usd: p.debt_usd,
        assets_usd: p.collateral_usd,
        distance_pct: -20,
      })),
    );
    // Overnight, a watched wallet was liquidated: recorded at info, sent to no channel, told in the digest.
    const whaleManager = `0x${'9e'.repeat(32)}`;
    const info = m.alerts.engine.onLiquidation(
      {
        id: '7000-0',
        type: 'dex_margin_manager_updates_liquidation',
        timestamp_ms: at - 3 * 3_600_000,
        checkpoint_id: 1,
        tx_hash: '0xwhale',
        margin_manager_id: whaleManager,
        data: JSON.stringify({ risk_ratio: 1_100_000 }),
        valid: true,
        problem: null,
      },
      theirs,
      0,
      undefined,
      { amounts: () => undefined, pool: () => 'SUI_USDC' },
      at - 3 * 3_600_000,
    )!;
    expect(info).toMatchObject({ level: 'info', title: 'Liquidated: SUI_USDC' });
    expect(m.store.risk.outbox.rowsOf(info.id)).toEqual([]);

    // A second before the time: nothing. At the time: the digest is stored and sent.
    clock.advanceTo(at - 1_000);
    expect(m.store.risk.alerts().filter((a) => a.rule === 'digest')).toEqual([]);
    clock.advanceTo(at);
    const [stored] = m.store.risk.alerts().filter((a) => a.rule === 'digest');
    expect(stored).toMatchObject({
      level: 'info',
      created_at: at,
      title: `Tidewatch digest, ${dayText(at, CORE_LOCALE)}`,
    });
    expect(m.store.risk.outbox.rowsOf(stored!.id).map((r) => r.channel)).toEqual(['ntfy']);
    await until(() => digests().length === 1, 20_000, 'the digest on ntfy');

    const got = digests()[0]!;
    expect(got.title).toBe(stored!.title);
    expect(got.alerts).toEqual([stored!.id]);
    const lines = got.text.split('\n');
    expect(lines[0]).toMatch(/^Assets \$[\d,.]+, debt \$[\d,.]+, equity \$[\d,.]+ \(\$[\d,.]+ 24 h before\)/);
    expect(lines[1]).toMatch(
      new RegExp(
        `^(Your ${own.length} positions?|To look at, of your ${own.length} positions), valued (?:[A-Z][a-z]{2} \\d{1,2}, )?\\d{1,2}:\\d{2}:\\d{2} [AP]M UTC \\(24 h before in brackets\\):$`,
      ),
    );
    // Each position to look at by its own words (side, size, pool), as every alert names it: a
    // wallet may hold two positions on one pool (the Demo wallet has two SUI_USDC longs), so the
    // pool alone is not it. One OK and farther from liquidation than 24 h before is summed up.
    const rest = lines.find((l) => /^\d+ more: all OK, none nearer its liquidation than 24 h before/.test(l));
    for (const p of own) {
      const its = lines.filter((l) => l.startsWith(`• desk: ${positionWords(p)}: `));
      if (its.length === 0 && p.level === 'ok' && Math.abs(p.distance_pct!) >= 20) {
        expect(rest, positionWords(p)).toBeDefined();
        continue;
      }
      expect(its, positionWords(p)).toHaveLength(1);
      const line = its[0]!;
      expect(line).toContain(`ratio ${ratioText(p.risk_ratio!)} (1.500)`);
      expect(line).toContain(`distance ${distanceText(p.distance_pct!, CORE_LOCALE)} (\u221220.0\u202F%)`);
      // A stablecoin's interest is its money: written once ("5.16 USDC"), another asset's with its money.
      expect(line).toMatch(/interest ([\d,.]+ USDC|[\d,.]+ [A-Z]+ \(\$[\d,.]+\)) in 24 h at \d+\.\d{2}\u202F%/);
    }
    // The watched wallet's positions are not listed; its liquidation is, by its label.
    expect(lines.some((l) => l.startsWith('• whale: Long') || l.startsWith('• whale: Short'))).toBe(false);
    expect(lines).toContain('Liquidations of your positions in 24 h: none.');
    expect(lines).toContain('Watched wallets:');
    expect(lines).toContain(`• whale: Liquidated: SUI_USDC at 5:00 AM UTC`);
    expect(lines.find((l) => l.startsWith('Alerts in 24 h: '))).toMatch(/; 1 on watched wallets; /);
    expect(lines.at(-2)).toBe('Credits: none counted (the Demo network is free).');
    expect(rx.of('webhook').filter((a) => a.alerts.includes(stored!.id))).toEqual([]);

    // A restart five minutes later: that day's digest went, so none goes again.
    await m.close();
    clock.advanceTo(at + 5 * 60_000);
    m = open();
    expect(m.store.risk.alerts().filter((a) => a.rule === 'digest')).toHaveLength(1);
    // The next day at the same time: the next day's digest.
    clock.advanceTo(at + DAY - 1_000);
    expect(m.store.risk.alerts().filter((a) => a.rule === 'digest')).toHaveLength(1);
    clock.advanceTo(at + DAY);
    await until(() => digests().length === 2, 20_000, "the next day's digest");
    expect(digests()[1]!.title).toBe(`Tidewatch digest, ${dayText(at + DAY, CORE_LOCALE)}`);
    // The alert liquidated 27 h before is no longer of the day.
    expect(digests()[1]!.text).not.toContain('whale');
    expect(digests()).toHaveLength(2);
    await m.close();
  }, 60_000);
});
