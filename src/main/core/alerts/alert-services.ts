import type { AlertRecord, GroupRule } from '../../../shared/contract';
import type { CoreBus } from '../events';
import { Notifier, type NotifierDeps } from '../notify/notifier';
import type { Store } from '../store/store';
import type { StoreHealth } from '../store/store-health';
import { AlertEngine } from './alert-engine';

export interface AlertServicesDeps {
  store: Pick<Store, 'risk' | 'settings'>;
  storeHealth: Pick<StoreHealth, 'note' | 'guard'>;
  /** How long a threshold alert stays quiet after it fired (Settings, at start). */
  cooldownMs: number;
  /** The channels and what a message may show. */
  channels: Pick<NotifierDeps, 'stored' | 'file' | 'privacy' | 'publicUrl' | 'digestChannels'>;
  /** The rule of the watch-list group a wallet is in (Settings `groupRules`; `alert` when it is in none). */
  groupRule?: (owner: string) => GroupRule;
  /** Settings `dustDebtUsd`: positions owing less alert at level info only; null: none is dust. */
  dustUsd?: () => number | null;
  events: CoreBus;
  /** The alert channels' clock (tests). */
  now?: () => number;
  fetch?: typeof fetch;
  log: (line: string) => void;
  redact: (text: string) => string;
}

/**
 * The alert room, built and wired: the notifier that carries alerts away from the desk (notify/:
 * the router the alert repository asks for each alert it stores, wired here with
 * `RiskAlertRepo.routeWith` before anything can raise one; the outbox worker; the escalation), then
 * the engine that raises alerts and keeps each position's level
 * (alerts/alert-engine.ts). The blind alarm (notify/sight.ts) reads every room, so the monitor
 * builds it once they all are.
 */
export class AlertServices {
  /** Alerts away from the desk: channels, router, outbox, escalation. */
  readonly notify: Notifier;
  readonly engine: AlertEngine;

  constructor(d: AlertServicesDeps) {
    const { risk, settings } = d.store;
    const groupRule = d.groupRule ?? ((): GroupRule => 'alert');
    this.notify = new Notifier({
      ...d.channels,
      digestOnly: (a) => digestOnly(a, groupRule),
      repo: risk,
      events: d.events,
      now: d.now,
      fetch: d.fetch,
      log: d.log,
      redact: d.redact,
    });
    // Every alert stored from here on is queued, in its transaction, for the channels the router names.
    risk.routeWith(this.notify.router);
    this.engine = new AlertEngine(
      risk,
      d.events,
      d.cooldownMs,
      (err) => d.storeHealth.note(err, 'alerts'),
      {
        load: () => settings.get('risk.levels'),
        save: (s) => d.storeHealth.guard(() => settings.set('risk.levels', s)),
      },
      {
        load: () => settings.get('rates.levels'),
        save: (s) => d.storeHealth.guard(() => settings.set('rates.levels', s)),
      },
      groupRule,
      d.dustUsd,
    );
  }

  /** Send what the outbox holds, and escalate. */
  start(): void {
    this.notify.start();
  }

  close(): void {
    this.notify.close();
  }
}

/** Rules about a position of a watched wallet: its group's rule decides where they go. */
const POSITION_RULES = new Set<AlertRecord['rule']>(['risk-threshold', 'recovered', 'liquidation', 'interest']);

/** Whether an alert is for the Alerts page and the digest only: a position of a wallet whose group's rule is info. */
export function digestOnly(a: AlertRecord, groupRule: (owner: string) => GroupRule): boolean {
  return POSITION_RULES.has(a.rule) && a.level === 'info' && a.owner !== null && groupRule(a.owner) === 'info';
}
