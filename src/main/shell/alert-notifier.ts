import { Notification } from 'electron';
import type { AlertRecord } from '../../shared/contract';
import { maskAmounts } from '../../shared/privacy';

const SHOWN_RULES = new Set<AlertRecord['rule']>(['liquidation', 'risk-threshold', 'stream-auth', 'large-liquidation']);

/** The next local midnight after `now`. */
export function tomorrowAt0(now: number): number {
  const d = new Date(now);
  d.setHours(24, 0, 0, 0);
  return d.getTime();
}

/**
 * Native notifications from the core's alerts: liquidations of watched managers, threshold
 * crossings, a stream stopped because the key was rejected, the blind alarm: the desktop channel
 * (its level, rules and quiet hours as configured). A click opens the window on the alert; while
 * paused from the tray nothing is shown here (the alerts are still stored and listed, and the
 * other channels, the phone's, keep sending).
 */
export class AlertNotifier {
  pausedUntil: number | null = null;

  constructor(
    private readonly onClick: (alert: AlertRecord) => void,
    private readonly now: () => number = Date.now,
    /** Privacy mode: the amounts of the user's own positions are masked on screen, and here too. */
    private readonly privacy: () => boolean = () => false,
    /** Whether the desktop channel carries an alert (its level, rules, quiet hours: notify/notifier.ts). */
    private readonly carries: (alert: AlertRecord) => boolean = (a) => SHOWN_RULES.has(a.rule) && a.level !== 'info',
  ) {}

  pause(forMs: number | 'tomorrow' | null): void {
    this.pausedUntil = forMs === null ? null : forMs === 'tomorrow' ? tomorrowAt0(this.now()) : this.now() + forMs;
  }

  get paused(): boolean {
    return this.pausedUntil !== null && this.pausedUntil > this.now();
  }

  /** Returns the notifications shown. */
  notify(alerts: readonly AlertRecord[]): Notification[] {
    if (this.paused || !Notification.isSupported()) return [];
    const shown: Notification[] = [];
    for (const a of alerts) {
      if (!this.carries(a) || a.acknowledged_at !== null) continue;
      if (a.snoozed_until !== null && a.snoozed_until > this.now()) continue;
      const n = new Notification({
        title: a.title,
        body: this.privacy() && a.owner !== null ? maskAmounts(a.message) : a.message,
        urgency: a.level === 'critical' ? 'critical' : 'normal',
        timeoutType: a.level === 'critical' ? 'never' : 'default',
      });
      n.on('click', () => this.onClick(a));
      n.show();
      shown.push(n);
    }
    return shown;
  }
}
