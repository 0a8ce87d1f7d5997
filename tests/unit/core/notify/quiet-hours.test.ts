import { describe, expect, it } from 'vitest';
import { testChannels } from '../../../../src/main/core/notify/channel-test';
import { parseNotifyConfig } from '../../../../src/main/core/notify/config';
import { quietHeld, quietUntil, quietZone } from '../../../../src/main/core/notify/quiet-hours';
import type { Delivery } from '../../../../src/main/core/notify/senders';

describe("quiet hours without a zone: the machine's clock", () => {
  const at = (h: number, m = 0): number => new Date(2026, 10, 25, h, m).getTime();
  it('across midnight: inside until the end, outside otherwise', () => {
    const q = { from: '22:00', to: '07:00' };
    expect(quietUntil(q, at(23, 30))).toBe(new Date(2026, 10, 26, 7, 0).getTime());
    expect(quietUntil(q, at(3))).toBe(at(7));
    expect(quietUntil(q, at(7))).toBeNull();
    expect(quietUntil(q, at(12))).toBeNull();
  });
  it('within a day, and none when from equals to', () => {
    expect(quietUntil({ from: '12:00', to: '14:00' }, at(13))).toBe(at(14));
    expect(quietUntil({ from: '12:00', to: '14:00' }, at(14, 1))).toBeNull();
    expect(quietUntil({ from: '09:00', to: '09:00' }, at(9))).toBeNull();
    expect(quietUntil(undefined, at(9))).toBeNull();
  });
});

describe('quiet hours on the clock of the zone they were set in', () => {
  // The monitor's machine is in UTC (vitest.config.ts); the trader set 22:00-07:00 in New York.
  const NY = { from: '22:00', to: '07:00', zone: 'America/New_York' };

  it("are applied on that zone's clock, not the machine's: 22:30 in New York is 03:30 UTC", () => {
    // Nov 26, 03:30 UTC: 10:30 PM on Nov 25 in New York (EST, UTC−5), inside; they end at 7:00 AM EST, 12:00 UTC.
    expect(quietUntil(NY, Date.UTC(2026, 10, 26, 3, 30))).toBe(Date.UTC(2026, 10, 26, 12, 0));
    // 23:00 UTC is 6:00 PM in New York: outside, though 23:00 is inside 22:00-07:00 on the machine's clock.
    expect(quietUntil(NY, Date.UTC(2026, 10, 25, 23, 0))).toBeNull();
    expect(quietUntil({ from: '22:00', to: '07:00' }, Date.UTC(2026, 10, 25, 23, 0))).toBe(
      Date.UTC(2026, 10, 26, 7, 0),
    );
    // 11:59 UTC is 6:59 AM there: inside for a minute more.
    expect(quietUntil(NY, Date.UTC(2026, 10, 26, 11, 59))).toBe(Date.UTC(2026, 10, 26, 12, 0));
    expect(quietUntil(NY, Date.UTC(2026, 10, 26, 12, 0))).toBeNull();
  });

  it('end at the hour they name across a change of daylight saving, both ways', () => {
    // Nov 1, 2026: New York falls back at 2:00 AM EDT. From 11:00 PM EDT (03:00 UTC), 7:00 AM EST is 12:00 UTC.
    expect(quietUntil(NY, Date.UTC(2026, 10, 1, 3, 0))).toBe(Date.UTC(2026, 10, 1, 12, 0));
    // Mar 8, 2026: it springs forward at 2:00 AM EST. From 11:00 PM EST (04:00 UTC), 7:00 AM EDT is 11:00 UTC.
    expect(quietUntil(NY, Date.UTC(2026, 2, 8, 4, 0))).toBe(Date.UTC(2026, 2, 8, 11, 0));
    // Quiet hours that end in the hour the change skips end when the clock passes it (3:00 AM EDT).
    expect(quietUntil({ ...NY, to: '02:30' }, Date.UTC(2026, 2, 8, 4, 0))).toBe(Date.UTC(2026, 2, 8, 7, 0));
  });

  it('say why a row waits on their own clock, and name the zone the page shows them in', () => {
    expect(quietHeld(NY, Date.UTC(2026, 10, 26, 12, 0))).toBe('quiet hours until 7:00 AM EST');
    expect(quietZone(NY)).toBe('America/New_York');
    // Without a zone (a notify file of before), the machine's, which Settings names beside them.
    expect(quietZone({ from: '22:00', to: '07:00' })).toBe('UTC');
  });

  it("are said in a channel's test message on that clock, the zone named", async () => {
    const { config } = parseNotifyConfig(
      JSON.stringify({ channels: [{ type: 'ntfy', url: 'https://n/a', quietHours: NY }] }),
      {},
    );
    const sent: Delivery[] = [];
    await testChannels(
      config.channels,
      async (_c, d) => {
        sent.push(d);
      },
      undefined,
      () => Date.UTC(2026, 10, 25, 12),
    );
    expect(sent[0]!.message).toContain('warnings wait out quiet hours 10:00 PM\u20137:00 AM EST (America/New_York)');
  });
});
