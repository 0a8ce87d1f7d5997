import type {
  CreditUsage,
  HistoryGap,
  ReadPlan,
  StatusSnapshot,
  StreamStatus,
  UnreachedChannel,
} from '../../shared/contract';

export interface StatusSources {
  network: () => StatusSnapshot['network'];
  /** Since when the service is unreachable (ms), or null. */
  unreachableSince: () => number | null;
  streams: () => StreamStatus[];
  /** The store's notice for the user (moved aside at the start, or found damaged since). */
  storeNotice: () => string | null;
  storeError: () => string | null;
  historyGaps: () => HistoryGap[];
  /** The credits spent where the service bills, null where it is free. */
  credits: () => CreditUsage | null;
  reads: () => ReadPlan | null;
  /** Alert channels not reached for a minute or more. */
  unreached: () => UnreachedChannel[];
  publish: (status: StatusSnapshot) => void;
  closed: () => boolean;
}

/**
 * The status bar's one snapshot (network, streams, store, gaps, credits, reads, alert channels not
 * reached, the last internal error), and its push: changes within 100 ms go out as one.
 */
export class StatusReporter {
  private timer: NodeJS.Timeout | undefined;
  private internalError: { at: number; message: string } | null = null;

  constructor(private readonly s: StatusSources) {}

  snapshot(): StatusSnapshot {
    let historyGaps: HistoryGap[] = [];
    try {
      historyGaps = this.s.closed() ? [] : this.s.historyGaps();
    } catch {
      // a store that cannot be read says so through storeError
    }
    const offlineSince = this.s.unreachableSince();
    return {
      network: this.s.network(),
      online: offlineSince === null,
      offlineSince,
      streams: this.s.streams(),
      storeNotice: this.s.storeNotice(),
      storeError: this.s.storeError(),
      historyGaps,
      internalError: this.internalError,
      credits: this.s.credits(),
      reads: this.s.reads(),
      unreached: this.s.unreached(),
    };
  }

  /** Something the status shows changed: push a new snapshot within 100 ms. */
  changed(): void {
    if (this.s.closed()) return;
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      this.s.publish(this.snapshot());
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
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }
}
