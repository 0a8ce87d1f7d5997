// @vitest-environment happy-dom
import { mount } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { beforeEach, describe, expect, it } from 'vitest';
import FreshnessBadge from '../../../src/renderer/src/components/FreshnessBadge.vue';

beforeEach(() => setActivePinia(createPinia()));

describe('FreshnessBadge', () => {
  it('says how fresh live data is, and marks cached data as stale with its age and reason', () => {
    const live = mount(FreshnessBadge, { props: { meta: { source: 'network', fetchedAt: Date.now(), stale: false } } });
    expect(live.text()).toBe('just now');
    expect(live.classes()).toContain('live');
    const stale = mount(FreshnessBadge, {
      props: { meta: { source: 'cache', fetchedAt: Date.now() - 5 * 60_000, stale: true, reason: 'ECONNREFUSED' } },
    });
    expect(stale.text()).toBe('cached 5 min ago');
    expect(stale.classes()).toContain('stale');
    expect(stale.attributes('title')).toContain('ECONNREFUSED');
  });
});
