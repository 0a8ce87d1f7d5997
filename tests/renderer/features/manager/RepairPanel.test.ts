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
    const usdc = depositFor(H, P, adviceTarget(1.53), 'quote', 6)!;
    const sui = depositFor(H, P, adviceTarget(1.53), 'base', 9)!;
    const repay = repayFor(H, P, adviceTarget(1.53), 6)!;
    const brought = depositAndRepayFor(H, P, adviceTarget(1.53), 6)!;
    expect(amountOf(w, 'repair-deposit-USDC')).toBe(usdc.amount);
    expect(amountOf(w, 'repair-deposit-SUI')).toBe(sui.amount);
    expect(amountOf(w, 'repair-repay')).toBe(repay.amount);
    expect(amountOf(w, 'repair-repay-brought')).toBe(brought.amount);
    // The warning (1.5) clears at 1.5 x 1.02 = 1.53 (where the hysteresis lets it go), aimed at
    // 1.53 x 1.0005 = 1.530765 (the cushion for a check by hand with rounded figures):
    // 1.530765 x 1,900 - 2,700 = 208.4535 USDC; / 2.5 = 83.3814 SUI; repaid from its own USDC
    // (assets and debt fall together) 208.4535 / 0.530765 = 392.7416 USDC; deposited first, then
    // repaid, 1,900 - 2,700 / 1.530765 = 136.176 USDC.
    expect(usdc.amount).toBeCloseTo(208.4535, 5);
    expect(sui.amount).toBeCloseTo(83.3814, 5);
    expect(repay.amount).toBeCloseTo(392.7416, 4);
    expect(brought.amount).toBeCloseTo(136.176, 4);
    // Shown rounded up at each asset's precision (USDC's cents, SUI's 4 decimals): 208.46, 83.3815 (the model's
    // amount is a hair over 83.3814), 392.75, 136.18.
    const after = priceAtRatio(afterDeposit(H, 'quote', 208.46), 1, 1.125)!;
    expect(w.get('[data-testid="repair-text"]').text()).toBe(
      `Deposit 208.46 USDC ($208.46) or 83.3815 SUI ($208.45) or repay 392.75 USDC ($392.75) from its own balance (136.18 USDC ($136.18) if you deposit it from your wallet first, then repay it) to get back to 1.530; liquidation price after the USDC deposit ${usdPrice(liquidationPriceShown(after, 2.5, 4), 4)} (now ${usdPrice(position().liquidation_price, 4)}).`,
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
    expect(amountOf(w, 'repair-repay')).toBe(repayFor(h, P, adviceTarget(1.53), 9)!.amount);
  });

  it('offers no repayment from its own balance below a ratio of 1, only one brought from the wallet', () => {
    // 700 SUI at $2.50 = $1,750 against 1,900 USDC: ratio 0.92; paying from its own USDC lowers it further.
    const h = { base: 700, quote: 0, debtBase: 0, debtQuote: 1900 };
    const w = mount(RepairPanel, { props: { position: position({ h }), own: false } });
    expect(repayFor(h, P, adviceTarget(1.53), 6)).toBeNull();
    expect(w.find('[data-testid="repair-repay"]').exists()).toBe(false);
    const brought = depositAndRepayFor(h, P, adviceTarget(1.53), 6)!;
    expect(amountOf(w, 'repair-repay-brought')).toBe(brought.amount);
    expect(w.get('[data-testid="repair-text"]').text()).toContain(
      `or deposit and then repay ${w.get('[data-testid="repair-repay-brought"]').text()} from your wallet to get back to 1.530`,
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
