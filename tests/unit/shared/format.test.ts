import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  amountDigits,
  amountFullText,
  amountOrMoneyText,
  amountText,
  amountWorthText,
  midPriceDigits,
  aprText,
  axisTimeStep,
  axisTimeText,
  clockText,
  dayClockText,
  countText,
  decimalText,
  distanceText,
  intervalText,
  isoTime,
  leverageText,
  numberFormat,
  percentText,
  poolPriceText,
  quietHoursText,
  settingPercentText,
  shortIdText,
  signedPercentText,
  signedUsdText,
  timeText,
  usdCompactText,
  usdPriceDigits,
  usdPriceText,
  usdText,
  worthTells,
} from '../../../src/shared/format';
import { humanPrice, tickDecimals } from '../../../src/shared/units';

describe('USD prices', () => {
  it('takes two decimals from $1,000, four from $1, four significant digits below, eight at most', () => {
    expect(usdPriceDigits(97_250)).toBe(2);
    expect(usdPriceDigits(1000)).toBe(2);
    expect(usdPriceDigits(999.99)).toBe(4);
    expect(usdPriceDigits(1)).toBe(4);
    expect(usdPriceDigits(0.99999)).toBe(4);
    expect(usdPriceDigits(0.1)).toBe(4);
    expect(usdPriceDigits(0.09999)).toBe(5);
    expect(usdPriceDigits(0.001)).toBe(6);
    expect(usdPriceDigits(0.0001)).toBe(7);
    expect(usdPriceDigits(0.00001)).toBe(8);
    expect(usdPriceDigits(1e-9)).toBe(8);
    expect(usdPriceDigits(0)).toBe(4);
    // By its size: a negative price takes the digits of its opposite.
    expect(usdPriceDigits(-0.0342)).toBe(usdPriceDigits(0.0342));
    expect(usdPriceDigits(-5000)).toBe(2);
  });

  it("writes a position's price with its pool's tick's digits where given, trailing zeros kept", () => {
    expect(usdPriceText(0.1965, 'en-US', 5)).toBe('$0.19650');
    expect(usdPriceText(108_757.4, 'en-US', 1)).toBe('$108,757.4');
    expect(usdPriceText(3.38, 'en-US', 4)).toBe('$3.3800');
    expect(usdPriceText(-0.1965, 'en-US', 5)).toBe('\u2212$0.19650');
    // Without them (null or not given), by its size.
    expect(usdPriceText(0.1965, 'en-US', null)).toBe('$0.1965');
  });

  it('writes them with those digits, trailing zeros kept, so prices of one size line up', () => {
    expect(usdPriceText(97_250, 'en-US')).toBe('$97,250.00');
    expect(usdPriceText(1_234_567.891, 'en-US')).toBe('$1,234,567.89');
    expect(usdPriceText(1000, 'en-US')).toBe('$1,000.00');
    expect(usdPriceText(999.12345, 'en-US')).toBe('$999.1235');
    expect(usdPriceText(3.8017, 'en-US')).toBe('$3.8017');
    expect(usdPriceText(3.38, 'en-US')).toBe('$3.3800');
    expect(usdPriceText(1, 'en-US')).toBe('$1.0000');
    // The trader's two prices of one screen: "$0.187" beside "$0.1591" is "$0.1870" now.
    expect(usdPriceText(0.187, 'en-US')).toBe('$0.1870');
    expect(usdPriceText(0.31, 'en-US')).toBe('$0.3100');
    expect(usdPriceText(0.1138, 'en-US')).toBe('$0.1138');
    expect(usdPriceText(0.034123, 'en-US')).toBe('$0.03412');
    expect(usdPriceText(0.00004321, 'en-US')).toBe('$0.00004321');
    expect(usdPriceText(0.0000012345, 'en-US')).toBe('$0.00000123');
    expect(usdPriceText(1e-9, 'en-US')).toBe('$0.00000000');
    expect(usdPriceText(0, 'en-US')).toBe('$0.0000');
    expect(usdPriceText(-3.38, 'en-US')).toBe('\u2212$3.3800');
  });

  it("writes them in the locale's digits and separators", () => {
    expect(usdPriceText(97_250, 'de-DE')).toBe('$97.250,00');
    expect(usdPriceText(0.034123, 'de-DE')).toBe('$0,03412');
  });

  it('is within 0.05 % of the price from $0.00001 up (four significant digits at least)', () => {
    fc.assert(
      fc.property(fc.double({ min: 1e-5, max: 1e9, noNaN: true }), (x) => {
        const shown = Number(usdPriceText(x, 'en-US').replace(/[$,]/g, ''));
        expect(Math.abs(shown - x) / x).toBeLessThanOrEqual(5e-4 * (1 + 1e-9));
      }),
    );
  });
});

describe('pool prices', () => {
  const XBTC_USDC = { base_asset_decimals: 8, quote_asset_decimals: 6, tick_size: 1_000_000 };
  const SUI_USDC = { base_asset_decimals: 9, quote_asset_decimals: 6, tick_size: 100 };
  const COARSE = { base_asset_decimals: 6, quote_asset_decimals: 6, tick_size: 5_000_000_000 };
  const DEEP_SUI = { base_asset_decimals: 6, quote_asset_decimals: 9, tick_size: 1 };

  it("keep the tick's decimals, trailing zeros too, so a column of them lines up", () => {
    expect(poolPriceText(107_677.8, tickDecimals(XBTC_USDC), 'en-US')).toBe('107,677.8');
    expect(poolPriceText(107_677, tickDecimals(XBTC_USDC), 'en-US')).toBe('107,677.0');
    expect(poolPriceText(3.38, tickDecimals(SUI_USDC), 'en-US')).toBe('3.3800');
    expect(poolPriceText(3.38004, tickDecimals(SUI_USDC), 'en-US')).toBe('3.3800');
    expect(poolPriceText(1235, tickDecimals(COARSE), 'en-US')).toBe('1,235');
    // A tick of 1e-12: a tiny price keeps its digits.
    expect(poolPriceText(0.0425, tickDecimals(DEEP_SUI), 'en-US')).toBe('0.042500000000');
    expect(poolPriceText(0.000000123456, tickDecimals(DEEP_SUI), 'en-US')).toBe('0.000000123456');
    expect(poolPriceText(1e9, tickDecimals(XBTC_USDC), 'en-US')).toBe('1,000,000,000.0');
  });

  it('write the tick itself and a mid between two ticks (one decimal more) exactly', () => {
    for (const pool of [XBTC_USDC, SUI_USDC, COARSE, DEEP_SUI]) {
      const tick = humanPrice(pool.tick_size, pool);
      expect(Number(poolPriceText(tick, tickDecimals(pool), 'en-US').replace(/,/g, ''))).toBe(tick);
    }
    expect(poolPriceText((3.3805 + 3.3806) / 2, tickDecimals(SUI_USDC) + 1, 'en-US')).toBe('3.38055');
  });

  it("writes them in the locale's digits and separators", () => {
    expect(poolPriceText(107_677.8, 1, 'de-DE')).toBe('107.677,8');
  });
});

describe('mid prices', () => {
  it('take the tick\'s decimals on a tick, one more only between two (never "3.30220" on a 0.0001 tick)', () => {
    expect(midPriceDigits(3.3022, 4)).toBe(4);
    expect(midPriceDigits(109_693.8, 1)).toBe(1);
    expect(midPriceDigits(0.17985, 5)).toBe(5);
    expect(midPriceDigits(3.38055, 4)).toBe(5);
    expect(midPriceDigits(0.179845, 5)).toBe(6);
    expect(midPriceDigits((3.3021 + 3.3023) / 2, 4)).toBe(4);
  });
});

describe('numberFormat', () => {
  it('makes one formatter per locale and options', () => {
    const opts = { maximumFractionDigits: 3 };
    expect(numberFormat('en-US', opts)).toBe(numberFormat('en-US', { maximumFractionDigits: 3 }));
    expect(numberFormat('en-US', opts)).not.toBe(numberFormat('de-DE', opts));
    expect(numberFormat('en-US', opts)).not.toBe(numberFormat('en-US', { maximumFractionDigits: 2 }));
    expect(numberFormat('de-DE', opts).format(1234.5678)).toBe('1.234,568');
  });
});

describe('amounts', () => {
  it("keep their asset's precision: a stablecoin's cents, 4 decimals of any other asset, by the symbol alone", () => {
    expect(amountDigits('USDC')).toBe(2);
    expect(amountDigits('SUI')).toBe(4);
    expect(amountDigits('XBTC')).toBe(4);
    expect(amountDigits(null)).toBe(4);
    // The trader's one repaid amount, once 3,757.24, 3,757.2371 and 3,757.237166 SUI in three views.
    expect(amountText(3757.237166, 'SUI', 'en-US')).toBe('3,757.2372 SUI');
    expect(amountText('3757.237166', 'SUI', 'en-US')).toBe('3,757.2372 SUI');
    expect(amountText(1234.5, 'USDC', 'en-US')).toBe('1,234.50 USDC');
    expect(amountText(-2, 'SUI', 'en-US')).toBe('\u22122.0000 SUI');
    expect(amountText(1.5, null, 'en-US')).toBe('1.5000');
  });

  it('round a decimal text exactly, beyond 2^53 too, and give it in full for a tooltip', () => {
    expect(amountText('123456789012345678.125', 'USDC', 'en-US')).toBe('123,456,789,012,345,678.13 USDC');
    expect(amountFullText('3757.237166', 'SUI', 'en-US')).toBe('3,757.237166 SUI');
    expect(amountFullText('12000000000.000000123', 'SUI', 'en-US')).toBe('12,000,000,000.000000123 SUI');
    expect(amountFullText(0.1 + 0.2, 'SUI', 'en-US')).toBe('0.3 SUI');
    expect(amountFullText(1000, 'USDC', 'en-US')).toBe('1,000 USDC');
  });

  it('are said in money where they read zero at their precision (the digest\'s "0.0000 XBTC ($1.35)")', () => {
    expect(amountOrMoneyText(0.0000139, 'XBTC', 1.35, 'en-US', 2)).toEqual({ text: '$1.35', money: true });
    expect(amountOrMoneyText(0.5417, 'USDC', 0.5417, 'en-US', 2)).toEqual({ text: '0.54 USDC', money: false });
    // Without its money, the amount as it reads.
    expect(amountOrMoneyText(0.0000139, 'XBTC', null, 'en-US')).toEqual({ text: '0.0000 XBTC', money: false });
  });

  it('are written with their money once: a stablecoin\'s money never repeats it ("584.16 USDC ($584.16)")', () => {
    expect(amountWorthText(70.70721, 'SUI', 238.99, 'en-US')).toBe('70.7072 SUI ($238.99)');
    expect(amountWorthText(584.16, 'USDC', 584.16, 'en-US')).toBe('584.16 USDC');
    expect(amountWorthText(20.52, 'USDC', 20.52, 'en-US', { bound: true })).toBe('\u2264 20.52 USDC');
    expect(amountWorthText(1.2345, 'SUI', 4.12, 'en-US', { bound: true })).toBe('\u2264 1.2345 SUI ($4.12)');
    expect(amountWorthText(0.0000178, 'XBTC', 1.73, 'en-US', { bound: true })).toBe('\u2264 $1.73');
    expect(amountWorthText(0.0000178, 'XBTC', null, 'en-US', { bound: true })).toBe('< 0.0001 XBTC');
    expect(amountWorthText(16_645.13, 'USDC', 16_645.13, 'en-US', { usdDigits: 2 })).toBe('16,645.13 USDC');
    expect(worthTells(['USDC'])).toBe(false);
    expect(worthTells(['USDC', 'SUI'])).toBe(true);
    expect(worthTells([null])).toBe(true);
  });
});

describe('addresses', () => {
  it('are shortened in one form, "0x" and six digits, "…", the last four; a short one kept whole', () => {
    const owner = `0x1763a756${'0'.repeat(52)}d999`;
    expect(shortIdText(owner)).toBe('0x1763a7\u2026d999');
    expect(shortIdText('0xowner')).toBe('0xowner');
  });
});

describe('percentages', () => {
  it('are one style: the number, a narrow no-break space, "%"; the true minus; "+" on a signed change', () => {
    expect(percentText(22.8, 1, 'en-US')).toBe('22.8\u202F%');
    expect(percentText(-2.44, 1, 'en-US')).toBe('\u22122.4\u202F%');
    expect(signedPercentText(1.84, 1, 'en-US')).toBe('+1.8\u202F%');
    expect(signedPercentText(-15, 0, 'en-US')).toBe('\u221215\u202F%');
    // A change that rounds to nothing has no sign.
    expect(signedPercentText(-0.04, 1, 'en-US')).toBe('0.0\u202F%');
    expect(settingPercentText(3, 'en-US')).toBe('3\u202F%');
    expect(settingPercentText(2.5, 'en-US')).toBe('2.5\u202F%');
    expect(percentText(22.8, 1, 'de-DE')).toBe('22,8\u202F%');
  });

  it('give a borrow rate two decimals everywhere, and a distance one, rounded toward zero', () => {
    // The trader's "22.8 %" on the Portfolio and "22.79 %" on the manager page.
    expect(aprText(0.2279, 'en-US')).toBe('22.79\u202F%');
    expect(aprText(0.082, 'en-US')).toBe('8.20\u202F%');
    expect(distanceText(-4.99, 'en-US')).toBe('\u22124.9\u202F%');
    expect(distanceText(12, 'en-US')).toBe('+12.0\u202F%');
    expect(distanceText(-0.04, 'en-US')).toBe('0.0\u202F%');
  });
});

describe('money and counts', () => {
  it('write money in full, cents below $10,000 and whole dollars from it, compact only when asked', () => {
    expect(usdText(1234.5, 'en-US')).toBe('$1,234.50');
    expect(usdText(12_345.6, 'en-US')).toBe('$12,346');
    expect(usdText(1_234_567, 'en-US')).toBe('$1,234,567');
    expect(usdText(-4100, 'en-US')).toBe('\u2212$4,100.00');
    expect(usdText(-0.001, 'en-US')).toBe('$0.00');
    expect(signedUsdText(200, 'en-US')).toBe('+$200.00');
    expect(signedUsdText(-26.25, 'en-US')).toBe('\u2212$26.25');
    expect(usdCompactText(1_234_567, 'en-US')).toBe('$1.2M');
    expect(usdCompactText(12_400, 'en-US')).toBe('$12K');
    expect(usdCompactText(-1_234_567, 'en-US')).toBe('\u2212$1.2M');
    expect(countText(12_400.4, 'en-US')).toBe('12,400');
    expect(decimalText(-0.00001, 4, 'en-US')).toBe('0.0000');
    expect(leverageText(5, 'en-US')).toBe('5.00\u00D7');
    expect(intervalText(45_000, 'en-US')).toBe('45 s');
    expect(intervalText(300_000, 'en-US')).toBe('5 min');
    expect(intervalText(5_400_000, 'en-US')).toBe('1.5 h');
  });
});

describe('times', () => {
  // The tests run with TZ=UTC (vitest.config.ts).
  const at = Date.UTC(2026, 10, 23, 11, 5, 12, 34);

  it('say their zone where they are read on their own: a tooltip, an alert', () => {
    expect(timeText(at, 'en-US', at)).toBe('Nov 23, 11:05:12 AM UTC');
    expect(clockText(at, 'en-US')).toBe('11:05 AM UTC');
    expect(clockText(at, 'en-US', false)).toBe('11:05 AM');
  });

  it('write an absolute time in the style of a clock time, its year only when another (issue 40: "11/26/26, 5:57:53 PM EST")', () => {
    // The one style: the day by its month's name and the clock, as "Nov 23, 11:05 AM UTC" reads.
    expect(timeText(at, 'en-US', at)).toBe('Nov 23, 11:05:12 AM UTC');
    expect(dayClockText(at, 'en-US')).toBe('Nov 23, 11:05 AM UTC');
    expect(timeText(at, 'en-US', Date.UTC(2027, 0, 2))).toBe('Nov 23, 2026, 11:05:12 AM UTC');
    expect(timeText(at, 'en-US', at)).not.toMatch(/\d\/\d/);
  });

  it('label a time axis as finely as its span tells them apart: seconds, the clock, the day and the clock, the day', () => {
    const DAY = 86_400_000;
    const on = (h: number, m = 0, s = 0): number => Date.UTC(2026, 10, 23, h, m, s);
    // Under 5 minutes ECharts ticks every 10 or 30 s: the labels carry the seconds.
    expect(axisTimeStep(75_000)).toBe(1_000);
    expect(axisTimeText(on(11, 5, 30), 'en-US', 75_000)).toBe('11:05:30 AM');
    expect(axisTimeText(on(0, 0, 10), 'en-US', 75_000)).toBe('12:00:10 AM');
    // Up to a day: the clock, midnight the day it begins.
    expect(axisTimeStep(5 * 60_000)).toBe(60_000);
    expect(axisTimeStep(DAY)).toBe(60_000);
    expect(axisTimeText(on(11, 5), 'en-US', 3_600_000)).toBe('11:05 AM');
    expect(axisTimeText(on(0), 'en-US', 3_600_000)).toBe('Nov 23');
    // Over a day one clock comes round again: the day with it.
    expect(axisTimeStep(DAY + 1)).toBe(3_600_000);
    expect(axisTimeText(on(14), 'en-US', 2 * DAY)).toBe('Nov 23, 2:00 PM');
    expect(axisTimeText(on(0), 'en-US', 2 * DAY)).toBe('Nov 23');
    // From 4 days the day; past a year, its year too.
    expect(axisTimeStep(4 * DAY)).toBe(DAY);
    expect(axisTimeText(on(14), 'en-US', 7 * DAY)).toBe('Nov 23');
    expect(axisTimeText(on(14), 'en-US', 400 * DAY)).toBe('Nov 23, 2026');
  });

  it("write quiet hours on the clock of the zone they are kept on, naming it, whatever the reader's zone", () => {
    const q = { from: '22:00', to: '07:00', zone: 'America/New_York' };
    expect(quietHoursText(q, 'en-US', at)).toBe('10:00 PM\u20137:00 AM EST (America/New_York)');
    expect(quietHoursText(q, 'en-US', Date.UTC(2026, 6, 1, 12))).toBe('10:00 PM\u20137:00 AM EDT (America/New_York)');
    // A zone whose short name is its name is named once.
    expect(quietHoursText({ ...q, zone: 'UTC' }, 'en-US', at)).toBe('10:00 PM\u20137:00 AM UTC');
  });

  it('are exported in ISO 8601 in the local zone with its offset', () => {
    expect(isoTime(at)).toBe('2026-11-23T11:05:12.034+00:00');
    expect(Date.parse(isoTime(at))).toBe(at);
    // The trader in New York: the local time and its offset, winter and summer.
    const zone = process.env['TZ'];
    process.env['TZ'] = 'America/New_York';
    try {
      expect(isoTime(at)).toBe('2026-11-23T06:05:12.034-05:00');
      expect(isoTime(Date.UTC(2026, 6, 1, 12))).toBe('2026-07-01T08:00:00.000-04:00');
      expect(Date.parse(isoTime(at))).toBe(at);
    } finally {
      process.env['TZ'] = zone;
    }
  });
});
