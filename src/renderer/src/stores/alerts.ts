import { defineStore } from 'pinia';
import { computed, ref } from 'vue';
import type { AlertRecord } from '../../../shared/contract';
import { useApi } from '../api';
import { describeError } from '../composables/useQuery';

/** What a push brought: the alerts, and the ids the list knew before it (a known id is a change, not a new alert). */
export type PushListener = (pushed: readonly AlertRecord[], known: ReadonlySet<number>) => void;

/** A delivery logged (an empty push) re-reads the list this long after the last one, while the page shows it. */
export const DELIVERY_RELOAD_MS = 1000;

export const useAlertsStore = defineStore('alerts', () => {
  const alerts = ref<AlertRecord[]>([]);
  const error = ref<string>();
  const api = useApi();
  let started = false;
  const pushListeners = new Set<PushListener>();
  /** Views that show the delivery log (the Alerts page): a logged delivery is read only while one is open. */
  let logViewers = 0;
  let reload: ReturnType<typeof setTimeout> | undefined;

  async function load(): Promise<void> {
    try {
      const stored = (await api.invoke('alerts', { limit: 500 })).data;
      // Alerts the store could not save (id 0, a full disk) are only here: kept until dismissed.
      const unsaved = alerts.value.filter((a) => a.id === 0);
      alerts.value =
        unsaved.length === 0 ? stored : [...unsaved, ...stored].sort((a, b) => b.created_at - a.created_at);
      error.value = undefined;
    } catch (err) {
      const d = describeError(err);
      error.value = d.advice ? `${d.message} ${d.advice}` : d.message;
    }
  }
  /**
   * The `alerts` topic: new alerts go first; a known id comes again when it changed (acknowledged
   * through a link in a phone message) and replaces the one shown, keeping its delivery log (pushes
   * carry none); an empty push says a delivery was logged: the list is read again, once a burst settles.
   */
  function onPush(fresh: AlertRecord[]): void {
    if (fresh.length === 0) {
      if (logViewers > 0) {
        clearTimeout(reload);
        reload = setTimeout(() => void load(), DELIVERY_RELOAD_MS);
      }
      return;
    }
    const known = new Set(alerts.value.map((a) => a.id));
    const changed = new Map(fresh.filter((a) => a.id !== 0 && known.has(a.id)).map((a) => [a.id, a]));
    const merged =
      changed.size === 0
        ? alerts.value
        : alerts.value.map((x) => {
            const c = changed.get(x.id);
            return c ? { ...c, deliveries: c.deliveries ?? x.deliveries } : x;
          });
    const added = fresh.filter((a) => a.id === 0 || !known.has(a.id));
    alerts.value = [...added, ...merged].slice(0, 500);
    for (const l of pushListeners) l(fresh, known);
  }
  function start(): void {
    if (started) return;
    started = true;
    void load();
    api.subscribe('alerts', onPush);
  }
  /** Called with every push of alerts once the store has taken it in; returns the disposer. */
  function listen(l: PushListener): () => void {
    pushListeners.add(l);
    return () => pushListeners.delete(l);
  }
  /** The Alerts page is open: logged deliveries are read as they come; returns the disposer. */
  function watchDeliveries(): () => void {
    logViewers++;
    let done = false;
    return () => {
      if (done) return;
      done = true;
      logViewers--;
      if (logViewers === 0) clearTimeout(reload);
    };
  }
  function replace(a: AlertRecord): void {
    alerts.value = alerts.value.map((x) => (x.id === a.id ? { ...a, deliveries: a.deliveries ?? x.deliveries } : x));
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
  /** Every alert of a thread, one call each (the contract acknowledges one alert or all). */
  async function acknowledgeMany(ids: readonly number[]): Promise<void> {
    await Promise.all(ids.map((id) => acknowledge(id)));
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
  const open = computed(() =>
    alerts.value.filter((a) => a.acknowledged_at === null && (a.snoozed_until ?? 0) < Date.now()),
  );
  return {
    alerts,
    open,
    error,
    start,
    load,
    listen,
    watchDeliveries,
    acknowledge,
    acknowledgeMany,
    acknowledgeAll,
    snooze,
    dismiss,
  };
});
