import { describe, expect, it } from 'vitest';
import { forecast, MARGIN_STREAM_PRIOR_PER_DAY, recordsReadCredits } from '../../../../src/main/core/budget/cost-model';
import { PLANS } from '../../../../src/shared/credit-prices';

describe('the cost model', () => {
  it('forecasts a day from the scheduled reads, the measured stream and the records, against the plan', () => {
    const f = forecast({
      plan: { name: 'free', plan: PLANS.free },
      budget: PLANS.free.monthlyCredits,
      marginStreamRate: null,
      prices: [
        { id: 'SUI', intervalMs: 15 * 60_000, credits: 20 },
        { id: 'WAL', intervalMs: 30 * 60_000, credits: 20 },
      ],
      owners: 5,
      recordsCredits: recordsReadCredits(5),
      recordsEveryMs: 3 * 3_600_000,
      events: [{ id: '0xowner', intervalMs: 6 * 3_600_000, credits: 100 }],
      poolStreams: [{ pool: 'SUI_USDC', rate: 2048 }],
    });
    const expected = MARGIN_STREAM_PRIOR_PER_DAY + 96 * 20 + 48 * 20 + 8 * recordsReadCredits(5) + 4 * 100;
    expect(f.perDay).toBe(expected);
    expect(f.shareOfPlanDay).toBeCloseTo(expected / (250_000 / 30), 6);
    expect(f.lines.map((l) => l.what)).toEqual([
      'Margin stream (always open: the liquidation alarm)',
      'SUI price',
      'WAL price',
      'Margin records (loans, deposits, supplies)',
      "Records read again for watched managers' events",
    ]);
    // 2 KB/s is 7,200 credits an hour, while the page is open; not in the day's figure.
    expect(f.poolStreams).toEqual([{ pool: 'SUI_USDC', perHour: 7200 }]);
    // A measured stream: 1 KB/s is 86,400 credits a day.
    expect(
      forecast({
        plan: { name: 'custom', plan: null },
        budget: null,
        marginStreamRate: 1024,
        prices: [],
        owners: 0,
        recordsCredits: 0,
        recordsEveryMs: null,
        events: [],
        poolStreams: [],
      }).perDay,
    ).toBe(86_400);
  });
});
