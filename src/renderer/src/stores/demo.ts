import { defineStore } from 'pinia';
import { ref } from 'vue';
import type { DemoOwnerHint } from '../../../shared/contract';
import { useApi } from '../api';

/** On the Demo network, owners worth a look (empty on a real service): the empty states offer them. */
export const useDemoStore = defineStore('demo', () => {
  const owners = ref<DemoOwnerHint[]>([]);
  let loading: Promise<void> | undefined;
  function load(): Promise<void> {
    loading ??= useApi()
      .invoke('demoHints', {})
      .then((r) => {
        owners.value = r.owners;
      })
      .catch(() => {
        loading = undefined;
      });
    return loading;
  }
  /** "165 NFTs, 2 Kiosks, 3 loans" */
  function holds(o: DemoOwnerHint): string {
    const parts = [
      o.nfts ? `${o.nfts} NFT${o.nfts === 1 ? '' : 's'}` : '',
      o.kiosks ? `${o.kiosks} Kiosk${o.kiosks === 1 ? '' : 's'}` : '',
      o.loans
        ? `${o.loans} loan${o.loans === 1 ? '' : 's'}`
        : o.managers
          ? `${o.managers} manager${o.managers === 1 ? '' : 's'}`
          : '',
    ];
    return parts.filter(Boolean).join(', ');
  }
  return { owners, load, holds };
});
