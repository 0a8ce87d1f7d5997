import { describe, expect, it } from 'vitest';
import { DigestSchedule } from '../../../../src/main/core/digest/digest-schedule';
import type { DigestFacts } from '../../../../src/main/core/digest/digest-facts';
import { digestText } from '../../../../src/main/core/digest/digest-text';
import { ManualClock } from '../../../support/manual-clock';

const HOUR = 3_600_000;

/** A schedule at `at` on `zone`'s clock (none: the machine's), and the days and moments it sent. */
function schedule(clock: ManualClock, at: string, zone: string | null) {
  const sent: Array<{ day: string; at: number; title: string }> = [];
  const s = new DigestSchedule({
    at: () => at,
    zone: () => zone,
    build: (now, z) => ({ title: `digest on ${z} at ${now}`, message: '' }),
    engine: {
      hasDigest: (day: string) => sent.some((x) => x.day === day),
      onDigest: (day: string, title: string) => {
        sent.push({ day, at: clock.now(), title });
        return { id: sent.length } as never;
      },
    },
    clock,
    log: () => {},
  });
  return { s, sent };
}

describe("the daily digest's time, on the clock of its zone", () => {
  // The tests' machine is in UTC (vitest.config.ts): the monitor's zone, not the trader's.
  it("sends New York's 08:00 at 13:00 UTC (EST) on a UTC machine, not at 08:00 UTC", () => {
    // 2026-11-23 07:59 UTC: 2:59 AM in New York.
    const clock = new ManualClock(Date.UTC(2026, 10, 23, 7, 59));
    const { s, sent } = schedule(clock, '08:00', 'America/New_York');
    s.start();
    clock.advanceTo(Date.UTC(2026, 10, 23, 8, 30));
    expect(sent).toEqual([]);
    clock.advanceTo(Date.UTC(2026, 10, 23, 12, 59));
    expect(sent).toEqual([]);
    clock.advanceTo(Date.UTC(2026, 10, 23, 13, 0));
    expect(sent.map((x) => [x.day, new Date(x.at).toISOString()])).toEqual([
      ['2026-11-23', '2026-11-23T13:00:00.000Z'],
    ]);
    expect(sent[0]!.title).toContain('America/New_York');
    // The next day's, once, at the same hour there.
    clock.advanceTo(Date.UTC(2026, 10, 24, 13, 0) + HOUR);
    expect(sent.map((x) => x.day)).toEqual(['2026-11-23', '2026-11-24']);
    s.close();
  });

  it("follows its zone's summer time: 08:00 in New York is 12:00 UTC in July", () => {
    const clock = new ManualClock(Date.UTC(2026, 6, 14, 11, 0));
    const { s, sent } = schedule(clock, '08:00', 'America/New_York');
    s.start();
    clock.advanceTo(Date.UTC(2026, 6, 14, 11, 59));
    expect(sent).toEqual([]);
    clock.advanceTo(Date.UTC(2026, 6, 14, 12, 0));
    expect(sent.map((x) => new Date(x.at).toISOString())).toEqual(['2026-07-14T12:00:00.000Z']);
    s.close();
  });

  it("keeps a digest set before zones were kept on the machine's clock", () => {
    const clock = new ManualClock(Date.UTC(2026, 10, 23, 7, 59));
    const { s, sent } = schedule(clock, '08:00', null);
    s.start();
    clock.advanceTo(Date.UTC(2026, 10, 23, 8, 0));
    expect(sent.map((x) => new Date(x.at).toISOString())).toEqual(['2026-11-23T08:00:00.000Z']);
    s.close();
  });

  it("writes the digest's day and times on its zone's clock", () => {
    // 03:30 UTC on Nov 24 is still Nov 23, 10:30 PM in New York.
    const at = Date.UTC(2026, 10, 24, 3, 30);
    const f: DigestFacts = {
      at,
      since: at - 24 * HOUR,
      valuedAt: at - 60_000,
      positions: [],
      liquidations: [],
      own: [],
      watched: [],
      other: [],
      labels: new Map(),
      credits: null,
    };
    const words = digestText(f, 'America/New_York');
    expect(words.title).toBe('Tidewatch digest, Nov 23');
    expect(words.message).toContain('valued 10:29:00 PM EST');
  });
});
