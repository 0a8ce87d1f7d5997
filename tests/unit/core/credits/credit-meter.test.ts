import { describe, expect, it, vi } from 'vitest';
import type { CreditUsage } from '../../../../src/shared/contract';
import { CreditMeter, STREAM_TALLY_MS, type CreditCounts } from '../../../../src/main/core/credits/credit-meter';
import { EventBus, type CoreEvents } from '../../../../src/main/core/events';

describe('the credit meter', () => {
  function meter(at: { now: Date; budget?: number | null }, budget: number | null = null, saved?: CreditCounts) {
    const crossings: Array<[number, CreditUsage]> = [];
    let stored = saved;
    const events = new EventBus<CoreEvents>();
    events.on('creditBudgetReached', ({ share, usage }) => crossings.push([share, usage]));
    const m = new CreditMeter({
      load: () => stored,
      save: (c) => (stored = { ...c }),
      budget: () => (at.budget === undefined ? budget : at.budget),
      events,
      now: () => at.now,
    });
    return { m, crossings, stored: () => stored };
  }

  it('counts requests at their price and streams per whole KB, carrying the rest', () => {
    const at = { now: new Date(2026, 10, 23, 10) };
    const { m } = meter(at);
    m.noteRequest('/dex/SUI_USDC/order-book-depth');
    m.noteRequest('/dex-margin/margin-managers/0xo');
    m.noteStreamBytes(1000);
    expect(m.usage()).toMatchObject({ today: 40, thisMonth: 40, estimated: 10, streamedKb: 0, month: '2026-11' });
    m.noteStreamBytes(1000); // 2,000 bytes: one KB, 976 carried
    m.noteStreamBytes(3 * 1024);
    expect(m.usage()).toMatchObject({ today: 44, streamedKb: 4 });
  });

  it('counts what pool streams took today apart, kept across a restart and started again each day', () => {
    const at = { now: new Date(2026, 10, 23, 10) };
    const { m, stored } = meter(at);
    m.noteStreamBytes(5 * 1024); // the margin stream's
    m.noteStreamBytes(3 * 1024 + 512, true);
    m.noteStreamBytes(512, true);
    expect(m.poolStreamsToday()).toBe(4);
    expect(m.usage()).toMatchObject({ today: 9, streamedKb: 9 });
    m.flush();
    const again = meter(at, null, stored()).m;
    expect(again.poolStreamsToday()).toBe(4);
    at.now = new Date(2026, 10, 24, 0, 1);
    expect(again.poolStreamsToday()).toBe(0);
    expect(again.usage()).toMatchObject({ today: 0, thisMonth: 9 });
  });

  it('adds up streamed bytes per read and counts them at most every STREAM_TALLY_MS, or when usage is read', () => {
    vi.useFakeTimers();
    try {
      const at = { now: new Date(2026, 10, 23, 10) };
      let asked = 0;
      const crossings: number[] = [];
      const budget = (): number => {
        asked++;
        return 10;
      };
      const events = new EventBus<CoreEvents>();
      events.on('creditBudgetReached', ({ share }) => crossings.push(share));
      const m = new CreditMeter({
        load: () => undefined,
        save: () => {},
        budget,
        events,
        now: () => at.now,
      });
      // A read is a sum: no budget, no date, nothing in front of the events it brings.
      for (let i = 0; i < 100; i++) m.noteStreamBytes(1024);
      expect(asked).toBe(0);
      vi.advanceTimersByTime(STREAM_TALLY_MS);
      // 100 KB against a budget of 10: both shares at once, said once, as the higher.
      expect(crossings).toEqual([1]);
      m.noteStreamBytes(2048);
      expect(m.usage().streamedKb).toBe(102);
    } finally {
      vi.useRealTimers();
    }
  });

  it('starts a new day and a new month, and continues from what was saved', () => {
    const at = { now: new Date(2026, 10, 30, 23, 59) };
    const { m, stored } = meter(at);
    m.noteRequest('/dex/get_pools');
    m.flush();
    at.now = new Date(2026, 10, 30, 23, 59, 30);
    const again = meter(at, null, stored()).m;
    again.noteRequest('/dex/get_pools');
    expect(again.usage()).toMatchObject({ today: 10, thisMonth: 10 });
    at.now = new Date(2026, 11, 1, 0, 1);
    expect(again.usage()).toMatchObject({ today: 0, thisMonth: 0, month: '2026-12' });
    again.noteRequest('/dex/get_pools');
    expect(again.usage()).toMatchObject({ today: 5, thisMonth: 5 });
  });

  it('warns once at 80 % and once at 100 % of the budget', () => {
    const at = { now: new Date(2026, 10, 23, 10) };
    const { m, crossings } = meter(at, 100);
    for (let i = 0; i < 3; i++) m.noteRequest('/dex/SUI_USDC/trades'); // 60
    expect(crossings).toEqual([]);
    m.noteRequest('/dex/SUI_USDC/trades'); // 80
    expect(crossings.map(([s]) => s)).toEqual([0.8]);
    m.noteRequest('/dex/SUI_USDC/order-book-depth'); // 110
    m.noteRequest('/dex/SUI_USDC/order-book-depth'); // 140
    expect(crossings.map(([s]) => s)).toEqual([0.8, 1]);
    expect(crossings[1]![1]).toMatchObject({ thisMonth: 110, budget: 100 });
  });

  it('warns at once of a budget set at or below what is spent, and again for a raised budget', () => {
    const at: { now: Date; budget?: number | null } = { now: new Date(2026, 10, 23, 10), budget: null };
    const { m, crossings } = meter(at);
    for (let i = 0; i < 5; i++) m.noteRequest('/dex/SUI_USDC/trades'); // 100, no budget yet
    at.budget = 120; // 83 %: said when the budget is set, not at a crossing that never comes
    m.checkBudget();
    expect(crossings.map(([s]) => s)).toEqual([0.8]);
    m.checkBudget();
    m.noteRequest('/dex/get_pools'); // 105
    expect(crossings.map(([s]) => s)).toEqual([0.8]);
    at.budget = 50; // 210 %: only that it is used up, not 80 % beside it
    m.checkBudget();
    expect(crossings.map(([s]) => s)).toEqual([0.8, 1]);
    expect(crossings[1]![1]).toMatchObject({ thisMonth: 105, budget: 50 });
    at.budget = 1_000; // raised: quiet until 800 credits
    m.checkBudget();
    for (let i = 0; i < 34; i++) m.noteRequest('/dex/SUI_USDC/trades'); // 785
    expect(crossings).toHaveLength(2);
    m.noteRequest('/dex/SUI_USDC/trades'); // 805
    expect(crossings.map(([s]) => s)).toEqual([0.8, 1, 0.8]);
    // A new month starts over under the same budget.
    at.now = new Date(2026, 11, 1, 0, 1);
    for (let i = 0; i < 40; i++) m.noteRequest('/dex/SUI_USDC/trades'); // 800
    expect(crossings.map(([s]) => s)).toEqual([0.8, 1, 0.8, 0.8]);
    expect(crossings[3]![1]).toMatchObject({ month: '2026-12', thisMonth: 800 });
  });
});
