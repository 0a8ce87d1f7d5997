import { describe, expect, it } from 'vitest';
import {
  asAtSpeed1,
  forecast,
  MARGIN_STREAM_PRIOR_PER_DAY,
  recordsReadCredits,
} from '../../../../src/main/core/budget/cost-model';
import type { ReadPlan } from '../../../../src/shared/contract';
import { PLANS } from '../../../../src/shared/credit-prices';

/** A plan of these prices' intervals (null: not read) and the records', none slowed. */
const readPlan = (prices: Record<string, number | null>, recordsEveryMs: number | null): ReadPlan => ({
  prices: Object.entries(prices).map(([symbol, everyMs]) => ({
    symbol,
    everyMs,
    slowed: false,
    why: 'far',
    readAt: null,
  })),
  recordsEveryMs,
  recordsSlowed: false,
  pace: 1,
  budgetNote: null,
});

describe('the cost model', () => {
  it('forecasts the records read per owner or protocol-wide, whichever takes fewer pages, at 5, 20 and 100 wallets', () => {
    // The desk of the Demo network (seed 7, --margin-owners 100): 1,196 managers (24 pages of 50)
    // and 111 supplies (3 pages). Per owner: a page of managers and one of supplies each, 10 credits a page.
    const desk = { managers: 24, supplies: 3 };
    const perOwner = [5, 20, 100].map((n) => recordsReadCredits(n));
    const cheaper = [5, 20, 100].map((n) => recordsReadCredits(n, desk));
    expect(perOwner).toEqual([100, 400, 2_000]);
    // 5: 5 manager pages + 3 supply pages; 20: 20 + 3; 100: 24 + 3.
    expect(cheaper).toEqual([80, 230, 270]);
    // A list not yet measured (or not usable) counts a page per owner.
    expect(recordsReadCredits(100, { managers: 24 })).toBe(1_240);
    // On the 3-hour timer, the records line of a 100-wallet desk: 8 reads a day.
    const recordsLine = (recordsCredits: number) =>
      forecast({
        plan: { name: 'builder', plan: PLANS.builder },
        budget: PLANS.builder.monthlyCredits,
        marginStreamRate: null,
        priceCredits: 20,
        owners: 100,
        recordsCredits,
        events: [],
        poolStreams: [],
        reads: readPlan({}, 3 * 3_600_000),
      }).lines.find((l) => l.what.startsWith('Margin records'))!;
    expect(recordsLine(perOwner[2]!)).toMatchObject({
      perDay: 16_000,
      detail: 'every 3 h, 2000 credits a read (100 wallets)',
    });
    expect(recordsLine(cheaper[2]!)).toMatchObject({
      perDay: 2_160,
      detail: 'every 3 h, 270 credits a read (100 wallets)',
    });
  });

  it("counts the margin pools' read (pool health) at its paced interval, 10 credits a read", () => {
    const base = {
      plan: { name: 'builder', plan: PLANS.builder },
      budget: PLANS.builder.monthlyCredits,
      marginStreamRate: null,
      priceCredits: 20,
      owners: 1,
      recordsCredits: recordsReadCredits(1),
      events: [],
      poolStreams: [],
    };
    const every15 = forecast({
      ...base,
      reads: { ...readPlan({}, null), poolsEveryMs: 15 * 60_000, poolsSlowed: false },
    });
    const line = every15.lines.find((l) => l.what.startsWith("Margin pools' rates"))!;
    // 96 reads a day of every pool at once.
    expect(line).toEqual({
      what: "Margin pools' rates and utilization (pool health)",
      perDay: 960,
      detail: 'every 15 min, 10 credits a read (every pool at once)',
    });
    const slowed = forecast({
      ...base,
      reads: { ...readPlan({}, null), poolsEveryMs: 6 * 3_600_000, poolsSlowed: true },
    });
    expect(slowed.lines.find((l) => l.what.startsWith("Margin pools' rates"))).toMatchObject({
      perDay: 40,
      detail: 'every 6 h, 10 credits a read (every pool at once) (slowed for the budget)',
    });
    const stopped = forecast({ ...base, reads: { ...readPlan({}, null), poolsEveryMs: null } });
    expect(stopped.lines.find((l) => l.what.startsWith("Margin pools' rates"))).toMatchObject({
      perDay: 0,
      detail: 'not read: the budget is spent',
    });
    // Not planned (no budget state yet): no line.
    expect(forecast({ ...base, reads: readPlan({}, null) }).lines.some((l) => l.what.startsWith('Margin pools'))).toBe(
      false,
    );
  });

  it('forecasts a day from the scheduled reads, the measured streams and the records, against the plan', () => {
    const f = forecast({
      plan: { name: 'free', plan: PLANS.free },
      budget: PLANS.free.monthlyCredits,
      marginStreamRate: null,
      reads: readPlan({ SUI: 15 * 60_000, WAL: 30 * 60_000 }, 3 * 3_600_000),
      priceCredits: 20,
      owners: 5,
      recordsCredits: recordsReadCredits(5),
      events: [{ id: '0xowner', intervalMs: 6 * 3_600_000, credits: 100 }],
      poolStreams: [{ pool: 'SUI_USDC', rate: 2048 }],
      guardStream: { assumedPerHour: 40_000, never: null },
    });
    // 2 KB/s is 7,200 credits an hour while the page is open: said per hour, apart from the day's
    // figure (a review's page left open in a tab read as 671 % of the Builder plan).
    const reads = MARGIN_STREAM_PRIOR_PER_DAY + 96 * 20 + 48 * 20 + 8 * recordsReadCredits(5) + 4 * 100;
    expect(f.perDay).toBe(reads);
    expect(f.perDay).toBe(f.lines.reduce((a, l) => a + l.perDay, 0));
    expect(f.shareOfPlanDay).toBeCloseTo(reads / (250_000 / 30), 6);
    expect(f.lines.map((l) => [l.what, l.perDay])).toEqual([
      ['Margin stream (always open: the liquidation alarm)', MARGIN_STREAM_PRIOR_PER_DAY],
      ['SUI price', 1_920],
      ['WAL price', 960],
      ['Margin records (loans, deposits, supplies)', 8 * recordsReadCredits(5)],
      ["Records read again for watched managers' events", 400],
      ['SUI_USDC pool stream', 0],
      ['Pool stream for a position in danger', 0],
    ]);
    expect(f.lines.at(-2)).toMatchObject({
      perHour: 7200,
      detail: "open while its page is shown, measured; not in the day's total: it closes with the page",
    });
    expect(f.lines.at(-1)!.detail).toBe(
      'none open: one opens on the pool of a watched position in danger when a stream and the budget allow it, about 40,000 credits an hour while open',
    );
    // Per hour too, for the pool's page.
    expect(f.poolStreams).toEqual([{ pool: 'SUI_USDC', perHour: 7200, guard: false }]);
    // A guard stream not measured yet counts at the assumed rate; a plan of one stream never opens one.
    const guarded = forecast({
      ...f,
      plan: { name: 'builder', plan: PLANS.builder },
      budget: null,
      marginStreamRate: null,
      reads: readPlan({}, null),
      priceCredits: 20,
      owners: 0,
      recordsCredits: 0,
      events: [],
      poolStreams: [{ pool: 'WAL_USDC', rate: null, guard: true }],
      guardStream: { assumedPerHour: 40_000, never: null },
    });
    expect(guarded.lines.slice(1).map((l) => [l.what, l.perDay, l.detail])).toEqual([
      [
        'WAL_USDC pool stream',
        960_000,
        'open while it guards a watched position in danger: about 40,000 credits an hour, assumed until measured, counted as if open all day',
      ],
    ]);
    const free = forecast({
      ...f,
      plan: { name: 'free', plan: PLANS.free },
      budget: null,
      marginStreamRate: null,
      reads: readPlan({}, null),
      priceCredits: 20,
      owners: 0,
      recordsCredits: 0,
      events: [],
      poolStreams: [],
      guardStream: { assumedPerHour: 40_000, never: "the Free plan's one stream is the margin stream's" },
    });
    expect(free.lines.slice(1).map((l) => [l.what, l.perDay, l.detail])).toEqual([
      [
        'Pool stream for a position in danger',
        0,
        "never opened on this plan: the Free plan's one stream is the margin stream's",
      ],
    ]);
    // A measured stream: 1 KB/s is 86,400 credits a day.
    expect(
      forecast({
        plan: { name: 'custom', plan: null },
        budget: null,
        marginStreamRate: 1024,
        reads: readPlan({}, null),
        priceCredits: 20,
        owners: 0,
        recordsCredits: 0,
        events: [],
        poolStreams: [],
      }).perDay,
    ).toBe(86_400);
  });
});

describe('the cost model on the Demo network and under a budget', () => {
  const base = {
    plan: { name: 'free', plan: PLANS.free },
    budget: PLANS.free.monthlyCredits,
    priceCredits: 20,
    owners: 2,
    recordsCredits: recordsReadCredits(2),
    events: [],
  };

  it('divides what the streams measured by the Demo network speed, and says so', () => {
    // 20 KB/s at speed 20 is 1 KB/s at speed 1: 86,400 KB a day where 1,728,000 were measured.
    const f = forecast({
      ...base,
      marginStreamRate: 20 * 1024,
      reads: readPlan({}, 3 * 3_600_000),
      poolStreams: [
        { pool: 'SUI_USDC', rate: 40 * 1024, guard: true },
        { pool: 'DEEP_USDC', rate: 10 * 1024, guard: true, barred: 'the plan has no stream left for it' },
      ],
      demoSpeed: 20,
    });
    expect(f.lines[0]).toEqual({
      what: 'Margin stream (always open: the liquidation alarm)',
      perDay: 86_400,
      detail: '86,400 KB a day, measured at speed 20 and divided by 20',
    });
    expect(f.poolStreams).toEqual([
      { pool: 'SUI_USDC', perHour: 7_200, guard: true },
      { pool: 'DEEP_USDC', perHour: 1_800, guard: true },
    ]);
    // A stream the plan would not open on the service has its line, and nothing in the total.
    expect(f.lines.slice(-2).map((l) => [l.what, l.perDay, l.detail])).toEqual([
      [
        'SUI_USDC pool stream',
        172_800,
        'open while it guards a watched position in danger: about 7,200 credits an hour, measured at speed 20 and divided by 20, counted as if open all day',
      ],
      [
        'DEEP_USDC pool stream',
        0,
        // What it would cost where a plan holds it, as measured here: the figure a trader choosing a plan looks for.
        'open while it guards a watched position in danger here; the plan has no stream left for it (where a plan holds it: about 1,800 credits an hour)',
      ],
    ]);
  });

  it("divides only a pool stream's trades by the speed: its book comes at every checkpoint whatever the speed", () => {
    // SUI_USDC, measured 60 s each on the Demo network: 11.3 KB/s at speed 1 (40,667 credits an
    // hour), 16.1 KB/s at speed 20 of which the book ~11.2 KB/s (240 book events in either minute).
    // Dividing it all by 20 said 2,971 credits an hour beside the guard's assumed 40,000.
    expect(asAtSpeed1(16.1, 11.2, 20)).toBeCloseTo(11.2 + 4.9 / 20, 9);
    expect(asAtSpeed1(16.1, 0, 20)).toBeCloseTo(16.1 / 20, 9);
    expect(asAtSpeed1(11.3, 11, 1)).toBeCloseTo(11.3, 9);
    // A share past the whole (rounding of what was counted) is the whole.
    expect(asAtSpeed1(10, 12, 20)).toBe(10);
    const f = forecast({
      ...base,
      marginStreamRate: null,
      reads: readPlan({}, null),
      poolStreams: [{ pool: 'SUI_USDC', rate: 16.1 * 1024, paced: 11.2 * 1024 }],
      guardStream: { assumedPerHour: 40_000, never: null },
      demoSpeed: 20,
    });
    expect(f.poolStreams).toEqual([{ pool: 'SUI_USDC', perHour: Math.round((11.2 + 4.9 / 20) * 3600), guard: false }]);
    expect(f.lines.find((l) => l.what === 'SUI_USDC pool stream')!.detail).toBe(
      "open while its page is shown, measured at speed 20, its trades divided by 20; not in the day's total: it closes with the page",
    );
  });

  it('says a barred guard stream once, without a second line that none is open', () => {
    // Review (Builder preview): "DEEP_USDC pool stream 0 — open while it guards a watched position
    // in danger here; …" stood directly above "Pool stream for a position in danger 0 — none open".
    const f = forecast({
      ...base,
      marginStreamRate: null,
      reads: readPlan({}, null),
      poolStreams: [
        { pool: 'DEEP_USDC', rate: 1024, guard: true, barred: "the plan's budget would not leave an hour of it" },
      ],
      guardStream: { assumedPerHour: 40_000, never: null },
      demoSpeed: 20,
    });
    expect(f.lines.map((l) => l.what)).toEqual([
      'Margin stream (always open: the liquidation alarm)',
      'Margin records (loans, deposits, supplies)',
      'DEEP_USDC pool stream',
    ]);
  });

  it("forecasts the guard's streams at most at what the day leaves them, a page's stream an hour", () => {
    const streams = {
      ...base,
      marginStreamRate: 1024,
      reads: readPlan({}, 3 * 3_600_000),
      poolStreams: [
        { pool: 'SUI_USDC', rate: 3 * 1024, guard: true },
        { pool: 'WAL_USDC', rate: 1024, guard: true },
        { pool: 'DEEP_USDC', rate: 1024 },
      ],
      demoSpeed: null,
    };
    const lines = (room: number | null) =>
      forecast({ ...streams, guardRoomPerDay: room }).lines.filter((l) => / pool stream$/.test(l.what));
    // Unbounded: each guard stream as if open all day (3 KB/s is 259,200 a day); the page's an hour.
    expect(lines(null).map((l) => [l.perDay, l.perHour])).toEqual([
      [259_200, undefined],
      [86_400, undefined],
      [0, 3600],
    ]);
    // 100,000 a day for the guard: shared 3 to 1; the page's stream is not the guard's.
    const capped = lines(100_000);
    expect(capped.map((l) => l.perDay)).toEqual([75_000, 25_000, 0]);
    expect(capped[0]!.detail).toBe(
      "open while it guards a watched position in danger: about 10,800 credits an hour, measured, open only while the day's budget leaves an hour of it: 100,000 a day for the guard's streams",
    );
    expect(lines(1_000_000).map((l) => l.perDay)).toEqual([259_200, 86_400, 0]);
  });

  it('says which reads the budget slowed and which it stopped, as the status bar does', () => {
    const reads: ReadPlan = {
      prices: [
        { symbol: 'SUI', everyMs: 15 * 60_000, slowed: true, why: 'near liquidation (+2.0 %)', readAt: null },
        { symbol: 'WAL', everyMs: null, slowed: true, why: 'far from liquidation', readAt: null },
      ],
      recordsEveryMs: 86_400_000,
      recordsSlowed: true,
      pace: null,
      budgetNote: 'stopped',
    };
    const f = forecast({ ...base, marginStreamRate: null, reads, poolStreams: [] });
    expect(f.lines.slice(1).map((l) => [l.what, l.perDay, l.detail])).toEqual([
      ['SUI price', 1_920, 'every 15 min, 20 credits a read (slowed for the budget)'],
      ['WAL price', 0, 'not read: the budget is spent'],
      [
        'Margin records (loans, deposits, supplies)',
        40,
        'every 24 h, 40 credits a read (2 wallets) (slowed for the budget)',
      ],
    ]);
    expect(f.reads).toBe(reads);
  });
});
