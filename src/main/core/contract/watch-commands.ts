import { ContractArgumentError, type ContractResults } from '../../../shared/contract';
import { shortIdText } from '../../../shared/format';
import type { ContractContext, Handlers } from './context';

type WatchCommands =
  'watchList' | 'addWatch' | 'updateWatch' | 'removeWatch' | 'thresholds' | 'setThreshold' | 'clearThreshold';

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
      const list = c.watch.add(a.owner, a.label ?? null, a.group ?? null);
      c.risk.forget();
      void c.risk.refresh();
      return list;
    },
    updateWatch: (a) => {
      const list = c.watch.update(a.owner, {
        ...(a.label !== undefined ? { label: a.label === '' ? null : a.label } : {}),
        ...(a.group !== undefined ? { group: a.group } : {}),
      });
      if (!list)
        throw new ContractArgumentError(
          `updateWatch: owner: not on the watch list (${shortIdText(a.owner)}), so nothing was changed`,
          'Add the wallet to the watch list first, then label it or choose its group.',
        );
      // The Portfolio names a wallet by its label: valued again from what is kept, no read.
      void c.risk.revalue();
      return list;
    },
    removeWatch: (a) => {
      const list = c.watch.remove(a.owner);
      c.risk.forget();
      return list;
    },
    thresholds,
    setThreshold: (a) => {
      // Only a manager of a watched wallet is ever judged by thresholds: one of any other id
      // (a typo, another wallet's) would be saved and never used, a false comfort.
      if (!c.watch.managers.has(a.managerId))
        throw new ContractArgumentError(
          `setThreshold: managerId: not a manager of a watched wallet (${shortIdText(a.managerId)}), so nothing was saved`,
          'Watch the wallet that owns it on the Portfolio page, wait for its positions to show, then set its thresholds.',
        );
      c.stored.setThreshold(a.managerId, { warning: a.warning, critical: a.critical });
      return thresholds();
    },
    clearThreshold: (a) => {
      c.stored.clearThreshold(a.managerId);
      return thresholds();
    },
  };
}
