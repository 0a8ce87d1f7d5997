// @vitest-environment happy-dom
import { createPinia, setActivePinia } from 'pinia';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { DeliveryEntry } from '../../../../src/shared/contract';
import { deliveryChips, filterAlerts, threadsOf } from '../../../../src/renderer/src/features/alerts/threads';
import { privacy } from '../../../../src/renderer/src/format';
import { T0, MIN, alert, BURST } from '../../support/alerts';

beforeEach(() => setActivePinia(createPinia()));

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  privacy.value = false;
  document.body.innerHTML = '';
});

describe('alert threads', () => {
  it('makes one thread per watched position and one per rule for the rest, the newest thread first', () => {
    const threads = threadsOf(BURST);
    expect(threads.map((t) => [t.key, t.head.id, t.alerts.length])).toEqual([
      ['r:stream-auth', 13, 1],
      ['r:large-liquidation', 12, 2],
      ['r:blind', 10, 4],
      ['m:0xbbb2', 6, 3],
      ['m:0xaaa1', 3, 3],
    ]);
    const a = threads.find((t) => t.key === 'm:0xaaa1')!;
    // Read as one story: the liquidation heads it, the warning and critical before it are superseded.
    expect(a.alerts.map((x) => x.id)).toEqual([3, 2, 1]);
    expect(a.shown.map((x) => x.id)).toEqual([3]);
    expect(a.folded).toBe(2);
    expect([a.managerId, a.owner, a.rule, a.worst]).toEqual(['0xaaa1', '0xo1', null, 'critical']);
    // Repeats of a rule and level fold; the blind alarm and its all-clear both stay.
    const blind = threads.find((t) => t.key === 'r:blind')!;
    expect(blind.shown.map((x) => x.id)).toEqual([10, 9]);
    expect(blind.folded).toBe(2);
    expect(threads.find((t) => t.key === 'r:large-liquidation')!.folded).toBe(1);
    expect(threads.find((t) => t.key === 'r:stream-auth')!.unacknowledged).toEqual([]);
  });

  it("heads a position's thread with where it stands, an interest warning after it shown beneath", () => {
    const list = [
      alert(1, { level: 'warning', title: 'Warning 1.190' }),
      alert(2, { rule: 'interest', level: 'warning', title: 'Interest alone liquidates … in 9 days' }),
      alert(3, { level: 'critical', title: 'Critical 0.4 % from liquidation' }),
      alert(4, { rule: 'interest', level: 'warning', title: 'Interest alone liquidates … in 6 days' }),
    ];
    const [t] = threadsOf(list);
    // The critical crossing heads it (its level colours the thread), the newer interest warning
    // beneath it; the warning and the older interest alert are superseded.
    expect(t!.head.id).toBe(3);
    expect(t!.shown.map((a) => a.id)).toEqual([3, 4]);
    expect(t!.folded).toBe(2);
    // A recovery after both heads alone; a thread with interest alerts only is headed by the newest.
    expect(threadsOf([...list, alert(5, { rule: 'recovered', level: 'info' })])[0]!.shown.map((a) => a.id)).toEqual([
      5,
    ]);
    expect(threadsOf([list[1]!, list[3]!])[0]!.shown.map((a) => a.id)).toEqual([4]);
    // Threads are ordered by their newest alert, the interest warning included.
    const other = alert(3.5, { manager_id: '0xbbb2' });
    expect(threadsOf([...list, other]).map((x) => x.key)).toEqual(['m:0xaaa1', 'm:0xbbb2']);
  });

  it('filters by level, by kind of rule, and to what is still to act on', () => {
    const ids = (f: Parameters<typeof filterAlerts>[1]): number[] =>
      filterAlerts(BURST, f, T0 + 20 * MIN).map((a) => a.id);
    expect(ids({ level: 'critical', rule: null, openOnly: false })).toEqual([2, 3, 7, 9]);
    expect(ids({ level: null, rule: 'liquidation', openOnly: false })).toEqual([3, 11, 12]);
    expect(ids({ level: null, rule: 'other', openOnly: false })).toEqual([13]);
    expect(ids({ level: null, rule: 'other', openOnly: true })).toEqual([]);
    const snoozed = [alert(1, { snoozed_until: T0 + 30 * MIN }), alert(2)];
    expect(filterAlerts(snoozed, { level: null, rule: null, openOnly: true }, T0 + 20 * MIN).map((a) => a.id)).toEqual([
      2,
    ]);
    expect(filterAlerts(snoozed, { level: null, rule: null, openOnly: true }, T0 + 31 * MIN).map((a) => a.id)).toEqual([
      1, 2,
    ]);
  });

  it('sums a delivery log up as one chip per channel with its latest result and the repeats sent', () => {
    const log: DeliveryEntry[] = [
      { channel: 'phone', repeat: 0, at: T0, result: 'failed', detail: 'ntfy (phone) answered 502' },
      { channel: 'mail', repeat: 0, at: T0, result: 'held', detail: 'quiet hours until 07:00' },
      { channel: 'phone', repeat: 0, at: T0 + 1000, result: 'sent', detail: null },
      { channel: 'phone', repeat: 1, at: T0 + 5 * MIN, result: 'sent', detail: null },
      { channel: 'phone', repeat: 2, at: T0 + 10 * MIN, result: 'sent', detail: null },
    ];
    expect(deliveryChips(log)).toEqual([
      {
        channel: 'phone',
        result: 'sent',
        at: T0 + 10 * MIN,
        detail: null,
        repeats: 2,
        rerouted: false,
        fallback: false,
      },
      {
        channel: 'mail',
        result: 'held',
        at: T0,
        detail: 'quiet hours until 07:00',
        repeats: 0,
        rerouted: false,
        fallback: false,
      },
    ]);
    expect(deliveryChips(undefined)).toEqual([]);
  });
});
