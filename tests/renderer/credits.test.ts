import { describe, expect, it } from 'vitest';
import { every, PRICE_SOURCE } from '../../src/renderer/src/format';
import { about, forecastSentence, poolStreamText, shareText } from '../../src/renderer/src/credits';

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
    // A stream the guard holds is open while its position is in danger, not while a page is.
    expect(poolStreamText({ pool: 'WAL_USDC', perHour: 2_870, guard: true })).toBe(
      'WAL_USDC pool stream: about 2,900 credits an hour while it guards a watched position in danger',
    );
    expect(poolStreamText({ pool: 'WAL_USDC', perHour: null, guard: true })).toBe(
      'WAL_USDC pool stream: measuring its cost, open while it guards a watched position in danger',
    );
    expect(poolStreamText({ pool: 'SUI_USDC', perHour: 1_234 })).toBe(
      'SUI_USDC pool stream: about 1,200 credits an hour while its page is open',
    );
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

  it("an exchange price is the exchange's last trade", () => {
    expect(PRICE_SOURCE.exchange).toBe('last exchange trade');
  });
});
