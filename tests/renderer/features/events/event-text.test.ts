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
      expect(eventSummary(e(false))).toBe('1.50 USDC');
      expect(eventSummary(e(true), true)).toBe('••••• USDC');
      expect(usd(12.5)).toBe('$•••••');
      expect(usd(12.5, { private: false })).toBe('$12.50');
      expect(price(3.38, 4)).toBe('3.3800');
    } finally {
      privacy.value = false;
    }
  });
});

describe('a liquidation in words', () => {
  it("names each label once, as the alerts do, with the ratio rounded down and each amount at its asset's precision (in full for the tooltip)", () => {
    const e = {
      id: 'x',
      type: 'dex_margin_manager_updates_liquidation',
      timestamp_ms: 1,
      margin_manager_id: '0xm',
      data: { risk_ratio: 1_199_600 },
      valid: true,
      amounts: [
        { label: 'repaid', raw: '405789695', decimals: 6, symbol: 'USDC' },
        { label: 'left', raw: '1972025611000', decimals: 9, symbol: 'WAL' },
        { label: 'left', raw: '75178187', decimals: 6, symbol: 'USDC' },
      ],
    };
    expect(eventSummary(e)).toBe('risk ratio 1.199, repaid 405.79 USDC, left 1,972.0256 WAL and 75.18 USDC');
    expect(eventSummary(e, true)).toBe(
      'risk ratio 1.199, repaid 405.789695 USDC, left 1,972.025611 WAL and 75.178187 USDC',
    );
    expect(eventSummary({ ...e, amounts: undefined })).toBe(
      'risk ratio 1.199, amounts not shown: the asset is not known yet',
    );
  });
});
