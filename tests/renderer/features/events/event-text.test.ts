import { describe, expect, it } from 'vitest';
import { eventSummary } from '../../../../src/renderer/src/features/events/event-text';
import { price, privacy, usd } from '../../../../src/renderer/src/format';

describe("privacy: only the user's own amounts are masked", () => {
  it("masks a watched manager's event amounts and leaves other traders' visible", () => {
    const e = (own: boolean) => ({
      id: 'x',
      type: 'dex_margin_manager_updates_deposit',
      timestamp_ms: 1,
      checkpoint_id: 1,
      tx_hash: null,
      margin_manager_id: '0xm',
      data: {},
      valid: true,
      problem: null,
      received_at: 1,
      own,
      amounts: [{ label: '', raw: '1500000', decimals: 6, symbol: 'USDC' }],
    });
    privacy.value = true;
    try {
      expect(eventSummary(e(true))).toBe('••••• USDC');
      expect(eventSummary(e(false))).toBe('1.5 USDC');
      expect(usd(12.5)).toBe('$•••••');
      expect(usd(12.5, { private: false })).toBe('$12.50');
      expect(price(3.38, 4)).toBe('3.3800');
    } finally {
      privacy.value = false;
    }
  });
});
