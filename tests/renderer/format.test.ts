// @vitest-environment happy-dom
import { describe, expect, it, beforeEach } from 'vitest';
import { createPinia, setActivePinia } from 'pinia';
import {
  amount,
  amountTitle,
  apr,
  compact,
  distance,
  fixed,
  pct,
  privacy,
  signedPct,
  signedUsd,
  units,
  unitsTitle,
  usd,
  usdCompact,
  priceSource,
} from '../../src/renderer/src/format';
import { usdc, SUI } from './support/portfolio';

describe('the one formatter', () => {
  it("shows amounts at their asset's precision, exact from raw units, the full value for a tooltip, and masks them in privacy mode", () => {
    privacy.value = false;
    expect(units(3_380_500, 6, 'USDC')).toBe('3.38 USDC');
    expect(units(3_757_237_166, 6, 'SUI')).toBe('3,757.2372 SUI');
    expect(unitsTitle(3_757_237_166, 6, 'SUI')).toBe('3,757.237166 SUI');
    // Beyond 2^53, every digit kept.
    expect(units('12000000000000000123', 9, 'SUI')).toBe('12,000,000,000.0000 SUI');
    expect(unitsTitle('12000000000000000123', 9, 'SUI')).toBe('12,000,000,000.000000123 SUI');
    expect(amount(3757.237166, 'SUI')).toBe('3,757.2372 SUI');
    expect(amountTitle(3757.237166, 'SUI')).toBe('3,757.237166 SUI');
    expect(amount(1234.5, 'USDC')).toBe('1,234.50 USDC');
    expect(usd(12_345.6)).toBe('$12,346');
    expect(usd(-4100)).toBe('\u2212$4,100.00');
    expect(signedUsd(200)).toBe('+$200.00');
    expect(usdCompact(1_234_567)).toBe('$1.2M');
    expect(pct(22.8)).toBe('22.8\u202F%');
    expect(signedPct(-2.44, 1)).toBe('\u22122.4\u202F%');
    expect(apr(0.2279)).toBe('22.79\u202F%');
    expect(distance(-4.99)).toBe('\u22124.9\u202F%');
    privacy.value = true;
    expect(units(3_380_500, 6, 'USDC')).toBe('••••• USDC');
    expect(unitsTitle(3_380_500, 6, 'USDC')).toBe('••••• USDC');
    expect(amount(1, 'SUI')).toBe('••••• SUI');
    expect(amountTitle(1, 'SUI')).toBe('••••• SUI');
    expect(compact(5e6)).toBe('•••••');
    expect(usd(10)).toBe('$•••••');
    expect(signedUsd(-10)).toBe('\u2212$•••••');
    // Market data is not private.
    expect(fixed(3.38, 2, { private: false })).toBe('3.38');
    expect(amount(3.38, 'SUI', { private: false })).toBe('3.3800 SUI');
    privacy.value = false;
  });
});

beforeEach(() => setActivePinia(createPinia()));

describe('the price source, in words', () => {
  it('says an oracle price was learnt from the risk ratios, when, and that it moved with the exchange since', () => {
    const at = new Date(2026, 10, 25, 14, 2).getTime();
    expect(priceSource({ ...SUI, oracle_at: at }, at + 60_000)).toBe(
      "oracle price (learnt from the service's risk ratios at 2:02 PM UTC, moved with the exchange since)",
    );
    expect(priceSource({ ...SUI, learnt_from: 'record', oracle_at: at }, at + 60_000)).toBe(
      "oracle price (read from a deposit's or liquidation's record at 2:02 PM UTC, moved with the exchange since)",
    );
    expect(priceSource({ symbol: 'WAL', usd: 0.4, source: 'exchange', at })).toBe(
      "the exchange's last trade (no oracle price learnt yet)",
    );
    expect(priceSource(usdc)).toBe('stablecoin, counted as $1.00');
  });
});
