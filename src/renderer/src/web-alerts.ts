import type { AlertRecord } from '../../shared/contract';
import { burstText, byPosition, levelOf, type BurstUpdate } from '../../shared/alert-notice';
import { maskAmounts } from '../../shared/privacy';

/**
 * The page `tidewatch serve` serves alerts like the desktop app does: one browser notification
 * per burst of new warning or critical alerts, replaced as the burst grows, a short sound when a
 * burst turns critical, and the count to act on in the tab's title, so an alert reaches a trader
 * whose tab is in the background. In the desktop app the native notifier does all this; none of it runs there.
 */

/** Where a dismissal of the "allow notifications" banner is remembered. */
export const BANNER_DISMISSED_KEY = 'tidewatch.notifyBannerDismissed';

/**
 * The alerts of a push that deserve a notification: not notified before (`known`), warning or
 * critical, not acknowledged (a push of an acknowledgement through a phone's link), not snoozed.
 */
export function notifiable(
  pushed: readonly AlertRecord[],
  known: ReadonlySet<number>,
  now = Date.now(),
): AlertRecord[] {
  return pushed.filter(
    (a) =>
      (a.level === 'warning' || a.level === 'critical') &&
      a.acknowledged_at === null &&
      (a.snoozed_until ?? 0) <= now &&
      (a.id === 0 || !known.has(a.id)),
  );
}

/** "(3) Tidewatch", plain "Tidewatch" when nothing is to act on. */
export function titleFor(open: number): string {
  return open > 0 ? `(${open}) Tidewatch` : 'Tidewatch';
}

export interface AlertNotice {
  title: string;
  body: string;
  /** The burst's: the browser replaces the notification of the same tag as the burst grows. */
  tag: string;
  /** Alert again on replacing it: only when the burst's level rose. */
  renotify: boolean;
  requireInteraction: boolean;
  /** Where its click goes: the position's page, the alert on the Alerts page, or the Alerts page for several. */
  href: string;
}

/**
 * What the one notification of a burst says (docs/alerts.md, "On the screen and on the phone"):
 * one alert's title and its action, or the summary title and the worst first. In privacy mode the
 * amounts of the user's own positions are masked, as on screen.
 */
export function noticeOf(
  burst: Pick<BurstUpdate, 'key' | 'alerts' | 'started' | 'rose'>,
  privacy: boolean,
): AlertNotice {
  const alerts = burst.alerts.map((a) =>
    privacy && a.owner !== null ? { ...a, title: maskAmounts(a.title), message: maskAmounts(a.message) } : a,
  );
  const { title, body } = burstText(alerts);
  const groups = byPosition(alerts);
  const one = groups.length === 1 ? groups[0]! : null;
  return {
    title,
    body,
    tag: burst.key,
    renotify: burst.rose && !burst.started,
    requireInteraction: levelOf(alerts) === 'critical',
    href: !one
      ? '#/alerts'
      : one.manager_id
        ? `#/manager/${encodeURIComponent(one.manager_id)}`
        : one.id > 0
          ? `#/alerts/${one.id}`
          : '#/alerts',
  };
}

/** Show `notice` as a browser notification (when allowed); its click brings the tab forward on its page. */
export function showNotice(notice: AlertNotice, onClick: () => void = () => {}): Notification | undefined {
  if (typeof Notification === 'undefined' || Notification.permission !== 'granted') return undefined;
  try {
    // `renotify` is Chrome's and Edge's (not yet in TypeScript's DOM types); others ignore it.
    const options: NotificationOptions & { renotify: boolean } = {
      body: notice.body,
      tag: notice.tag,
      renotify: notice.renotify,
      requireInteraction: notice.requireInteraction,
    };
    const n = new Notification(notice.title, options);
    n.onclick = () => {
      window.focus();
      window.location.hash = notice.href;
      n.close();
      onClick();
    };
    return n;
  } catch {
    // A browser that shows notifications only from a service worker (Chrome on Android): the title still counts.
    return undefined;
  }
}

let audio: AudioContext | undefined;

/** The page's audio, made on a user's gesture so a later alert may play (browsers hold audio until one). */
export function unlockAudio(): void {
  if (typeof AudioContext === 'undefined') return;
  try {
    audio ??= new AudioContext();
    if (audio.state === 'suspended') void audio.resume().catch(() => {});
  } catch {
    audio = undefined;
  }
}

/** A two-tone beep (~0.4 s), made by Web Audio: no file to load. Silent where the browser holds audio back. */
export function playAlertSound(): void {
  unlockAudio();
  const ctx = audio;
  if (!ctx) return;
  try {
    const t0 = ctx.currentTime + 0.01;
    const gain = ctx.createGain();
    gain.connect(ctx.destination);
    gain.gain.setValueAtTime(0.0001, t0);
    for (const [i, hz] of [880, 660].entries()) {
      const start = t0 + i * 0.2;
      const osc = ctx.createOscillator();
      osc.type = 'sine';
      osc.frequency.setValueAtTime(hz, start);
      gain.gain.exponentialRampToValueAtTime(0.25, start + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, start + 0.19);
      osc.connect(gain);
      osc.start(start);
      osc.stop(start + 0.2);
    }
  } catch {
    // No sound is no reason to miss the notification.
  }
}
