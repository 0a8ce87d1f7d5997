import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { everyText } from '../../../../src/main/core/budget/cost-model';
import type { CreditMeter } from '../../../../src/main/core/credits/credit-meter';
import { CreditPlan } from '../../../../src/main/core/credits/credit-plan';
import { StreamVolumes } from '../../../../src/main/core/credits/stream-volume';
import { CADENCE_RULES } from '../../../../src/main/core/risk/cadence';
import { PriceSchedule, type GuardedPosition } from '../../../../src/main/core/risk/price-schedule';
import type { PriceBook } from '../../../../src/main/core/risk/prices';
import { PRIOR_DAILY_VOL, type VolatilityBook } from '../../../../src/main/core/risk/volatility';
import type { ServiceLink } from '../../../../src/main/core/service-link';
import { DEFAULT_SETTINGS } from '../../../../src/main/core/settings';
import type { CreditForecast, ReadPlan, Settings } from '../../../../src/shared/contract';
import { suiLong } from '../../../support/positions';

const DAY_MS = 86_400_000;
const SYMBOLS: Record<string, string> = { '0x2::sui::SUI': 'SUI', '0xw::wal::WAL': 'WAL' };
const thresholds = { warning: 1.5, critical: 1.25, near_pct: 3 };
/** A position whose moving asset is `asset`, `distancePct` from its liquidation price. */
const guarded = (id: string, asset: string, distancePct: number): GuardedPosition => ({
  position: suiLong({ manager_id: id, distance_pct: distancePct }, 1.125 / (1 - distancePct / 100)),
  thresholds,
  baseAsset: asset,
  quoteAsset: '0x5::usdc::USDC',
});

/** What a price line of the forecast says for one read of the plan, in the cost model's words. */
const priceDetail = (p: ReadPlan['prices'][number]): string =>
  p.everyMs === null
    ? 'not read: the budget is spent'
    : `every ${everyText(p.everyMs)}, 20 credits a read${p.slowed ? ' (slowed for the budget)' : ''}`;

/**
 * A read schedule and the credit plan on one fake clock, with a price book that records each
 * read: the schedule's own timers decide when reads happen.
 */
function rig(o: { metered: boolean; speed: number | null; settings: Partial<Settings> }) {
  const settings: Settings = {
    ...DEFAULT_SETTINGS,
    hasApiKey: true,
    keyProtection: 'memory',
    hasStreamKey: false,
    streamKeyPools: [],
    ...o.settings,
  };
  let spent = 0;
  /** The plans made and the reads, in the order they happened (a read's round plans again at its own moment). */
  const timeline: Array<{ at: number; read: string } | { at: number; plan: ReadPlan }> = [];
  const reads: Array<{ asset: string; at: number }> = [];
  let positions = [guarded('a', '0x2::sui::SUI', 8), guarded('b', '0xw::wal::WAL', 40)];
  const prices = {
    symbolOf: (a: string) => SYMBOLS[a] ?? a,
    readable: (a: string) => a in SYMBOLS,
    peek: () => null,
    pricingPool: () => undefined,
    read: async (asset: string, at: number) => {
      reads.push({ asset, at });
      timeline.push({ at, read: asset });
      if (o.metered) spent += 20;
    },
  } as unknown as PriceBook;
  const volatility = { sigma: () => PRIOR_DAILY_VOL / Math.sqrt(86_400) } as unknown as VolatilityBook;
  const volumes = new StreamVolumes(() => Date.now());
  // eslint-disable-next-line prefer-const -- the schedule and the plan each need the other
  let plan: CreditPlan;
  const schedule = new PriceSchedule({
    prices,
    volatility,
    client: () => ({}) as never,
    rule: () => CADENCE_RULES.guard,
    positions: () => positions,
    budget: () => plan.budgetState(),
    onPrices: () => {},
    canRun: () => true,
    log: () => {},
  });
  plan = new CreditPlan({
    settings: { effective: () => settings, update: () => settings },
    link: { client: { http: { metered: o.metered } }, demoSpeed: () => o.speed } as unknown as ServiceLink,
    credits: {
      usage: () => ({ today: spent, thisMonth: spent, month: '2026-11', estimated: 0, streamedKb: 0, budget: null }),
    } as unknown as CreditMeter,
    volumes,
    risk: { refresh: { recordsCredits: () => 40, eventReads: () => [] }, schedule },
    watch: { list: () => ['0xa', '0xb'].map((owner) => ({ owner, label: null, added_at: 0 })) },
    events: { emit: () => {} },
  });
  // Each time the plan is made again (by the schedule's own timer too): the status it shows from then.
  const replan = schedule.replan.bind(schedule);
  schedule.replan = () => {
    replan();
    timeline.push({ at: Date.now(), plan: schedule.plan() });
  };
  return {
    schedule,
    plan,
    reads,
    timeline,
    volumes,
    spend: (credits: number) => (spent += credits),
    move: (next: GuardedPosition[]) => (positions = next),
  };
}

/** The forecast, the status bar's plan and the schedule tell one story: the same reads, at the same intervals. */
function expectOneStory(f: CreditForecast, status: ReadPlan, recordsEveryMs: number | null): void {
  expect(f.reads).toEqual(status);
  const lines = new Map(f.lines.map((l) => [l.what, l]));
  for (const p of status.prices) {
    const line = lines.get(`${p.symbol} price`)!;
    expect(line.detail).toBe(priceDetail(p));
    expect(line.perDay).toBe(p.everyMs === null ? 0 : Math.round((DAY_MS / p.everyMs) * 20));
  }
  expect(f.lines.filter((l) => / price$/.test(l.what))).toHaveLength(status.prices.length);
  expect(status.recordsEveryMs).toBe(recordsEveryMs);
  const records = lines.get('Margin records (loans, deposits, supplies)')!;
  expect(records.detail).toBe(
    `every ${everyText(recordsEveryMs!)}, 40 credits a read (2 wallets)${status.recordsSlowed ? ' (slowed for the budget)' : ''}`,
  );
}

beforeEach(() => {
  vi.useFakeTimers({ now: new Date(2026, 10, 2, 9, 0).getTime() });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('one plan: the forecast, the status bar and the reads', () => {
  it('agree at every moment of a run on the Free plan, as positions move and the budget slows and stops the reads', async () => {
    const r = rig({ metered: true, speed: null, settings: { plan: 'free' } });
    r.schedule.replan();
    const last = new Map<string, number>();
    let inForce: { at: number; plan: ReadPlan } | undefined;
    const checked = { reads: 0, slowed: 0, stopped: 0, recordsSlowed: 0 };
    /**
     * Every read was due by the plan in force when it was made: not sooner than its interval
     * (less the second within which due reads are taken together), and no later than that
     * interval or the plan's making (a shorter interval makes an overdue read at once).
     */
    const checkReads = (from: number): void => {
      for (const e of r.timeline.slice(from)) {
        if ('plan' in e) {
          inForce = e;
          continue;
        }
        const every = inForce!.plan.prices.find((p) => p.symbol === SYMBOLS[e.read])!.everyMs;
        const prev = last.get(e.read);
        last.set(e.read, e.at);
        if (prev === undefined) continue;
        expect(every).not.toBeNull();
        expect(e.at - prev).toBeGreaterThanOrEqual(every! - 1000);
        expect(e.at).toBeLessThanOrEqual(Math.max(inForce!.at, prev + every!) + 1000);
        checked.reads++;
      }
    };
    let seen = 0;
    const step = async (minutes: number): Promise<void> => {
      for (let m = 0; m < minutes; m++) {
        await vi.advanceTimersByTimeAsync(60_000);
        checkReads(seen);
        seen = r.timeline.length;
        const status = r.schedule.plan();
        expectOneStory(r.plan.forecast([]), status, r.schedule.recordsIntervalMs());
        if (status.prices.some((p) => p.slowed && p.everyMs !== null)) checked.slowed++;
        if (status.pace === null) checked.stopped++;
        if (status.recordsSlowed) checked.recordsSlowed++;
      }
    };
    // SUI 8 % from liquidation asks for 45 s: over the Free plan's day, so it is slowed; WAL is far.
    await step(60);
    expect(r.schedule.plan().prices.find((p) => p.symbol === 'SUI')!.slowed).toBe(true);
    // Both near now: the plan is made again, and the story follows it.
    r.move([guarded('a', '0x2::sui::SUI', 2), guarded('b', '0xw::wal::WAL', 5)]);
    r.schedule.replan();
    await step(60);
    // A page's lookups spend the month's credits: the prices stop, the records stretch to a day.
    r.spend(250_000);
    await step(30);
    const stopped = r.schedule.plan();
    expect(stopped.prices.every((p) => p.everyMs === null)).toBe(true);
    expect(stopped.recordsEveryMs).toBe(DAY_MS);
    expect(stopped.recordsSlowed).toBe(true);
    expect(r.plan.forecast([]).lines.find((l) => l.what === 'SUI price')!.detail).toBe('not read: the budget is spent');
    const before = r.reads.length;
    await step(10);
    expect(r.reads.length).toBe(before);
    // Each minute of the 2 h 40 min was compared; 33 reads were timed against the plan in force.
    expect(checked.reads).toBeGreaterThanOrEqual(30);
    // Slowed for the first two hours, stopped for the last 40 minutes; the records stretched throughout.
    expect(checked.slowed).toBe(120);
    expect(checked.stopped).toBe(40);
    expect(checked.recordsSlowed).toBe(160);
    r.schedule.close();
  });

  it('previews a plan before it is saved: paced as that plan would pace it, the plan in force untouched', async () => {
    const r = rig({ metered: true, speed: null, settings: { plan: 'free' } });
    r.schedule.replan();
    await vi.advanceTimersByTimeAsync(60_000);
    const free = r.plan.forecast([]);
    const builder = r.plan.forecast([], { plan: 'builder' });
    expect(builder.preview).toBe(true);
    expect(builder.planLabel).toBe('Builder');
    // Builder's day affords SUI every 45 s: not slowed; on Free it is.
    expect(builder.reads.prices.find((p) => p.symbol === 'SUI')).toMatchObject({ everyMs: 45_000, slowed: false });
    expect(free.reads.prices.find((p) => p.symbol === 'SUI')!.slowed).toBe(true);
    expect(builder.perDay).toBeGreaterThan(free.perDay);
    expect(builder.shareOfPlanDay!).toBeLessThan(1);
    // Records every 30 min, previewed: the line says it, the status bar still shows what is read.
    const often = r.plan.forecast([], { plan: 'builder', recordsRefreshSec: 1800 });
    expect(often.lines.find((l) => l.what.startsWith('Margin records'))!.detail).toBe(
      'every 30 min, 40 credits a read (2 wallets)',
    );
    expect(r.schedule.plan()).toEqual(free.reads);
    expectOneStory(r.plan.forecast([]), r.schedule.plan(), r.schedule.recordsIntervalMs());
    r.schedule.close();
  });

  it('on the Demo network: the reads made, the streams as at speed 1, and what the service would make of them', async () => {
    const r = rig({ metered: false, speed: 20, settings: { plan: 'free', network: 'demo' } });
    r.schedule.replan();
    // 20 bytes a second measured on the margin stream at speed 20 (after its first two minutes).
    r.volumes.note('margin', 0);
    for (let s = 0; s < 300; s++) {
      await vi.advanceTimersByTimeAsync(1000);
      r.volumes.note('margin', 20);
    }
    const f = r.plan.forecast([]);
    const status = r.schedule.plan();
    // Not paced: SUI every 45 s, as the status bar says and the reads go.
    expectOneStory(f, status, 3 * 3_600_000);
    expect(status.prices.find((p) => p.symbol === 'SUI')).toMatchObject({ everyMs: 45_000, slowed: false });
    const sui = r.reads.filter((x) => x.asset === '0x2::sui::SUI').map((x) => x.at);
    expect(sui.slice(1).map((t, i) => t - sui[i]!)).toEqual(sui.slice(1).map(() => 45_000));
    // About 20 B/s at speed 20: 1 B/s at speed 1, about 84 KB a day (where 1,688 were measured).
    const rate = r.volumes.rate('margin')!;
    expect(rate).toBeCloseTo(20, 0);
    expect(f.lines[0]!.perDay).toBe(Math.round((rate * 86_400) / 1024 / 20));
    expect(f.demo!.speed).toBe(20);
    // The service's Free budget would slow the same reads to fit its day.
    const service = f.demo!.service;
    expect(service.perDay).toBeLessThanOrEqual(250_000 / 31 + 1);
    expect(service.reads.prices.find((p) => p.symbol === 'SUI')!.slowed).toBe(true);
    expect(service.reads.budgetNote).toMatch(/^Reads slowed to stay within this month's credits/);
    // A Builder plan previewed: the same reads here; the service would not slow them.
    const builder = r.plan.forecast([], { plan: 'builder' });
    expect(builder.reads.prices).toEqual(
      status.prices.map((p) => ({ ...p, readAt: builder.reads.prices.find((q) => q.symbol === p.symbol)!.readAt })),
    );
    expect(builder.demo!.service.reads.budgetNote).toBeNull();
    r.schedule.close();
  });
});
