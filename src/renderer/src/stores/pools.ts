import { defineStore } from 'pinia';
import { computed, ref } from 'vue';
import type { Pool } from '../../../shared/api';
import { useApi } from '../api';

/** Pool metadata, needed by every price on screen (units.ts needs the decimals). */
export const usePoolsStore = defineStore('pools', () => {
  const pools = ref<Pool[]>([]);
  const error = ref<string>();
  let loading: Promise<void> | undefined;
  function load(): Promise<void> {
    loading ??= useApi()
      .invoke('pools', {})
      .then((r) => {
        pools.value = r.data;
        error.value = undefined;
      })
      .catch((err: Error) => {
        error.value = err.message;
        loading = undefined;
      });
    return loading;
  }
  const byName = computed(() => new Map(pools.value.map((p) => [p.pool_name, p])));
  const byId = computed(() => new Map(pools.value.map((p) => [p.pool_id, p])));
  /** Decimals of an asset type, from the pools that trade it. */
  const decimalsOf = computed(() => {
    const m = new Map<string, number>();
    for (const p of pools.value) {
      m.set(p.base_asset_id, p.base_asset_decimals);
      m.set(p.quote_asset_id, p.quote_asset_decimals);
    }
    return m;
  });
  const symbolOf = computed(() => {
    const m = new Map<string, string>();
    for (const p of pools.value) {
      m.set(p.base_asset_id, p.base_asset_symbol);
      m.set(p.quote_asset_id, p.quote_asset_symbol);
    }
    return m;
  });
  /** margin_pool_id -> asset type: the API says it only on active supplies. */
  const marginPoolAsset = ref(new Map<string, string>());
  let marginLoading: Promise<void> | undefined;
  function loadMarginPools(): Promise<void> {
    marginLoading ??= (async () => {
      const api = useApi();
      const m = new Map<string, string>();
      for (let page = 0; page < 6; page++) {
        const r = await api.invoke('activeSupplies', { page, perPage: 50 });
        for (const s of r.data.items) m.set(s.margin_pool_id, s.asset_type);
        if (r.data.isLastPage) break;
      }
      marginPoolAsset.value = m;
    })().catch(() => {
      marginLoading = undefined;
    });
    return marginLoading;
  }
  /** Decimals and symbol of a margin pool's asset, when known. */
  function marginAsset(marginPoolId: string): { decimals: number; symbol: string } | undefined {
    const type = marginPoolAsset.value.get(marginPoolId);
    if (!type) return undefined;
    const decimals = decimalsOf.value.get(type);
    return decimals === undefined
      ? undefined
      : { decimals, symbol: symbolOf.value.get(type) ?? type.split('::').pop() ?? '?' };
  }
  return { pools, error, load, byName, byId, decimalsOf, symbolOf, marginPoolAsset, loadMarginPools, marginAsset };
});
