// @vitest-environment happy-dom
import { mount } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { beforeEach, describe, expect, it } from 'vitest';
import QueryState from '../../../src/renderer/src/components/QueryState.vue';

beforeEach(() => setActivePinia(createPinia()));

describe('QueryState', () => {
  it('shows what happened and what to do, and retries', async () => {
    const w = mount(QueryState, {
      props: { loading: false, error: { message: 'The service cannot be reached.', advice: 'It will retry.' } },
    });
    expect(w.text()).toContain('The service cannot be reached.');
    expect(w.text()).toContain('It will retry.');
    await w.get('button').trigger('click');
    expect(w.emitted('retry')).toHaveLength(1);
    const empty = mount(QueryState, { props: { loading: false, empty: true, emptyText: 'No NFTs here.' } });
    expect(empty.text()).toBe('No NFTs here.');
  });
});
