import { Notification } from 'electron';
import type { AlertRecord } from '../../shared/contract';
import { Bursts, burstText, byPosition } from '../../shared/alert-notice';
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
 * (its level, rules and quiet hours as configured). One notification per burst (an alert within
 * 30 s of the previous one, at most 5 minutes: docs/alerts.md, "On the screen and on the phone"),
 * shown again in place as the burst grows: one alert's title and its action, or the summary
 * title and the worst first. It sounds when the burst starts and again only when its level rises.
 * A click opens the window on the alert (on the Alerts page for several) and ends the burst;
 * while paused from the tray nothing is shown here (the alerts are still stored and listed, and
 * the other channels, the phone's, keep sending).
 */
export class AlertNotifier {
  pausedUntil: number | null = null;
  private readonly bursts: Bursts;
  /** The current burst's notification (kept: Electron drops a collected one's click) and what its click opens. */
  private current: { key: string; n: Notification; target: AlertRecord | null } | null = null;

  constructor(
    /** A click: the one alert (or one position's worst) it showed, or null for several. */
    private readonly onClick: (alert: AlertRecord | null) => void,
    private readonly now: () => number = Date.now,
    /** Privacy mode: the amounts of the user's own positions are masked on screen, and here too. */
    private readonly privacy: () => boolean = () => false,
    /** Whether the desktop channel carries an alert (its level, rules, quiet hours: notify/notifier.ts). */
    private readonly carries: (alert: AlertRecord) => boolean = (a) => SHOWN_RULES.has(a.rule) && a.level !== 'info',
  ) {
    this.bursts = new Bursts(now);
  }

  pause(forMs: number | 'tomorrow' | null): void {
    this.pausedUntil = forMs === null ? null : forMs === 'tomorrow' ? tomorrowAt0(this.now()) : this.now() + forMs;
  }

  get paused(): boolean {
    return this.pausedUntil !== null && this.pausedUntil > this.now();
  }

  /** Returns the burst's notification, shown (or shown again, replacing itself), or null when nothing was shown. */
  notify(alerts: readonly AlertRecord[]): Notification | null {
    if (this.paused || !Notification.isSupported()) return null;
    const burst = this.bursts.add(
      alerts.filter(
        (a) =>
          this.carries(a) && a.acknowledged_at === null && (a.snoozed_until === null || a.snoozed_until <= this.now()),
      ),
    );
    if (!burst) return null;
    const privacy = this.privacy();
    const masked = burst.alerts.map((a) =>
      privacy && a.owner !== null ? { ...a, title: maskAmounts(a.title), message: maskAmounts(a.message) } : a,
    );
    const { title, body } = burstText(masked);
    const groups = byPosition(burst.alerts);
    const target = groups.length === 1 ? groups[0]! : null;
    const critical = burst.level === 'critical';
    const options = {
      title,
      body,
      urgency: critical ? ('critical' as const) : ('normal' as const),
      timeoutType: critical ? ('never' as const) : ('default' as const),
      silent: !burst.rose,
    };
    if (this.current?.key === burst.key) {
      // The same object shown again: Electron dismisses the one shown and posts it anew (and, by its id, macOS and Windows replace it).
      const n = this.current.n;
      Object.assign(n, options);
      this.current.target = target;
      n.show();
      return n;
    }
    const n = new Notification({ id: burst.key, ...options });
    const shown = { key: burst.key, n, target };
    n.on('click', () => {
      if (this.current === shown) this.bursts.end();
      this.onClick(shown.target);
    });
    this.current = shown;
    n.show();
    return n;
  }
}
