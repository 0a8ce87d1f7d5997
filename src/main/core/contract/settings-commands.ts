import { ContractArgumentError, type Settings } from '../../../shared/contract';
import { localZone } from '../../../shared/zones';
import type { ContractContext, Handlers } from './context';

type SettingsCommands =
  | 'settings'
  | 'updateSettings'
  | 'setApiKey'
  | 'setStreamKey'
  | 'streamStatus'
  | 'creditForecast'
  | 'retryStreams'
  | 'demoHints';

/**
 * The settings as the page reads them: a digest set before its zone was kept names the zone it is
 * applied on, this machine's (the digest schedule's), as a channel's quiet hours do.
 */
function shown<S extends Settings>(s: S): S {
  return s.digestAt !== null && s.digestZone === null ? { ...s, digestZone: localZone() } : s;
}

/** Settings and keys (each change points the client and the streams at them), the status, the forecast. */
export function settingsCommands(
  c: Pick<
    ContractContext,
    'settings' | 'reconfigure' | 'retryStreams' | 'status' | 'forecast' | 'demoHints' | 'notify'
  >,
): Handlers<SettingsCommands> {
  return {
    settings: () => shown(c.settings.effective()),
    updateSettings: (a) => {
      // A digest sent to a channel that does not exist would go nowhere without a word.
      const unknown = (a.digestChannels ?? []).filter((n) => !c.notify.channels().some((ch) => ch.name === n));
      if (unknown.length > 0) {
        const names = c.notify
          .channels()
          .filter((ch) => ch.type !== 'desktop')
          .map((ch) => ch.name);
        throw new ContractArgumentError(
          `updateSettings: no notification channel is named ${unknown.map((n) => `"${n}"`).join(', ')}. ` +
            (names.length > 0
              ? `Pick the digest's channels from: ${names.join(', ')}.`
              : 'Add a phone, e-mail or webhook channel under Notifications first.'),
        );
      }
      try {
        c.settings.update(a);
      } catch (err) {
        throw new ContractArgumentError(`updateSettings: ${(err as Error).message}`);
      }
      c.reconfigure();
      return shown(c.settings.effective());
    },
    setApiKey: (a) => {
      c.settings.setApiKey(a.apiKey);
      c.reconfigure();
      // Even the same key again: the user says it is valid now (a plan renewed, a key re-enabled).
      c.retryStreams();
      return shown(c.settings.effective());
    },
    setStreamKey: (a) => {
      c.settings.setStreamKey(a.pool, a.streamKey);
      c.reconfigure();
      c.retryStreams();
      return shown(c.settings.effective());
    },
    streamStatus: () => c.status(),
    creditForecast: (a) => c.forecast(a.preview),
    retryStreams: () => {
      c.retryStreams();
      return c.status();
    },
    demoHints: () => ({ owners: c.demoHints().slice(0, 12) }),
  };
}
