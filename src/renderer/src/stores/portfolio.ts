import { defineStore } from 'pinia';
import { computed, ref, shallowRef } from 'vue';
import type { PortfolioSummary, PositionSummary, QueryResult } from '../../../shared/contract';
import { useApi } from '../api';
import { describeError } from '../composables/useQuery';
import { useSettingsStore } from './settings';

/**
 * The watched wallets in money (one call, then pushed by main after every risk refresh), and
 * what is the user's own: the privacy rule masks amounts of these owners and managers only.
 */
export const usePortfolioStore = defineStore('portfolio', () => {
  const summary = shallowRef<PortfolioSummary>();
  const meta = ref<Omit<QueryResult<unknown>, 'data'>>();
  const loading = ref(false);
  const error = ref<{ message: string; advice?: string }>();
  const settings = useSettingsStore();
  let subscribed = false;

  async function load(): Promise<void> {
    const api = useApi();
    if (!subscribed) {
      subscribed = true;
      api.subscribe('risk', (push) => {
        if (!push.portfolio) return;
        summary.value = push.portfolio;
        meta.value = { source: 'network', fetchedAt: push.portfolio.computed_at, stale: false };
        // A first reading that outlasted the call (a slow service) arrives here: it answers the error.
        error.value = undefined;
      });
    }
    loading.value = true;
    try {
      const r = await api.invoke('portfolio', {});
      // A push of a newer snapshot may have overtaken the answer (another connection): the newer one stays.
      if (!summary.value || r.data.computed_at >= summary.value.computed_at) {
        summary.value = r.data;
        meta.value = { source: r.source, fetchedAt: r.fetchedAt, stale: r.stale, error: r.error };
      }
      error.value = undefined;
    } catch (err) {
      error.value = describeError(err);
    } finally {
      loading.value = false;
    }
  }

  const positions = computed(
    () =>
      new Map<string, PositionSummary>(
        (summary.value?.wallets ?? []).flatMap((w) => w.positions.map((p) => [p.manager_id, p])),
      ),
  );
  const ownOwners = computed(() => new Set(settings.watchList.map((w) => w.owner)));
  /** Whether an amount belongs to the user (masked in privacy mode). */
  function isOwn(owner?: string | null, managerId?: string | null): boolean {
    return (!!owner && ownOwners.value.has(owner)) || (!!managerId && positions.value.has(managerId));
  }
  return { summary, meta, loading, error, load, positions, isOwn };
});
