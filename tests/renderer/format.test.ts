// @vitest-environment happy-dom
import { describe, expect, it, beforeEach } from 'vitest';
import { createPinia, setActivePinia } from 'pinia';
import { compact, num, privacy, units, usd, priceSource } from '../../src/renderer/src/format';
import { usdc, SUI } from './support/portfolio';

describe('the one formatter', () => {
  it('shows exact units and masks amounts in privacy mode', () => {
    privacy.value = false;
    expect(units(3_380_500, 6)).toBe('3.3805');
    expect(units('12000000000000000', 9)).toMatch(/^12.000.000$/);
    expect(num(1234.5678)).toMatch(/1.234[.,]57/);
    expect(usd(10)).toContain('10');
    privacy.value = true;
    expect(units(3_380_500, 6)).toBe('•••••');
    expect(num(1)).toBe('•••••');
    expect(compact(5e6)).toBe('•••••');
    expect(usd(10)).toBe('$•••••');
    // Prices are not private.
    expect(num(3.38, 2, { private: false })).toMatch(/3[.,]38/);
    privacy.value = false;
  });
});

beforeEach(() => setActivePinia(createPinia()));

describe('the price source, in words', () => {
  it('says an oracle price was learnt from the risk ratios, when, and that it moved with the exchange since', () => {
    const at = new Date(2026, 10, 25, 14, 2).getTime();
    expect(priceSource({ ...SUI, oracle_at: at }, at + 60_000)).toBe(
      "oracle price (learnt from the service's risk ratios at 2:02 PM, moved with the exchange since)",
    );
    expect(priceSource({ ...SUI, learnt_from: 'record', oracle_at: at }, at + 60_000)).toBe(
      "oracle price (read from a deposit's or liquidation's record at 2:02 PM, moved with the exchange since)",
    );
    expect(priceSource({ symbol: 'WAL', usd: 0.4, source: 'exchange', at })).toBe(
      "the exchange's last trade (no oracle price learnt yet)",
    );
    expect(priceSource(usdc)).toBe('stablecoin, counted as $1');
  });
});
