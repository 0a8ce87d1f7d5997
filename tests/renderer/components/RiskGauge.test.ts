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
    expect(ok.attributes('title')).toContain('liquidation below 1.1');
  });
});
