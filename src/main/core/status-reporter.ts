import type { HistoryGap, StatusSnapshot } from '../../shared/contract';
import type { CreditServices } from './credits/credit-services';
import type { CoreBus, CoreEvents } from './events';
import type { ChannelReach } from './notify/reach';
import type { PriceSchedule } from './risk/price-schedule';
import type { ServiceLink } from './service-link';
import type { SettingsService } from './settings';
import type { Store } from './store/store';
import type { StoreHealth } from './store/store-health';
import type { StreamServices } from './streams/stream-services';

/** What the status shows, as the services that know it. */
export interface StatusSources {
  /** The network in use. */
  settings: Pick<SettingsService, 'effective'>;
  /** Since when the service is unreachable (ms), or null. */
  link: Pick<ServiceLink, 'unreachableSince'>;
  /** The store's notice for the user (moved aside at the start, or found damaged since), and the history gaps. */
  store: Pick<Store, 'notice' | 'gaps'>;
  storeHealth: Pick<StoreHealth, 'current'>;
  streams: Pick<StreamServices, 'statuses'>;
  /** The credits spent where the service bills, null where it is free. */
  credits: Pick<CreditServices, 'usage'>;
  /** The reads planned now. */
  schedule: Pick<PriceSchedule, 'plan'>;
  /** Alert channels not reached for a minute or more. */
  reach: Pick<ChannelReach, 'unreached'>;
  /** Hears what changes the status; publishes each new snapshot (`statusChanged`). */
  events: CoreBus;
}

/** The facts that change what the status shows. */
const CHANGES: ReadonlyArray<keyof CoreEvents> = [
  'storeDamageFound',
  'storeHealthChanged',
  'offlineChanged',
  'reachChanged',
  'valuationDone',
  'creditsCounted',
  'streamsChanged',
  'historyGapFound',
];

/**
 * The status bar's one snapshot (network, streams, store, gaps, credits, reads, alert channels not
 * reached, the last internal error), and its push: changes within 100 ms go out as one.
 */
export class StatusReporter {
  private timer: NodeJS.Timeout | undefined;
  private internalError: { at: number; message: string } | null = null;
  private closed = false;

  constructor(private readonly s: StatusSources) {
    for (const fact of CHANGES) s.events.on(fact, () => this.changed());
  }

  snapshot(): StatusSnapshot {
    let historyGaps: HistoryGap[] = [];
    try {
      historyGaps = this.closed ? [] : this.s.store.gaps.recent();
    } catch {
      // a store that cannot be read says so through storeError
    }
    const offlineSince = this.s.link.unreachableSince;
    return {
      network: this.s.settings.effective().network,
      online: offlineSince === null,
      offlineSince,
      streams: this.s.streams.statuses(),
      storeNotice: this.s.store.notice,
      storeError: this.s.storeHealth.current(),
      historyGaps,
      internalError: this.internalError,
      credits: this.s.credits.usage(),
      reads: this.s.schedule.plan(),
      unreached: [...this.s.reach.unreached],
    };
  }

  /** Something the status shows changed: push a new snapshot within 100 ms. */
  changed(): void {
    if (this.closed) return;
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      this.s.events.emit('statusChanged', { status: this.snapshot() });
    }, 100);
  }

  /**
   * An error nobody handled was caught, logged, and survived: it shows in the status so the user
   * knows something went wrong. `message` is already redacted.
   */
  noteInternalError(message: string): void {
    this.internalError = { at: Date.now(), message: message.slice(0, 300) };
    this.changed();
  }

  close(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }
}
