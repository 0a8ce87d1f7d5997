// @vitest-environment happy-dom
import { createPinia, setActivePinia } from 'pinia';
import { beforeEach, describe, expect, it } from 'vitest';
import type { AlertRecord } from '../../../src/shared/contract';
import { ApiError, setApi } from '../../../src/renderer/src/api';
import { useAlertsStore } from '../../../src/renderer/src/stores/alerts';
import { fakeApi } from '../../support/fake-api';

const alert = (id: number, patch: Partial<AlertRecord> = {}): AlertRecord => ({
  id,
  rule: 'liquidation',
  level: 'critical',
  manager_id: '0xm',
  owner: '0xo',
  event_id: 'e',
  title: 'Liquidated',
  message: 'm',
  created_at: id,
  acknowledged_at: null,
  snoozed_until: null,
  ...patch,
});

beforeEach(() => setActivePinia(createPinia()));

describe('the alerts store', () => {
  it('loads, merges pushed alerts without duplicates, and acknowledges', async () => {
    const f = fakeApi({
      alerts: () => ({ data: [alert(1)], source: 'cache', fetchedAt: 0, stale: false }),
      acknowledgeAlert: ({ id }) => alert(id, { acknowledged_at: 99 }),
    });
    setApi(f.api);
    const store = useAlertsStore();
    store.start();
    await new Promise((r) => setTimeout(r, 0));
    expect(store.alerts.map((a) => a.id)).toEqual([1]);
    f.push('alerts', [alert(2), alert(1)]);
    expect(store.alerts.map((a) => a.id)).toEqual([2, 1]);
    expect(store.open).toHaveLength(2);
    await store.acknowledge(2);
    expect(store.open.map((a) => a.id)).toEqual([1]);
    expect(f.calls).toContainEqual(['acknowledgeAlert', { id: 2 }]);
  });

  it('says so above the list when an alert cannot be acknowledged or snoozed, instead of failing the click', async () => {
    const f = fakeApi({
      alerts: () => ({ data: [alert(1)], source: 'cache', fetchedAt: 0, stale: false }),
      acknowledgeAlert: () => {
        throw new ApiError('bad-argument', 'acknowledgeAlert: there is no alert 1');
      },
      snoozeAlert: () => {
        throw new ApiError('network', 'Tidewatch cannot be reached.');
      },
    });
    setApi(f.api);
    const store = useAlertsStore();
    store.start();
    await new Promise((r) => setTimeout(r, 0));
    await store.acknowledge(1);
    expect(store.error).toBe(
      'The alert could not be acknowledged: There is no alert 1. Reload the list (Retry) and try again.',
    );
    await store.snooze(1, 5);
    expect(store.error).toBe(
      'The alert could not be snoozed: Tidewatch cannot be reached. Reload the list (Retry) and try again.',
    );
    expect(store.open.map((a) => a.id)).toEqual([1]);
    await store.load();
    expect(store.error).toBeUndefined();
  });

  it('keeps every alert the store could not save (id 0) through a reload, until dismissed', async () => {
    const f = fakeApi({ alerts: () => ({ data: [alert(1)], source: 'cache', fetchedAt: 0, stale: false }) });
    setApi(f.api);
    const store = useAlertsStore();
    store.start();
    await new Promise((r) => setTimeout(r, 0));
    const full = alert(0, { rule: 'store-write', title: 'Tidewatch cannot save data', created_at: 5 });
    const liquidated = alert(0, { created_at: 6 });
    f.push('alerts', [full]);
    f.push('alerts', [liquidated]);
    expect(store.alerts.map((a) => [a.id, a.title])).toEqual([
      [0, 'Liquidated'],
      [0, 'Tidewatch cannot save data'],
      [1, 'Liquidated'],
    ]);
    await store.load();
    expect(store.alerts.map((a) => [a.id, a.created_at])).toEqual([
      [0, 6],
      [0, 5],
      [1, 1],
    ]);
    store.dismiss(store.alerts[0]!);
    expect(store.alerts.map((a) => [a.id, a.created_at])).toEqual([
      [0, 5],
      [1, 1],
    ]);
    expect(f.calls.every(([m]) => m === 'alerts')).toBe(true);
  });
});
