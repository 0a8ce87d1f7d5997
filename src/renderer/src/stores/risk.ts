import { defineStore } from 'pinia';
import { ref } from 'vue';
import type { RiskReading } from '../../../shared/contract';
import { useApi } from '../api';

/** The latest risk reading per watched manager, pushed by main after every refresh. */
export const useRiskStore = defineStore('risk', () => {
  const latest = ref(new Map<string, RiskReading>());
  let started = false;
  function start(): void {
    if (started) return;
    started = true;
    useApi().subscribe('risk', ({ readings }) => {
      const next = new Map(latest.value);
      for (const r of readings) next.set(r.manager_id, r);
      latest.value = next;
    });
  }
  async function ensure(managerId: string): Promise<void> {
    if (latest.value.has(managerId)) return;
    const h = await useApi().invoke('riskHistory', { managerId });
    const last = h.data[h.data.length - 1];
    if (last) latest.value = new Map(latest.value).set(managerId, last);
  }
  return { latest, start, ensure };
});
