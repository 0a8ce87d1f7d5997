// @vitest-environment happy-dom
import { mount } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { beforeEach, describe, expect, it } from 'vitest';
import RiskGauge from '../../../src/renderer/src/components/RiskGauge.vue';

beforeEach(() => setActivePinia(createPinia()));

describe('RiskGauge', () => {
  it('colours by threshold, with the pool liquidation ratio at its left end', () => {
    expect(mount(RiskGauge, { props: { value: 1.2, warning: 1.5, critical: 1.25 } }).classes()).toContain('critical');
    expect(mount(RiskGauge, { props: { value: 1.4, warning: 1.5, critical: 1.25 } }).classes()).toContain('warning');
    const ok = mount(RiskGauge, { props: { value: 2.1, warning: 1.5, critical: 1.25, liquidation: 1.1 } });
    expect(ok.classes()).toContain('ok');
    expect(ok.text()).toContain('2.100');
    expect(ok.attributes('title')).toContain('from liquidation (1.100, its left end) to 2.500');
    // A list that does not know each pool's ratio: the default's, said to be one.
    expect(mount(RiskGauge, { props: { value: 1.4, warning: 1.5, critical: 1.25 } }).attributes('title')).toContain(
      "from the protocol's default liquidation ratio (1.125, its left end; a pool may liquidate at another)",
    );
  });

  it('says what its bar is: its ends labelled under it, the thresholds its marks in the tooltip, the ratio first', () => {
    const g = mount(RiskGauge, { props: { value: 1.421, warning: 1.5, critical: 1.25, liquidation: 1.125 } });
    expect(g.findAll('.ends span').map((s) => s.text())).toEqual(['liq. 1.125', '2.500+']);
    expect(g.attributes('title')).toBe(
      'Risk ratio 1.421 (assets / debt). The bar runs from liquidation (1.125, its left end) to 2.500 and above (its right end); its marks are critical (1.250) and warning (1.500).',
    );
    expect(g.get('[role="meter"]').attributes()).toMatchObject({ 'aria-valuemin': '1.125', 'aria-valuemax': '2.5' });
    // The ratio comes before the scale's numbers: whoever reads the text finds it first.
    expect(g.text().startsWith('1.421')).toBe(true);
  });
});
