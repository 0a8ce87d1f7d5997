import { defineStore } from 'pinia';
import { ref, watch } from 'vue';
import type { Settings, SettingsPatch, WatchEntry, WatchGroup } from '../../../shared/contract';
import { useApi } from '../api';
import { privacy } from '../format';

/** The default thresholds main starts with (assets / debt), shown until the settings are read. */
export { DEFAULT_THRESHOLDS } from '../../../shared/portfolio';

export const useSettingsStore = defineStore('settings', () => {
  const settings = ref<Settings>();
  const watchList = ref<WatchEntry[]>([]);
  const error = ref<string>();
  const api = useApi();

  let loading: Promise<void> | undefined;
  /** Read both; a call while a read is under way shares it (the app and its first view both ask at start). */
  function load(): Promise<void> {
    loading ??= (async () => {
      try {
        [settings.value, watchList.value] = await Promise.all([
          api.invoke('settings', {}),
          api.invoke('watchList', {}),
        ]);
        error.value = undefined;
      } catch (err) {
        error.value = (err as Error).message;
      } finally {
        loading = undefined;
      }
    })();
    return loading;
  }
  async function update(patch: SettingsPatch): Promise<void> {
    settings.value = await api.invoke('updateSettings', patch);
  }
  async function setApiKey(key: string | null): Promise<void> {
    settings.value = await api.invoke('setApiKey', { apiKey: key });
  }
  /** The stream key (`pool` null) or one pool's own; null removes it. */
  async function setStreamKey(pool: string | null, key: string | null): Promise<void> {
    settings.value = await api.invoke('setStreamKey', { pool, streamKey: key });
  }
  async function addWatch(owner: string, label?: string, group?: WatchGroup): Promise<void> {
    watchList.value = await api.invoke('addWatch', { owner, label, ...(group ? { group } : {}) });
  }
  /** Label a watched wallet (empty: none) or move it to another group. */
  async function updateWatch(owner: string, change: { label?: string | null; group?: WatchGroup }): Promise<void> {
    watchList.value = await api.invoke('updateWatch', { owner, ...change });
  }
  async function removeWatch(owner: string): Promise<void> {
    watchList.value = await api.invoke('removeWatch', { owner });
  }
  watch(settings, (s) => {
    if (s) privacy.value = s.privacyMode;
  });
  return { settings, watchList, error, load, update, setApiKey, setStreamKey, addWatch, updateWatch, removeWatch };
});
