// @vitest-environment happy-dom
import { mount } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  adviceTarget,
  afterDeposit,
  depositFor,
  liquidationPriceShown,
  priceAtRatio,
  repayFor,
  depositAndRepayFor,
} from '../../../../src/shared/risk-model';
import { amount, usd, usdPrice } from '../../../../src/renderer/src/format';
import RepairPanel from '../../../../src/renderer/src/features/manager/RepairPanel.vue';
import { adviceAmount as shownUp } from '../../../../src/shared/risk-model';
import { position, H, P } from '../../support/manager';

beforeEach(() => setActivePinia(createPinia()));

describe('the repair plan on the manager page', () => {
  const amountOf = (w: ReturnType<typeof mount>, id: string): number =>
    Number(w.get(`[data-testid="${id}"]`).attributes('data-amount'));

  it('shows the deposits of either asset and the repayment the model gives for the warning threshold, then for the chosen target', async () => {
    const w = mount(RepairPanel, { props: { position: position(), own: false } });
    const select = w.get('[data-testid="repair-target"]');
    expect((select.element as HTMLSelectElement).value).toBe('warning');
    const usdc = depositFor(H, P, adviceTarget(1.5), 'quote', 6)!;
    const sui = depositFor(H, P, adviceTarget(1.5), 'base', 9)!;
    const repay = repayFor(H, P, adviceTarget(1.5), 6)!;
    const brought = depositAndRepayFor(H, P, adviceTarget(1.5), 6)!;
    expect(amountOf(w, 'repair-deposit-USDC')).toBe(usdc.amount);
    expect(amountOf(w, 'repair-deposit-SUI')).toBe(sui.amount);
    expect(amountOf(w, 'repair-repay')).toBe(repay.amount);
    expect(amountOf(w, 'repair-repay-brought')).toBe(brought.amount);
    // Aimed at 1.5 x 1.0005 = 1.50075 (the cushion for a check by hand with rounded figures):
    // (1.50075 x 1,900 - 2,700) / 1 = 151.425 USDC; / 2.5 = 60.57 SUI; repaid from its own USDC
    // (assets and debt fall together) 151.425 / 0.50075 = 302.3964 USDC; deposited first, then
    // repaid, 1,900 - 2,700 / 1.50075 = 100.8996 USDC.
    expect(usdc.amount).toBeCloseTo(151.425, 5);
    expect(sui.amount).toBeCloseTo(60.57, 5);
    expect(repay.amount).toBeCloseTo(302.3964, 4);
    expect(brought.amount).toBeCloseTo(100.8996, 4);
    // Shown rounded up at each asset's precision (USDC's cents, SUI's 4 decimals): 151.43, 60.5701 (the model's
    // amount is a hair over 60.57; $151.43 at $2.50), 100.90.
    const after = priceAtRatio(afterDeposit(H, 'quote', 151.43), 1, 1.125)!;
    expect(w.get('[data-testid="repair-text"]').text()).toBe(
      `Deposit 151.43 USDC ($151.43) or 60.5701 SUI ($151.43) or repay 302.40 USDC ($302.40) from its own balance (100.90 USDC ($100.90) if you deposit it from your wallet first, then repay it) to get back to 1.500; liquidation price after the USDC deposit ${usdPrice(liquidationPriceShown(after, 2.5))} (now ${usdPrice(position().liquidation_price)}).`,
    );

    // The pool's target after a liquidation (1.25) is below the ratio now: nothing to do.
    await select.setValue('pool');
    expect(w.get('[data-testid="repair-text"]').text()).toBe(
      'The risk ratio 1.421 is above 1.250 already: nothing to deposit or repay.',
    );
    expect(w.find('[data-testid="repair-deposit-USDC"]').exists()).toBe(false);

    // A custom target: the amounts follow it, shown rounded up.
    await select.setValue('custom');
    await w.get('[data-testid="repair-custom"]').setValue('1.777');
    const u = depositFor(H, P, adviceTarget(1.777), 'quote', 6)!;
    const s = depositFor(H, P, adviceTarget(1.777), 'base', 9)!;
    expect(amountOf(w, 'repair-deposit-USDC')).toBe(u.amount);
    expect(amountOf(w, 'repair-deposit-SUI')).toBe(s.amount);
    expect(amountOf(w, 'repair-repay')).toBe(repayFor(H, P, adviceTarget(1.777), 6)!.amount);
    expect(w.get('[data-testid="repair-deposit-SUI"]').text()).toBe(
      `${amount(shownUp(s.amount, 'SUI', 9), 'SUI')} (${usd(shownUp(s.amount, 'SUI', 9) * P.base)})`,
    );
    expect(shownUp(s.amount, 'SUI', 9)).toBeGreaterThanOrEqual(s.amount);
    expect(w.get('[data-testid="repair-text"]').text()).toContain('to get back to 1.777');

    await w.get('[data-testid="repair-custom"]').setValue('1.1');
    expect(w.get('[data-testid="repair-text"]').text()).toBe('Choose a target above the liquidation ratio (1.125).');
  });

  it('repays a short in the base it owes', () => {
    const h = { base: 0, quote: 3000, debtBase: 850, debtQuote: 0 };
    const w = mount(RepairPanel, { props: { position: position({ h }), own: false } });
    expect(w.get('[data-testid="repair-repay"]').text()).toContain(' SUI (');
    expect(amountOf(w, 'repair-repay')).toBe(repayFor(h, P, adviceTarget(1.5), 9)!.amount);
  });

  it('offers no repayment from its own balance below a ratio of 1, only one brought from the wallet', () => {
    // 700 SUI at $2.50 = $1,750 against 1,900 USDC: ratio 0.92; paying from its own USDC lowers it further.
    const h = { base: 700, quote: 0, debtBase: 0, debtQuote: 1900 };
    const w = mount(RepairPanel, { props: { position: position({ h }), own: false } });
    expect(repayFor(h, P, adviceTarget(1.5), 6)).toBeNull();
    expect(w.find('[data-testid="repair-repay"]').exists()).toBe(false);
    const brought = depositAndRepayFor(h, P, adviceTarget(1.5), 6)!;
    expect(amountOf(w, 'repair-repay-brought')).toBe(brought.amount);
    expect(w.get('[data-testid="repair-text"]').text()).toContain(
      `or deposit and then repay ${w.get('[data-testid="repair-repay-brought"]').text()} from your wallet to get back to 1.500`,
    );
  });

  it('says what a liquidation at the liquidation price would take if nothing is done', () => {
    const p = position();
    const c = p.liquidation_cost!;
    const w = mount(RepairPanel, { props: { position: p, own: false } });
    expect(w.get('[data-testid="liquidation-cost"]').text()).toBe(
      `If nothing is done: at ${usdPrice(p.liquidation_price)} (the liquidation price) the liquidators repay ${usd(c.repaid_usd)} of debt and take ${usd(c.seized_usd)} of assets, ` +
        `of which ${usd(c.liquidator_reward_usd + c.pool_reward_usd)} are rewards (1\u202F% to the liquidator, 4\u202F% to the pool); its equity there, ${usd(c.equity_before_usd)}, falls to ${usd(c.equity_after_usd)}.`,
    );
    // At the liquidation price ((1.125 x 1,900 - 200) / 1,000 = 1.9375): assets 2,137.50, debt 1,900;
    // repaid (1.25 x 1,900 - 2,137.5) / (1.25 - 1.05) = 1,187.50, seized 1.05 times that.
    expect(p.liquidation_price).toBeCloseTo(1.9375, 12);
    expect(c.repaid_usd).toBeCloseTo(1187.5, 6);
    expect(c.seized_usd).toBeCloseTo(1246.875, 6);
  });
});
