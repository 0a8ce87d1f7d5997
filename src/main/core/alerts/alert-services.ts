import type { AlertRecord } from '../../../shared/contract';
import { Notifier, type NotifierDeps } from '../notify/notifier';
import { SightWatch, type SightState } from '../notify/sight';
import type { Store } from '../store/store';
import type { StoreHealth } from '../store/store-health';
import { AlertEngine } from './alert-engine';

export interface AlertServicesDeps {
  store: Pick<Store, 'risk' | 'settings'>;
  storeHealth: Pick<StoreHealth, 'note' | 'guard'>;
  /** How long a threshold alert stays quiet after it fired (Settings, at start). */
  cooldownMs: number;
  /** Alerts raised or changed: the page's subscription. */
  publish: (alerts: AlertRecord[]) => void;
  /** The channels and what a message may show. */
  channels: Pick<NotifierDeps, 'stored' | 'file' | 'privacy' | 'publicUrl'>;
  /** What the monitor sees now, for the blind alarm (whether a channel reaches the trader is the notifier's). */
  sight: () => Omit<SightState, 'noChannel'>;
  /** Which alert channels are not reached changed: the status shows it. */
  onReachChanged?: () => void;
  /** The alert channels' clock (tests). */
  now?: () => number;
  fetch?: typeof fetch;
  log: (line: string) => void;
  redact: (text: string) => string;
}

/**
 * The alert room, built and wired: the engine that raises alerts and keeps each position's level
 * (alerts/alert-engine.ts), the notifier that carries them away from the desk (notify/), and the
 * monitor watching itself, whose blind alarm and all-clear go out as alerts.
 */
export class AlertServices {
  readonly engine: AlertEngine;
  /** Alerts away from the desk: channels, outbox, escalation. */
  readonly notify: Notifier;
  /** The blind alarm and the heartbeat. */
  readonly sight: SightWatch;

  constructor(d: AlertServicesDeps) {
    const { risk, settings } = d.store;
    this.engine = new AlertEngine(risk, d.publish, d.cooldownMs, (err) => d.storeHealth.note(err, 'alerts'), {
      load: () => settings.get('risk.levels'),
      save: (s) => d.storeHealth.guard(() => settings.set('risk.levels', s)),
    });
    this.notify = new Notifier({
      ...d.channels,
      repo: risk,
      onAlertsChanged: d.publish,
      onReachChanged: d.onReachChanged,
      now: d.now,
      fetch: d.fetch,
      log: d.log,
      redact: d.redact,
    });
    this.sight = new SightWatch({
      // An alarm no channel can carry is blindness too: the heartbeat stops, so a service outside tells.
      state: () => ({ ...d.sight(), noChannel: this.notify.reach.noneReaches() }),
      config: () => this.notify.config(),
      // The store refusing writes is one way to go blind: then the alarm goes out without the outbox.
      blind: (since, reasons, now) => this.notify.deliverUnstored(this.engine.onBlind(since, reasons, now)),
      back: (since, now) => this.notify.deliverUnstored(this.engine.onSight(since, now)),
      fetch: d.fetch,
      log: d.log,
    });
  }

  /** Send what the outbox holds, escalate, and start judging sight. */
  start(): void {
    this.notify.start();
    this.sight.start();
  }

  close(): void {
    this.notify.close();
    this.sight.close();
  }
}
