import type { AlertRecord } from '../../shared/contract';
import { maskAmounts } from '../../shared/privacy';

/**
 * The page `tidewatch serve` serves alerts like the desktop app does: a browser
 * notification for each new warning or critical alert, a short sound for a critical one, and the
 * count to act on in the tab's title, so an alert reaches a trader whose tab is in the background.
 * In the desktop app the native notifier does all this; none of it runs there.
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
  tag: string;
  requireInteraction: boolean;
  /** Where its click goes: the position's page, or the alert on the Alerts page. */
  href: string;
}

/** What the notification of `a` says; in privacy mode the amounts of the user's own positions are masked, as on screen. */
export function noticeOf(a: AlertRecord, privacy: boolean): AlertNotice {
  const mask = privacy && a.owner !== null ? maskAmounts : (t: string) => t;
  return {
    title: mask(a.title),
    body: mask(a.message),
    tag: `tidewatch-alert-${a.id}`,
    requireInteraction: a.level === 'critical',
    href: a.manager_id ? `#/manager/${encodeURIComponent(a.manager_id)}` : a.id > 0 ? `#/alerts/${a.id}` : '#/alerts',
  };
}

/** Show `notice` as a browser notification (when allowed); its click brings the tab forward on its page. */
export function showNotice(notice: AlertNotice): Notification | undefined {
  if (typeof Notification === 'undefined' || Notification.permission !== 'granted') return undefined;
  try {
    const n = new Notification(notice.title, {
      body: notice.body,
      tag: notice.tag,
      requireInteraction: notice.requireInteraction,
    });
    n.onclick = () => {
      window.focus();
      window.location.hash = notice.href;
      n.close();
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
