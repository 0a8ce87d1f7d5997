import { onScopeDispose, ref, watch, type Ref } from 'vue';
import { Bursts } from '../../../shared/alert-notice';
import { privacy } from '../format';
import { useAlertsStore } from '../stores/alerts';
import { useSettingsStore } from '../stores/settings';
import {
  BANNER_DISMISSED_KEY,
  noticeOf,
  notifiable,
  playAlertSound,
  showNotice,
  titleFor,
  unlockAudio,
} from '../web-alerts';

export interface WebAlerts {
  /** Whether to ask for the browser's permission to notify (not yet granted nor refused, not dismissed). */
  askPermission: Ref<boolean>;
  allow(): Promise<void>;
  dismiss(): void;
}

/**
 * The browser page alerts (web-alerts.ts): wired once, from App.vue. In the desktop app
 * (`window.tidewatch`) the native notifier alerts and this does nothing.
 */
export function useWebAlerts(): WebAlerts {
  const askPermission = ref(false);
  const inert: WebAlerts = { askPermission, allow: async () => {}, dismiss: () => {} };
  if (typeof window === 'undefined' || window.tidewatch !== undefined) return inert;

  const alerts = useAlertsStore();
  const settings = useSettingsStore();
  const supported = typeof Notification !== 'undefined';
  const dismissed = (): boolean => localStorage.getItem(BANNER_DISMISSED_KEY) !== null;
  askPermission.value = supported && Notification.permission === 'default' && !dismissed();

  const stopTitle = watch(
    () => alerts.open.length,
    (n) => {
      document.title = titleFor(n);
    },
    { immediate: true },
  );
  // Each alert notifies once, by its push: not "unless the list knew it", since a reload of the list
  // (after a delivery was logged) can answer before the push of an alert it already holds.
  const notified = new Set<number>();
  // One notification per burst, replaced as it grows; one beep when it turns critical (docs/alerts.md, "On the screen and on the phone").
  const bursts = new Bursts();
  const stopListening = alerts.listen((pushed) => {
    const fresh = notifiable(pushed, notified);
    for (const a of fresh) if (a.id !== 0) notified.add(a.id);
    const burst = bursts.add(fresh);
    if (!burst) return;
    showNotice(noticeOf(burst, privacy.value), () => bursts.end());
    if (burst.rose && burst.level === 'critical' && settings.settings?.alertSound !== false) playAlertSound();
  });
  // Browsers let a page play sound only after a gesture: the first click or key readies it.
  const ready = (): void => {
    if (settings.settings?.alertSound !== false) unlockAudio();
    window.removeEventListener('pointerdown', ready);
    window.removeEventListener('keydown', ready);
  };
  window.addEventListener('pointerdown', ready);
  window.addEventListener('keydown', ready);
  onScopeDispose(() => {
    stopTitle();
    stopListening();
    window.removeEventListener('pointerdown', ready);
    window.removeEventListener('keydown', ready);
  });

  return {
    askPermission,
    async allow() {
      if (!supported) return;
      try {
        await Notification.requestPermission();
      } catch {
        // An old browser's callback form or a refusal to ask: the permission says what came of it.
      }
      // Granted or refused, the browser remembers: asking again would do nothing.
      askPermission.value = Notification.permission === 'default';
    },
    dismiss() {
      localStorage.setItem(BANNER_DISMISSED_KEY, String(Date.now()));
      askPermission.value = false;
    },
  };
}
