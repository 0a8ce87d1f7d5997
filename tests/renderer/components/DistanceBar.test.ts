// @vitest-environment happy-dom
import { mount } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { beforeEach, describe, expect, it } from 'vitest';
import DistanceBar from '../../../src/renderer/src/components/DistanceBar.vue';

beforeEach(() => setActivePinia(createPinia()));

describe('DistanceBar', () => {
  it('names the asset and its liquidation price, and fills as the price nears it', () => {
    const near = mount(DistanceBar, { props: { symbol: 'SUI', liquidationPrice: 3.07, distance: -0.4 } });
    expect(near.text()).toContain('SUI liq. $3.0700');
    expect(near.text()).toContain('\u22120.4\u202F%');
    expect(near.classes()).toContain('critical');
    expect(near.attributes('title')).toContain('Liquidated if SUI falls 0.4\u202F% to $3.0700');
    const far = mount(DistanceBar, { props: { symbol: 'SUI', liquidationPrice: 2.1, distance: -30.5 } });
    expect(far.classes()).toContain('ok');
    const width = (w: typeof near): number =>
      Number(/width: ([\d.]+)%/.exec(w.get('.fill').attributes('style') ?? '')![1]);
    expect(width(near)).toBeGreaterThan(95);
    expect(width(far)).toBeLessThan(5);
    expect(mount(DistanceBar, { props: { symbol: 'SUI', liquidationPrice: null, distance: null } }).text()).toContain(
      'none',
    );
  });
});
