// @vitest-environment happy-dom
import { mount } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { nextTick } from 'vue';
import type { MarginEventRow } from '../../../../src/shared/contract';
import { setApi } from '../../../../src/renderer/src/api';
import EventsView from '../../../../src/renderer/src/features/events/EventsView.vue';
import { FILTER_DEBOUNCE_MS } from '../../../../src/renderer/src/features/events/id-filter';
import { fakeApi } from '../../../support/fake-api';
import { routerAt } from '../../support/router';

beforeEach(() => setActivePinia(createPinia()));
afterEach(() => {
  vi.useRealTimers();
  document.body.innerHTML = '';
});

const OWNER = `0x${'a1'.repeat(32)}`;
const row = (id: string, manager: string): MarginEventRow => ({
  id,
  type: 'dex_margin_manager_updates_deposit',
  timestamp_ms: Date.now() - 60_000,
  margin_manager_id: manager,
  valid: true,
});

/** Keys typed into a field: an input event only (setValue would also leave the field: a change). */
async function type(input: { element: Element; trigger(e: string): Promise<void> }, text: string): Promise<void> {
  (input.element as HTMLInputElement).value = text;
  await input.trigger('input');
}

/** Let timers up to `ms` fire, the fake API's answers land and the view render them. */
async function pass(ms: number): Promise<void> {
  await vi.advanceTimersByTimeAsync(ms);
  await nextTick();
}

describe('Live events: the manager and owner filters', () => {
  const mountEvents = async () => {
    vi.useFakeTimers();
    const f = fakeApi({
      marginEvents: (a: { owner?: string }) => ({
        data: a.owner ? [row('2-0', `0x${'b2'.repeat(32)}`)] : [row('1-0', `0x${'c3'.repeat(32)}`), row('2-0', 'x')],
        source: 'network',
        fetchedAt: Date.now(),
        stale: false,
      }),
    });
    setApi(f.api);
    const router = await routerAt('/events');
    const w = mount(EventsView, { attachTo: document.body, global: { plugins: [router] } });
    await pass(0);
    const reads = () => f.calls.filter(([m]) => m === 'marginEvents').map(([, a]) => a as Record<string, unknown>);
    return { f, w, reads, owner: w.get('input[aria-label="Owner"]') };
  };

  it('applies an owner as typing pauses, one read for a burst of keys, normalised as the chain reads it', async () => {
    const { w, reads, owner } = await mountEvents();
    expect(reads()).toHaveLength(1);
    expect(w.findAll('[data-testid="events-table"] tbody tr')).toHaveLength(2);
    // Typed (or pasted) a few characters at a time, in capitals: nothing is asked while the keys come.
    const typed = OWNER.toUpperCase().replace('0X', '0x');
    for (const n of [10, 30, 66]) {
      await type(owner, typed.slice(0, n));
      await pass(FILTER_DEBOUNCE_MS - 50);
    }
    expect(reads()).toHaveLength(1);
    await pass(50);
    expect(reads()).toHaveLength(2);
    expect(reads()[1]).toMatchObject({ owner: OWNER, managerId: undefined });
    expect(w.findAll('[data-testid="events-table"] tbody tr')).toHaveLength(1);
    // Cleared and the field left: every owner's events again, at once.
    await owner.setValue('');
    await pass(0);
    expect(reads()).toHaveLength(3);
    expect(reads()[2]!['owner']).toBeUndefined();
    w.unmount();
  });

  it('says plainly when an address is malformed, and asks nothing until it is one', async () => {
    const { w, reads, owner } = await mountEvents();
    await type(owner, '0xnothex');
    await pass(FILTER_DEBOUNCE_MS);
    const said = w.get('[data-testid="filter-error"]');
    expect(said.text()).toBe(
      '"0xnothex" is not a wallet address: a wallet address is 0x followed by up to 64 hexadecimal digits (0-9, a-f). ' +
        'Correct it, or clear the field to see every event.',
    );
    expect(said.attributes('role')).toBe('alert');
    expect(owner.attributes('aria-invalid')).toBe('true');
    // No list under a filter that is not applied, no export of it, and no request.
    expect(w.find('[data-testid="events-table"]').exists()).toBe(false);
    expect(w.get('[data-testid="export-csv"]').attributes('disabled')).toBeDefined();
    expect(reads()).toHaveLength(1);
    // 64 hex digits without the 0x: said so; a manager id that is not one: both said.
    await type(owner, 'a1'.repeat(32));
    await type(w.get('input[aria-label="Margin manager"]'), '0x12g');
    await pass(FILTER_DEBOUNCE_MS);
    expect(w.get('[data-testid="filter-error"]').text()).toContain('It needs the 0x in front.');
    expect(w.get('[data-testid="filter-error"]').text()).toContain('"0x12g" is not a manager id');
    expect(reads()).toHaveLength(1);
    // Corrected, and Enter applies it at once.
    await type(owner, OWNER);
    await type(w.get('input[aria-label="Margin manager"]'), '');
    await w.get('form').trigger('submit');
    await pass(0);
    expect(w.find('[data-testid="filter-error"]').exists()).toBe(false);
    expect(owner.attributes('aria-invalid')).toBe('false');
    expect(reads()).toHaveLength(2);
    expect(reads()[1]).toMatchObject({ owner: OWNER });
    // The debounce that was pending does not read it again.
    await pass(FILTER_DEBOUNCE_MS);
    expect(reads()).toHaveLength(2);
    w.unmount();
  });
});
