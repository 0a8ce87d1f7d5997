// @vitest-environment happy-dom
import { mount } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { beforeEach, describe, expect, it } from 'vitest';
import ShockPanel from '../../../src/renderer/src/components/ShockPanel.vue';

beforeEach(() => setActivePinia(createPinia()));

describe('the shock panel', () => {
  it('has a slider per non-stable asset and one for all of them, −50 … +50 % by 1 %, and gives Shocks through v-model', async () => {
    const w = mount(ShockPanel, { props: { symbols: ['SUI', 'USDC', 'DEEP', 'SUI'], modelValue: {} } });
    const ids = w.findAll('input[type=range]').map((i) => i.attributes('data-testid'));
    expect(ids).toEqual(['shock-slider-DEEP', 'shock-slider-SUI', 'shock-slider-all']);
    const sui = w.get('[data-testid="shock-slider-SUI"]');
    expect([sui.attributes('min'), sui.attributes('max'), sui.attributes('step')]).toEqual(['-50', '50', '1']);
    expect(w.get('[data-testid="shock-reset"]').attributes('disabled')).toBeDefined();
    await sui.setValue('-15');
    expect(w.emitted('update:modelValue')!.at(-1)).toEqual([{ SUI: -0.15 }]);
    await w.setProps({ modelValue: { SUI: -0.15, '*': 0.1 } });
    expect(w.findAll('output').map((o) => o.text())).toEqual(['0\u202F%', '\u221215\u202F%', '+10\u202F%']);
    await w.get('[data-testid="shock-slider-all"]').setValue('0');
    expect(w.emitted('update:modelValue')!.at(-1)).toEqual([{ SUI: -0.15 }]);
    await w.get('[data-testid="shock-reset"]').trigger('click');
    expect(w.emitted('update:modelValue')!.at(-1)).toEqual([{}]);
  });
});
