import { defineStore } from 'pinia';
import { computed, ref } from 'vue';
import type { StatusSnapshot } from '../../../shared/contract';
import { useApi } from '../api';

/** Streams, online state and the store notice, pushed by main. */
export const useStatusStore = defineStore('status', () => {
  const snapshot = ref<StatusSnapshot>();
  let started = false;
  function start(): void {
    if (started) return;
    started = true;
    const api = useApi();
    api.subscribe('status', (s) => (snapshot.value = s));
    void api
      .invoke('streamStatus', {})
      .then((s) => (snapshot.value = s))
      .catch(() => {});
  }
  const offline = computed(() => snapshot.value !== undefined && !snapshot.value.online);
  /** Reconnect every stream now (a key that works again, or no wish to wait out a backoff). */
  async function retryNow(): Promise<void> {
    snapshot.value = await useApi().invoke('retryStreams', {});
  }
  return { snapshot, offline, start, retryNow };
});
