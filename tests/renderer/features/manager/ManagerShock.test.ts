// @vitest-environment happy-dom
import { mount } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { beforeEach, describe, expect, it } from 'vitest';
import { liquidationAt } from '../../../../src/shared/risk-model';
import { usd } from '../../../../src/renderer/src/format';
import ManagerShock from '../../../../src/renderer/src/features/manager/ManagerShock.vue';
import { PARAMS, position } from '../../support/manager';

beforeEach(() => setActivePinia(createPinia()));

describe('the shock panel on the manager page', () => {
  it('moves the one position with the model, and says what a liquidation there would take', async () => {
    const p = position();
    const w = mount(ManagerShock, { props: { position: p, own: false } });
    expect(w.find('[data-testid="manager-shocked"]').exists()).toBe(false);
    const slider = w.find('[data-testid="shock-slider-SUI"]');
    // -10 %: SUI $2.25, assets 2,450, ratio 1.289.
    await slider.setValue('-10');
    expect(w.find('[data-testid="manager-shocked"]').text()).toMatch(/^SUI −10\u202F%: ratio 1\.289/);
    // -25 %: SUI $1.875: assets 2,075 / 1,900 = 1.092, below 1.125: liquidated.
    await slider.setValue('-25');
    const text = w.find('[data-testid="manager-shocked"]').text();
    const outcome = liquidationAt(
      { base: 1000, quote: 200, debtBase: 0, debtQuote: 1900 },
      { base: 1.875, quote: 1 },
      PARAMS,
    )!;
    expect(text).toContain('ratio 1.092');
    expect(text).toContain(`repay ${usd(outcome.repaid_usd)} of debt`);
    w.unmount();
  });
});
