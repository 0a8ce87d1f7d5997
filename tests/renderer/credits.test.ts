import { describe, expect, it } from 'vitest';
import { every, PRICE_SOURCE } from '../../src/renderer/src/format';
import type { CreditForecast, ReadPlan } from '../../src/shared/contract';
import {
  about,
  demoHereText,
  demoSpeedText,
  forecastSentence,
  pricesText,
  shareText,
  slowPriceRisks,
} from '../../src/renderer/src/credits';
import { position } from './support/manager';
import { FORECAST } from './support/settings';

describe('credits and reads in words', () => {
  it('intervals as a trader says them, and a forecast rounded to what it is worth', () => {
    expect([every(45_000), every(300_000), every(5_400_000), every(10_800_000)]).toEqual([
      '45 s',
      '5 min',
      '1.5 h',
      '3 h',
    ]);
    expect([about(47), about(6_874), about(1_234_567)]).toEqual(['47', '6,900', '1,200,000']);
    expect([shareText(0.004), shareText(0.83), shareText(18.675)]).toEqual([
      'under 1\u202F%',
      '83\u202F%',
      '1,868\u202F%',
    ]);
  });

  it('a custom plan is compared with its budget, or with nothing', () => {
    const f = {
      perDay: 900,
      lines: [],
      plan: 'custom',
      planLabel: 'Custom',
      planMonthlyCredits: null,
      shareOfPlanDay: null,
      budget: 60_000,
      shareOfBudgetDay: 0.45,
      poolStreams: [],
      reads: { prices: [], recordsEveryMs: null, recordsSlowed: false, pace: 1, budgetNote: null },
      preview: false,
      demo: null,
    };
    expect(forecastSentence(f)).toBe(
      'About 900 credits a day at these settings: 45\u202F% of your budget (2,000 a day of 60,000 a month).',
    );
    expect(forecastSentence({ ...f, budget: null, shareOfBudgetDay: null })).toBe(
      'About 900 credits a day at these settings. A custom plan without a monthly budget: nothing to compare it with.',
    );
  });

  it('names every asset read, grouped by how often, and says what the Demo network speed does in one sentence', () => {
    const price = (symbol: string, everyMs: number | null): ReadPlan['prices'][number] => ({
      symbol,
      everyMs,
      slowed: false,
      why: 'near liquidation',
      readAt: null,
    });
    const here: ReadPlan = {
      prices: [price('DEEP', 45_000), price('XBTC', 45_000), price('WAL', 45_000), price('SUI', 300_000)],
      recordsEveryMs: 10_800_000,
      recordsSlowed: false,
      pace: 1,
      budgetNote: null,
    };
    expect(pricesText(here)).toBe('DEEP, XBTC and WAL every 45 s, SUI every 5 min');
    expect(pricesText({ ...here, prices: [price('SUI', null), price('WAL', null)] })).toBe('SUI and WAL not read');
    expect(pricesText({ ...here, prices: [] })).toBeNull();
    const f = {
      perDay: 8_100,
      lines: [],
      plan: 'free',
      planLabel: 'Free',
      planMonthlyCredits: 250_000,
      shareOfPlanDay: 0.97,
      budget: 250_000,
      shareOfBudgetDay: 0.97,
      poolStreams: [],
      reads: { ...here, prices: here.prices.map((p) => ({ ...p, everyMs: 1_080_000, slowed: true })) },
      preview: false,
      demo: { speed: 300, here },
    };
    // Every asset read here, by name: not only the most urgent one.
    expect(demoHereText(f)).toBe(
      "The Demo network charges nothing and slows no read for a budget: here DEEP, XBTC and WAL every 45 s, SUI every 5 min, the status bar's reads. The lines below are what the data service would read and charge on the Free plan.",
    );
    expect(demoHereText({ ...f, demo: null })).toBeNull();
    // The forecast is the service's, as at speed 1: compared with the plan as on the service.
    expect(forecastSentence(f)).toBe(
      'On the data service these wallets would cost about 8,100 credits a day at these settings: 97\u202F% of the Free plan (8,333 a day of its 250,000 a month).',
    );
    const speed = demoSpeedText(300)!;
    expect(speed.split('. ')).toHaveLength(1);
    expect(speed).toBe(
      "At speed 300 the Demo network's market runs 300 times faster than real time, so its streams carry 300 times the trades and events (a pool's book still comes 4 times a second), its wallets act 300 times as often and its prices move about 17 times as far a second (so they are read more often here); the forecast takes all three back to speed 1.",
    );
    expect(demoSpeedText(1)).toBeNull();
  });

  it("an exchange price is the exchange's last trade", () => {
    expect(PRICE_SOURCE.exchange).toBe('last exchange trade');
  });
});

describe('what the forecast buys a position near liquidation', () => {
  const near = (symbol: string, side: 'long' | 'short', pct: number, pool: string) => ({
    ...position(),
    moving_symbol: symbol,
    side,
    distance_pct: pct,
    pool_name: pool,
  });
  const reads = (prices: ReadPlan['prices']): CreditForecast => ({ ...FORECAST, reads: { ...FORECAST.reads, prices } });
  const read = (symbol: string, everyMs: number | null, slowed: boolean): ReadPlan['prices'][number] => ({
    symbol,
    everyMs,
    slowed,
    why: '',
    readAt: null,
  });

  it('says a price the budget stretched to an hour or more while a position it prices is within 10 % of liquidation', () => {
    // Review (Free, speed 300): "XBTC price read every 24 h (slowed for the budget)" while a short
    // XBTC was 7.2 % from liquidation, and the forecast's headline said nothing of it.
    const f = reads([read('SUI', 45_000, false), read('XBTC', 86_400_000, true), read('WAL', 3_600_000, true)]);
    const positions = [
      near('XBTC', 'short', 7.2, 'XBTC_USDC'),
      near('XBTC', 'short', 9.5, 'XBTC_USDC'),
      near('SUI', 'long', -1.2, 'SUI_USDC'),
      near('WAL', 'long', -14, 'WAL_USDC'),
    ];
    expect(slowPriceRisks(f, positions)).toEqual([
      'On the Free plan the XBTC price would be read only every 24 h, while a short on XBTC_USDC is +7.2\u202F% from its liquidation price: a move that size between two reads is seen only at the next. A plan with more credits, or fewer wallets, reads it more often (pick a plan above to preview it).',
    ]);
    // Not read at all for the budget: said too. Not slowed, or under an hour: nothing.
    expect(slowPriceRisks(reads([read('XBTC', null, false)]), positions)[0]).toContain(
      'the XBTC price would not be read at all (the budget is spent), while a short on XBTC_USDC is +7.2',
    );
    expect(slowPriceRisks(reads([read('XBTC', 86_400_000, false), read('SUI', 1_800_000, true)]), positions)).toEqual(
      [],
    );
  });
});
