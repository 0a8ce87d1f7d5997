import { ContractArgumentError } from '../../../shared/contract';
import { NotifyConfigError } from '../notify/config';
import type { ContractContext, Handlers } from './context';

type AlertCommands =
  | 'acknowledgeAlert'
  | 'snoozeAlert'
  | 'acknowledgeAllAlerts'
  | 'notifyChannels'
  | 'saveNotifyChannel'
  | 'removeNotifyChannel'
  | 'updateNotifyOptions'
  | 'notifyTest';

/** Acknowledging and snoozing alerts, and the channels that carry them away from the desk. */
export function alertCommands(c: Pick<ContractContext, 'alerts' | 'notify'>): Handlers<AlertCommands> {
  return {
    acknowledgeAlert: (a) => {
      const r = c.alerts.acknowledge(a.id);
      if (!r) throw new ContractArgumentError(`acknowledgeAlert: there is no alert ${a.id}`);
      return r;
    },
    snoozeAlert: (a) => {
      const r = c.alerts.snooze(a.id, a.untilMs);
      if (!r) throw new ContractArgumentError(`snoozeAlert: there is no alert ${a.id}`);
      return r;
    },
    acknowledgeAllAlerts: () => ({ acknowledged: c.alerts.acknowledgeAll() }),
    notifyChannels: () => c.notify.view(),
    saveNotifyChannel: (a) => channelChange('saveNotifyChannel', () => c.notify.saveChannel(a.channel, a.replaces)),
    removeNotifyChannel: (a) => channelChange('removeNotifyChannel', () => c.notify.removeChannel(a.name)),
    updateNotifyOptions: (a) => channelChange('updateNotifyOptions', () => c.notify.updateOptions(a)),
    notifyTest: async (a) => ({ results: await channelChange('notifyTest', () => c.notify.test(a.channel)) }),
  };
}

/** A channel setting that cannot be used answers as a bad argument, in the config's words. */
function channelChange<T>(method: string, change: () => T): T {
  const asArgument = (err: unknown): unknown =>
    err instanceof RangeError || err instanceof NotifyConfigError
      ? new ContractArgumentError(`${method}: ${err.message}`)
      : err;
  try {
    const r = change();
    return (r instanceof Promise ? r.catch((err: unknown) => Promise.reject(asArgument(err))) : r) as T;
  } catch (err) {
    throw asArgument(err);
  }
}
