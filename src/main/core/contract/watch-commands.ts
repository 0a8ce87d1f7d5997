import type { ContractResults } from '../../../shared/contract';
import type { ContractContext, Handlers } from './context';

type WatchCommands = 'watchList' | 'addWatch' | 'removeWatch' | 'thresholds' | 'setThreshold' | 'clearThreshold';

/** The watch list and the per-manager thresholds: a change is valued again at once. */
export function watchCommands(
  c: Pick<ContractContext, 'watch' | 'risk' | 'stored' | 'settings'>,
): Handlers<WatchCommands> {
  const thresholds = (): ContractResults['thresholds'] => {
    const s = c.settings.effective();
    return { defaults: { warning: s.warningRatio, critical: s.criticalRatio }, perManager: c.stored.thresholds() };
  };
  return {
    watchList: () => c.watch.list(),
    addWatch: (a) => {
      const list = c.watch.add(a.owner, a.label ?? null);
      c.risk.forget();
      void c.risk.refresh();
      return list;
    },
    removeWatch: (a) => {
      const list = c.watch.remove(a.owner);
      c.risk.forget();
      return list;
    },
    thresholds,
    setThreshold: (a) => {
      c.stored.setThreshold(a.managerId, { warning: a.warning, critical: a.critical });
      return thresholds();
    },
    clearThreshold: (a) => {
      c.stored.clearThreshold(a.managerId);
      return thresholds();
    },
  };
}
