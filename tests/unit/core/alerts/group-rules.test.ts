import { afterEach, describe, expect, it } from 'vitest';
import { NO_WORDING } from '../../../../src/main/core/alerts/alert-engine';
import { AlertServices } from '../../../../src/main/core/alerts/alert-services';
import { EventBus, type CoreEvents } from '../../../../src/main/core/events';
import { parseNotifyConfig } from '../../../../src/main/core/notify/config';
import { MemorySecretStore } from '../../../../src/main/core/settings';
import type { IncomingMarginEvent } from '../../../../src/main/core/store/margin-events';
import { Store } from '../../../../src/main/core/store/store';
import { StoreHealth } from '../../../../src/main/core/store/store-health';
import type { AlertRecord, GroupRule, RiskReading, WatchGroup } from '../../../../src/shared/contract';

/**
 * The rule of a watch-list group (docs/alerts.md "Groups"): a watched wallet's threshold crossing,
 * liquidation and interest drift are recorded at level info and go to no channel, not even one
 * that takes info, and never to the desktop; the trader's own are alerted as always.
 */
const MINE = `0x${'a1'.repeat(32)}`;
const THEIRS = `0x${'b2'.repeat(32)}`;
const rules = { warning: 1.275, critical: 1.225, near_pct: 3, liquidation: 1.2 };

let store: Store | undefined;
let alerts: AlertServices | undefined;
afterEach(() => {
  alerts?.close();
  store?.close();
});

function build(
  groupRules: Record<WatchGroup, GroupRule>,
  dustUsd: number | null = null,
  phoneLevel: 'info' | 'warning' = 'info',
): { alerts: AlertServices; store: Store } {
  store = Store.openInMemory();
  store.settings.addWatch(MINE, 'desk', 0);
  store.settings.addWatch(THEIRS, 'whale', 0, 'watched');
  const events = new EventBus<CoreEvents>();
  const s = store;
  const file = {
    path: 'test.json',
    ...parseNotifyConfig(
      JSON.stringify({
        channels: [
          { type: 'ntfy', name: 'phone', url: 'https://ntfy.example/t', minLevel: phoneLevel },
          { type: 'desktop', name: 'desktop', minLevel: phoneLevel },
        ],
      }),
      {},
    ),
  };
  alerts = new AlertServices({
    store: s,
    storeHealth: new StoreHealth(events),
    cooldownMs: 15 * 60_000,
    groupRule: (owner) => groupRules[s.settings.watchGroup(owner) ?? 'mine'],
    dustUsd: () => dustUsd,
    channels: { stored: new MemorySecretStore(), file, privacy: () => false, publicUrl: () => null },
    events,
    // Nothing is sent in this test: the worker is never started, and a send would fail here.
    fetch: () => Promise.reject(new Error('no network in this test')),
    log: () => {},
    redact: (t) => t,
  });
  return { alerts, store: s };
}

const reading = (owner: string, manager: string, risk_ratio: number, ts_ms: number, debt_usd = 1000): RiskReading => ({
  manager_id: manager,
  owner,
  ts_ms,
  risk_ratio,
  debt_usd,
  assets_usd: debt_usd * risk_ratio,
  distance_pct: -2,
});

const liquidation = (manager: string, id: string): IncomingMarginEvent => ({
  id,
  type: 'dex_margin_manager_updates_liquidation',
  timestamp_ms: 6_000,
  checkpoint_id: 1,
  tx_hash: `0x${id}`,
  margin_manager_id: manager,
  data: JSON.stringify({ margin_manager_id: manager, risk_ratio: 1_150_000 }),
  valid: true,
  problem: null,
});

const channelsOf = (s: Store, a: AlertRecord): string[] => s.risk.outbox.rowsOf(a.id).map((r) => r.channel);

describe('the rule of a watch-list group', () => {
  it('records a watched wallet’s crossing, liquidation and interest drift at info, sent nowhere', () => {
    const { alerts, store } = build({ mine: 'alert', watched: 'info' });
    const mm = `0x${'01'.repeat(32)}`;
    const tm = `0x${'02'.repeat(32)}`;
    const fired = alerts.engine.onReadings(
      [reading(MINE, mm, 1.21, 1_000), reading(THEIRS, tm, 1.21, 1_000)],
      () => rules,
      1_000,
    );
    const byOwner = (o: string): AlertRecord => fired.find((a) => a.owner === o)!;
    expect(byOwner(MINE)).toMatchObject({ rule: 'risk-threshold', level: 'critical' });
    expect(byOwner(THEIRS)).toMatchObject({ rule: 'risk-threshold', level: 'info' });
    expect(byOwner(THEIRS).title).toMatch(/^Critical \u2014 /); // the words still say what happened
    expect(channelsOf(store, byOwner(MINE))).toEqual(['phone']);
    expect(channelsOf(store, byOwner(THEIRS))).toEqual([]);
    expect(alerts.notify.desktopCarries(byOwner(MINE))).toBe(true);
    expect(alerts.notify.desktopCarries(byOwner(THEIRS))).toBe(false);

    const owners = new Map([
      [mm, MINE],
      [tm, THEIRS],
    ]);
    const liquidated = alerts.engine.onMarginEvents(
      [liquidation(mm, '6000-0'), liquidation(tm, '6000-1')],
      { ownerOf: (id) => owners.get(id), since: () => 0 },
      NO_WORDING,
      7_000,
    );
    expect(liquidated.map((a) => [a.owner, a.rule, a.level])).toEqual([
      [MINE, 'liquidation', 'critical'],
      [THEIRS, 'liquidation', 'info'],
    ]);
    expect(liquidated.map((a) => channelsOf(store, a))).toEqual([['phone'], []]);

    const drift = alerts.engine.onInterestDrift(
      tm,
      THEIRS,
      {
        position: 'Long 1,000.0000 SUI on SUI_USDC',
        inMs: 5 * 86_400_000,
        inWords: 'in 5 days',
        action: 'Repay 10.00 USDC',
        rate: '39.00\u202F%',
        liquidation: '1.125',
        facts: 'Assets $3,000.00, debt 2,600.00 USDC ($2,600.00): ratio 1.154.',
      },
      8_000,
    )!;
    expect(drift).toMatchObject({ level: 'info' });
    expect(channelsOf(store, drift)).toEqual([]);

    // Never repeated: the escalation repeats critical alerts only, and a watched one is info.
    expect(alerts.notify.escalate(8_000 + 60 * 60_000)).toBe(0);
  });

  it('alerts a watched wallet as the trader’s own when its group’s rule says so, and any alert of no wallet as before', () => {
    const { alerts, store } = build({ mine: 'alert', watched: 'alert' });
    const [a] = alerts.engine.onReadings([reading(THEIRS, `0x${'03'.repeat(32)}`, 1.26, 1_000)], () => rules, 1_000);
    expect(a).toMatchObject({ owner: THEIRS, level: 'critical' }); // within 3 % of its liquidation price
    expect(channelsOf(store, a!)).toEqual(['phone']);
    const gap = alerts.engine.onHistoryGap(0, 1_000, 'Some history could not be replayed.', 2_000)!;
    expect(channelsOf(store, gap)).toEqual(['phone']);
  });

  it('records a dust position’s warnings and repeats at info, and still tells its first critical and liquidation', () => {
    const { alerts, store } = build({ mine: 'alert', watched: 'info' }, 50, 'warning');
    const dust = `0x${'04'.repeat(32)}`;
    const big = `0x${'05'.repeat(32)}`;
    const at = (manager: string, debt: number, ratio: number, distance_pct: number, ts: number): RiskReading => ({
      ...reading(MINE, manager, ratio, ts, debt),
      distance_pct,
    });
    // Below the warning line, far from liquidation: a warning, info for dust ($37), not for $50.
    const warned = alerts.engine.onReadings(
      [at(dust, 37, 1.25, -10, 1_000), at(big, 50, 1.25, -10, 1_000)],
      () => rules,
      1_000,
    );
    const of = (xs: AlertRecord[], m: string): AlertRecord => xs.find((a) => a.manager_id === m)!;
    expect(of(warned, dust)).toMatchObject({ rule: 'risk-threshold', level: 'info' });
    expect(of(warned, big)).toMatchObject({ rule: 'risk-threshold', level: 'warning' });
    expect(channelsOf(store, of(warned, dust))).toEqual([]);
    expect(channelsOf(store, of(warned, big))).toEqual(['phone']);
    expect(alerts.notify.desktopCarries(of(warned, dust))).toBe(false);

    // Within 3 % of liquidation: the first critical reaches the phone, dust or not.
    const [critical] = alerts.engine.onReadings([at(dust, 37, 1.21, -2, 2_000)], () => rules, 2_000);
    expect(critical).toMatchObject({ level: 'critical', title: expect.stringMatching(/^Critical/) });
    expect(channelsOf(store, critical!)).toEqual(['phone']);
    // Its room halved: the repeat ("closer") is info for dust.
    const [closer] = alerts.engine.onReadings([at(dust, 37, 1.205, -0.9, 3_000)], () => rules, 3_000);
    expect(closer).toMatchObject({ level: 'info', title: expect.stringMatching(/^Critical, closer/) });
    expect(channelsOf(store, closer!)).toEqual([]);

    const words = {
      position: 'Long 100.0000 SUI on SUI_USDC',
      inMs: 5 * 86_400_000,
      inWords: 'in 5 days',
      action: 'Repay 1.00 USDC',
      rate: '39.00\u202F%',
      liquidation: '1.125',
      facts: 'Assets $42.00, debt 37.00 USDC ($37.00): ratio 1.135.',
    };
    expect(alerts.engine.onInterestDrift(dust, MINE, words, 2_000, 37)).toMatchObject({ level: 'info' });
    expect(alerts.engine.onInterestDrift(big, MINE, words, 2_000, 500)).toMatchObject({ level: 'warning' });

    const [liquidated] = alerts.engine.onMarginEvents(
      [liquidation(dust, '6000-2')],
      { ownerOf: () => MINE, since: () => 0 },
      NO_WORDING,
      7_000,
    );
    expect(liquidated).toMatchObject({ rule: 'liquidation', level: 'critical' });
    expect(channelsOf(store, liquidated!)).toEqual(['phone']);
  });
});
