import { afterEach, describe, expect, it } from 'vitest';
import type { AlertRecord } from '../../../../src/shared/contract';
import { parseNotifyConfig } from '../../../../src/main/core/notify/config';
import { AlertRouter } from '../../../../src/main/core/notify/router';
import { Store } from '../../../../src/main/core/store/store';

/** Noon on a day in the machine's local time (quiet hours are local). */
const NOON = new Date(2026, 10, 25, 12, 0).getTime();

const { config } = parseNotifyConfig(
  JSON.stringify({
    channels: [
      { type: 'ntfy', name: 'phone', url: 'https://ntfy.example/a', minLevel: 'critical' },
      { type: 'webhook', name: 'hook', url: 'https://hook.example/a', quietHours: { from: '11:00', to: '13:30' } },
      { type: 'desktop', name: 'desktop' },
    ],
  }),
  {},
);

function alert(fields: Partial<AlertRecord>): AlertRecord {
  return {
    id: 1,
    rule: 'risk-threshold',
    level: 'warning',
    manager_id: '0xm',
    owner: '0xo',
    event_id: null,
    title: 't',
    message: 'm',
    created_at: NOON,
    acknowledged_at: null,
    snoozed_until: null,
    ...fields,
  };
}

describe('the alert router (notify/router.ts)', () => {
  let kicks = 0;
  const router = new AlertRouter(() => config.channels, { kick: () => kicks++ });

  it('routes by level and rule, holds a warning in quiet hours, never the desktop', () => {
    expect(router.route(alert({ level: 'critical', rule: 'liquidation' }))).toEqual([
      { channel: 'phone', dueAt: NOON },
      { channel: 'hook', dueAt: NOON },
    ]);
    const held = router.route(alert({ level: 'warning' }));
    expect(held).toEqual([
      { channel: 'hook', dueAt: new Date(2026, 10, 25, 13, 30).getTime(), held: 'quiet hours until 1:30 PM UTC' },
    ]);
    // Delivery itself (blind, a channel not reached) goes to every channel, at once.
    expect(router.route(alert({ level: 'info', rule: 'blind' })).map((e) => [e.channel, e.dueAt])).toEqual([
      ['phone', NOON],
      ['hook', NOON],
    ]);
  });

  it('sends a position out of danger (info) wherever its critical alert went, held in quiet hours', () => {
    const out = alert({ level: 'info', rule: 'recovered' });
    expect(router.route(alert({ level: 'critical' })).map((e) => e.channel)).toEqual(['phone', 'hook']);
    expect(router.route(out)).toEqual([
      { channel: 'phone', dueAt: NOON },
      { channel: 'hook', dueAt: new Date(2026, 10, 25, 13, 30).getTime(), held: 'quiet hours until 1:30 PM UTC' },
    ]);
    // A channel limited to liquidations never had the critical crossing: nor its recovery.
    const only = parseNotifyConfig(
      JSON.stringify({
        channels: [{ type: 'ntfy', name: 'liq', url: 'https://ntfy.example/l', rules: ['liquidation'] }],
      }),
      {},
    ).config.channels;
    expect(new AlertRouter(() => only, { kick: () => {} }).route(out)).toEqual([]);
  });

  it("holds a warning on the clock of the quiet hours' zone, not the machine's, and says so on that clock", () => {
    // Noon UTC on the machine is 7:00 AM in New York, inside 6:00-8:00 there (and outside it in UTC).
    const { config: ny } = parseNotifyConfig(
      JSON.stringify({
        channels: [
          {
            type: 'webhook',
            name: 'hook',
            url: 'https://hook.example/a',
            quietHours: { from: '06:00', to: '08:00', zone: 'America/New_York' },
          },
        ],
      }),
      {},
    );
    const nyRouter = new AlertRouter(() => ny.channels, { kick: () => {} });
    expect(nyRouter.route(alert({ level: 'warning' }))).toEqual([
      { channel: 'hook', dueAt: Date.UTC(2026, 10, 25, 13, 0), held: 'quiet hours until 8:00 AM EST' },
    ]);
    expect(nyRouter.route(alert({ level: 'warning', created_at: Date.UTC(2026, 10, 25, 13, 0) }))).toEqual([
      { channel: 'hook', dueAt: Date.UTC(2026, 10, 25, 13, 0) },
    ]);
  });

  it('leaves out the channel an alert is about while it is routed around', () => {
    const about = alert({ level: 'warning', rule: 'channel' });
    expect(router.routingAround('phone', () => router.route(about)).map((e) => e.channel)).toEqual(['hook']);
    expect(router.route(about).map((e) => e.channel)).toEqual(['phone', 'hook']);
  });

  describe('as the alert repository routes with it', () => {
    let store: Store | undefined;
    afterEach(() => store?.close());

    it('queues the rows it names in the transaction that stores the alert, then wakes the worker once', () => {
      store = Store.openInMemory();
      store.risk.routeWith(router);
      kicks = 0;
      const stored = store.risk.addAlert({
        dedupe_key: 'liquidation:0xm:critical:1-0',
        rule: 'liquidation',
        level: 'critical',
        manager_id: '0xm',
        owner: '0xo',
        event_id: '1-0',
        title: 'Liquidated',
        message: 'm',
        created_at: NOON,
      });
      expect(stored).toBeDefined();
      expect(
        store.risk.outbox
          .rowsOf(stored!.id)
          .map((r) => r.channel)
          .sort(),
      ).toEqual(['hook', 'phone']);
      expect(kicks).toBe(1);
      // One no channel carries (info) is stored and wakes nothing.
      const quiet = store.risk.addAlert({
        dedupe_key: 'history-gap:-:info:1-2',
        rule: 'history-gap',
        level: 'info',
        manager_id: null,
        owner: null,
        event_id: null,
        title: 'gap',
        message: 'm',
        created_at: NOON,
      });
      expect(store.risk.outbox.rowsOf(quiet!.id)).toEqual([]);
      expect(kicks).toBe(1);
    });
  });
});

describe('the alert router: the daily digest', () => {
  it('sends it to the channels named, else to every channel, whatever their level, rules and quiet hours', () => {
    const digest = alert({ rule: 'digest', level: 'info', owner: null, manager_id: null });
    let named: string[] = [];
    const router = new AlertRouter(
      () => config.channels,
      { kick: () => {} },
      () => false,
      () => named,
    );
    // The phone takes critical alerts only and the hook is in quiet hours: the digest goes to both, at once.
    expect(router.route(digest)).toEqual([
      { channel: 'phone', dueAt: NOON },
      { channel: 'hook', dueAt: NOON },
    ]);
    named = ['hook', 'gone'];
    expect(router.route(digest)).toEqual([{ channel: 'hook', dueAt: NOON }]);
  });
});
