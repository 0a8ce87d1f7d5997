import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { everyText } from '../../../../src/main/core/budget/cost-model';
import type { CreditMeter } from '../../../../src/main/core/credits/credit-meter';
import { CreditPlan } from '../../../../src/main/core/credits/credit-plan';
import { StreamVolumes } from '../../../../src/main/core/credits/stream-volume';
import { CADENCE_RULES } from '../../../../src/main/core/risk/cadence';
import { PriceSchedule, type GuardedPosition } from '../../../../src/main/core/risk/price-schedule';
import type { PriceBook } from '../../../../src/main/core/risk/prices';
import { PRIOR_DAILY_VOL, VolatilityBook } from '../../../../src/main/core/risk/volatility';
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
function rig(o: { metered: boolean; speed: number | null; settings: Partial<Settings>; volatility?: VolatilityBook }) {
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
  const volatility =
    o.volatility ?? ({ sigma: () => PRIOR_DAILY_VOL / Math.sqrt(86_400) } as unknown as VolatilityBook);
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
      poolStreamsToday: () => 0,
    } as unknown as CreditMeter,
    volumes,
    risk: {
      refresh: { recordsCredits: () => 40, eventReads: () => [] },
      schedule,
      liquidationMap: { readCredits: () => 100 },
    },
    watch: { list: () => ['0xa', '0xb'].map((owner) => ({ owner, label: null, group: 'mine' as const, added_at: 0 })) },
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
    // Slowed for the first two hours, stopped for the last 40 minutes less the wait for the next
    // plan (at most 5 minutes: the spend is seen when the plan is made again); the records
    // stretched throughout.
    expect(checked.slowed + checked.stopped).toBe(160);
    expect(checked.stopped).toBeGreaterThanOrEqual(35);
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

  it("on the Demo network at speed 20: the lines forecast the service at speed 1, the reads here are the status bar's", async () => {
    // The Demo network's market at speed 20: its prices move sqrt(20) times as far a second as at speed 1.
    const volatility = new VolatilityBook();
    const sigma20 = (PRIOR_DAILY_VOL / Math.sqrt(86_400)) * Math.sqrt(20);
    const r5m = sigma20 * Math.sqrt(300);
    for (const asset of Object.keys(SYMBOLS)) {
      const closes = Array.from({ length: 25 }, (_, i) => Math.exp((i % 2) * r5m));
      volatility.seed(
        asset,
        closes.map((close) => ({ close }) as never),
        300,
      );
    }
    expect(volatility.sigma('0x2::sui::SUI')).toBeCloseTo(sigma20, 12);
    expect(volatility.sigma('0x2::sui::SUI', 20)).toBeCloseTo(sigma20 / Math.sqrt(20), 12);
    const r = rig({ metered: false, speed: 20, settings: { plan: 'free', network: 'demo' }, volatility });
    r.schedule.replan();
    r.volumes.note('margin', 0);
    const checked = { minutes: 0, wal: 0 };
    for (let m = 0; m < 30; m++) {
      for (let s = 0; s < 60; s++) {
        await vi.advanceTimersByTimeAsync(1000);
        // 20 bytes a second on the margin stream at speed 20 (1 at speed 1).
        r.volumes.note('margin', 20);
      }
      const f = r.plan.forecast([]);
      const status = r.schedule.plan();
      // What is read here is the status bar's plan, at every moment: SUI every 45 s, not slowed.
      expect(f.demo!.here).toEqual(status);
      expect(status.prices.find((p) => p.symbol === 'SUI')).toMatchObject({ everyMs: 45_000, slowed: false });
      // The lines are the service's plan at speed 1, each line its read, the total their sum.
      expectOneStory(f, f.reads, f.reads.recordsEveryMs);
      expect(f.perDay).toBe(f.lines.reduce((a, l) => a + l.perDay, 0));
      // Inside the Free plan's day, where the reads made here would be 20 times it (the trader saw 1,855 %).
      expect(f.shareOfPlanDay!).toBeLessThanOrEqual(31 / 30);
      expect(f.reads.prices.find((p) => p.symbol === 'SUI')!.slowed).toBe(true);
      // WAL is far from liquidation: at speed 1 it moves slower, so the guard asks less often than here.
      const walHere = status.prices.find((p) => p.symbol === 'WAL')!.everyMs!;
      const walThere = f.reads.prices.find((p) => p.symbol === 'WAL')!.everyMs!;
      expect(walThere).toBeGreaterThan(walHere);
      if (walHere < 15 * 60_000) checked.wal++;
      // The Free plan's one stream is the margin stream's: the guard's stream never opens there.
      expect(f.lines.at(-1)).toMatchObject({ what: 'Pool stream for a position in danger', perDay: 0 });
      checked.minutes++;
    }
    expect(checked.minutes).toBe(30);
    expect(checked.wal).toBe(30);
    // The reads made here were the status bar's: SUI every 45 s.
    const sui = r.reads.filter((x) => x.asset === '0x2::sui::SUI').map((x) => x.at);
    expect(sui.slice(1).map((t, i) => t - sui[i]!)).toEqual(sui.slice(1).map(() => 45_000));
    // The margin stream as at speed 1: about 1 B/s.
    const f = r.plan.forecast([]);
    expect(f.lines[0]!.perDay).toBe(Math.round((r.volumes.rate('margin')! * 86_400) / 1024 / 20));
    expect(f.demo!.speed).toBe(20);
    // A Builder plan previewed: the service's Builder budget paces at speed 1; here nothing changes.
    const builder = r.plan.forecast([], { plan: 'builder' });
    expect(builder.preview).toBe(true);
    expect(builder.demo!.here).toEqual(r.schedule.plan());
    expect(builder.reads.prices.find((p) => p.symbol === 'SUI')).toMatchObject({ everyMs: 45_000, slowed: false });
    expect(builder.lines.at(-1)!.detail).toMatch(/^none open: /);
    r.schedule.close();
  });

  it('counts every pool stream open in the total, each with its line, as far as the plan allows on the service', async () => {
    const r = rig({ metered: false, speed: 20, settings: { plan: 'builder', network: 'demo', streamBudget: 3 } });
    r.schedule.replan();
    for (const id of ['margin', 'pool:SUI_USDC', 'pool:WAL_USDC', 'pool:DEEP_USDC']) r.volumes.note(id, 0);
    for (let s = 0; s < 240; s++) {
      await vi.advanceTimersByTimeAsync(1000);
      r.volumes.note('pool:SUI_USDC', 20 * 1024);
      r.volumes.note('pool:WAL_USDC', 2 * 1024);
    }
    const open = (id: string, guard: boolean) => ({ id, state: 'open' as const, guard }) as never;
    // Three guard streams open here (the Demo network has room for four); Builder has 3 streams, the margin stream's first.
    const f = r.plan.forecast([
      open('margin', false),
      open('pool:SUI_USDC', true),
      open('pool:WAL_USDC', true),
      open('pool:DEEP_USDC', true),
    ]);
    const pools = f.lines.filter((l) => / pool stream$/.test(l.what));
    expect(pools.map((l) => l.what)).toEqual(['SUI_USDC pool stream', 'WAL_USDC pool stream', 'DEEP_USDC pool stream']);
    // 20 KB/s at speed 20: 1 KB/s, 3,600 credits an hour, 86,400 a day. Builder's day affords the
    // guard one stream, not one an hour for each of the day's hours left: WAL's and DEEP's are barred.
    const perHour = (id: string): number => Math.round((r.volumes.rate(id)! * 3600) / 1024 / 20);
    expect(perHour('pool:SUI_USDC')).toBeGreaterThan(3_500);
    expect(perHour('pool:SUI_USDC')).toBeLessThan(3_700);
    expect(pools.map((l) => l.perDay)).toEqual([perHour('pool:SUI_USDC') * 24, 0, 0]);
    // Barred, each says what it would cost where a plan holds it, as measured here.
    const barred =
      /the plan's budget would not leave an hour of it \(where a plan holds it: about [\d,]+ credits an hour\)$/;
    expect(pools[1]!.detail).toMatch(barred);
    expect(pools[2]!.detail).toMatch(barred);
    expect(f.perDay).toBe(f.lines.reduce((a, l) => a + l.perDay, 0));
    expect(f.lines.some((l) => l.what === 'Pool stream for a position in danger')).toBe(false);
    r.schedule.close();
  });
});
