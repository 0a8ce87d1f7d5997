import { describe, expect, it } from 'vitest';
import { every, PRICE_SOURCE } from '../../src/renderer/src/format';
import { about, forecastSentence } from '../../src/renderer/src/credits';

describe('credits and reads in words', () => {
  it('intervals as a trader says them, and a forecast rounded to what it is worth', () => {
    expect([every(45_000), every(300_000), every(5_400_000), every(10_800_000)]).toEqual([
      '45 s',
      '5 min',
      '1.5 h',
      '3 h',
    ]);
    expect([about(47), about(6_874), about(1_234_567)]).toEqual(['47', '6,900', '1,200,000']);
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
