import { describe, expect, it } from 'vitest';
import { MASK, maskAmounts } from '../../../src/shared/privacy';

describe('amounts masked in an alert', () => {
  it('masks money and amounts of assets, and leaves ratios, percentages and clock times', () => {
    expect(
      maskAmounts(
        'Since 2:02 PM EST (7 min): repaid 3,757.2372 SUI, left 1,020.0000 SUI and 20.00 USDC (about $12,400), \u22121.2\u202F%, ratio 1.118, $1.2M.',
      ),
    ).toBe(
      `Since 2:02 PM EST (7 min): repaid ${MASK} SUI, left ${MASK} SUI and ${MASK} USDC (about $${MASK}), \u22121.2\u202F%, ratio 1.118, $${MASK}.`,
    );
  });
});
