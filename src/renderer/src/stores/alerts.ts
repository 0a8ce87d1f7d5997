import { defineStore } from 'pinia';
import { computed, ref } from 'vue';
import type { AlertRecord } from '../../../shared/contract';
import { useApi } from '../api';
import { describeError } from '../composables/useQuery';

export const useAlertsStore = defineStore('alerts', () => {
  const alerts = ref<AlertRecord[]>([]);
  const error = ref<string>();
  const api = useApi();
  let started = false;

  async function load(): Promise<void> {
    try {
      const stored = (await api.invoke('alerts', { limit: 500 })).data;
      // Alerts the store could not save (id 0, a full disk) are only here: kept until dismissed.
      const unsaved = alerts.value.filter((a) => a.id === 0);
      alerts.value = unsaved.length === 0 ? stored : [...unsaved, ...stored].sort((a, b) => b.created_at - a.created_at);
      error.value = undefined;
    } catch (err) {
      const d = describeError(err);
      error.value = d.advice ? `${d.message} ${d.advice}` : d.message;
    }
  }
  function start(): void {
    if (started) return;
    started = true;
    void load();
    api.subscribe('alerts', (fresh) => {
      const known = new Set(alerts.value.map((a) => a.id));
      alerts.value = [...fresh.filter((a) => a.id === 0 || !known.has(a.id)), ...alerts.value].slice(0, 500);
    });
  }
  function replace(a: AlertRecord): void {
    alerts.value = alerts.value.map((x) => (x.id === a.id ? a : x));
  }
  /** Acknowledge or snooze; a failure (the app out of reach, an alert not saved yet) is said above the list, not thrown from a click. */
  async function act(verb: string, run: () => Promise<AlertRecord>): Promise<void> {
    try {
      replace(await run());
    } catch (err) {
      error.value = `The alert could not be ${verb}: ${describeError(err).message.replace(/\.$/, '')}. Reload the list (Retry) and try again.`;
    }
  }
  async function acknowledge(id: number): Promise<void> {
    await act('acknowledged', () => api.invoke('acknowledgeAlert', { id }));
  }
  async function acknowledgeAll(): Promise<number> {
    const { acknowledged } = await api.invoke('acknowledgeAllAlerts', {});
    const now = Date.now();
    alerts.value = alerts.value.map((a) => (a.acknowledged_at === null ? { ...a, acknowledged_at: now } : a));
    return acknowledged;
  }
  async function snooze(id: number, untilMs: number): Promise<void> {
    await act('snoozed', () => api.invoke('snoozeAlert', { id, untilMs }));
  }
  /** An alert the store could not save (id 0): nothing to acknowledge in the store, it is only let go here. */
  function dismiss(a: AlertRecord): void {
    alerts.value = alerts.value.filter((x) => x !== a);
  }
  const open = computed(() => alerts.value.filter((a) => a.acknowledged_at === null && (a.snoozed_until ?? 0) < Date.now()));
  return { alerts, open, error, start, load, acknowledge, acknowledgeAll, snooze, dismiss };
});
