import { describe, expect, it } from 'vitest';
import { CADENCE_RULES } from '../../../../src/main/core/risk/cadence';
import { EVENT_READ_MAX_GAP_MS, EVENT_SOON_MS, EventReads } from '../../../../src/main/core/risk/event-reads';
import { planReads } from '../../../../src/main/core/risk/price-schedule';
import { PRIOR_DAILY_VOL } from '../../../../src/main/core/risk/volatility';

const DAY_MS = 86_400_000;

const sigma = PRIOR_DAILY_VOL / Math.sqrt(86_400);

describe("reads for watched managers' events", () => {
  it('measures each owner’s events, and waits for the budget’s gap after the owner’s last read', () => {
    let now = 0;
    const e = new EventReads(() => now);
    now = 2 * 3_600_000;
    for (let i = 0; i < 8; i++) e.noteEvent('0xa');
    e.noteEvent('0xb');
    // 8 events in 2 hours: one every 15 min; one read costs what creditsOf says.
    // However short the budget, an owner's event is read within EVENT_READ_MAX_GAP_MS.
    expect(e.reads(() => 60)).toEqual([
      { id: '0xa', intervalMs: 15 * 60_000, credits: 60, maxMs: EVENT_READ_MAX_GAP_MS },
      { id: '0xb', intervalMs: 2 * 3_600_000, credits: 60, maxMs: EVENT_READ_MAX_GAP_MS },
    ]);
    // Unpaced: 300 ms after the event; paced: no sooner than the gap after the last read.
    expect(e.dueAt('0xa', 0)).toBe(now + EVENT_SOON_MS);
    e.noteRead('0xa', now);
    expect(e.dueAt('0xa', 600_000)).toBe(now + 600_000);
  });

  it('the budget paces event reads with the prices: a busy wallet gets a gap, none when the budget allows', () => {
    const rule = CADENCE_RULES.guard;
    const budget = (monthly: number) => ({
      monthly,
      spentThisMonth: 0,
      fixedPerDay: 50,
      streamsToday: 0,
      records: { id: 'records', intervalMs: 3 * 3_600_000, credits: 100, maxMs: DAY_MS },
      events: [{ id: '0xa', intervalMs: 5 * 60_000, credits: 60 }],
    });
    const at = { readable: () => true, quoteUsd: () => 1, sigma: () => sigma, now: new Date(2026, 10, 2).getTime() };
    const rich = planReads([], rule, budget(50_000_000), at);
    expect(rich.pace).toBe(1);
    expect(rich.eventGaps.size).toBe(0);
    // 288 reads a day at 60 credits is 17,280: over the Free plan's day, so they are spaced out.
    const free = planReads([], rule, budget(250_000), at);
    expect(free.pace).toBeGreaterThan(1);
    const gap = free.eventGaps.get('0xa')!;
    expect(gap).toBeGreaterThan(0);
    // Each read waits `gap` for the next: at most one a gap, however the events bunch.
    const perDay = 50 + (DAY_MS / free.recordsEveryMs!) * 100 + (DAY_MS / gap) * 60;
    expect(perDay).toBeLessThanOrEqual(250_000 / 31 + 1e-6);
    // A budget almost spent: the gap stops at its cap (an event is still read within 3 hours), never a timer of years.
    const spent = planReads(
      [],
      rule,
      {
        ...budget(250_000),
        spentThisMonth: 249_990,
        events: [{ id: '0xa', intervalMs: 5 * 60_000, credits: 60, maxMs: EVENT_READ_MAX_GAP_MS }],
      },
      at,
    );
    expect(spent.eventGaps.get('0xa')).toBe(EVENT_READ_MAX_GAP_MS);
  });
});
