/** What the status bar, the tray and the offline banner read: streams, store, history gaps, credits. */

/**
 * `stopped-auth`: the key was rejected (retried every few minutes, and at once when a key is set);
 * `stopped-quota`: the plan's credits or quota are used up (retried every 15 minutes, and at once on "Retry now");
 * `stopped-store`: the store refused a write (disk full): reconnects once it accepts writes again.
 */
export type StreamState = 'idle' | 'connecting' | 'open' | 'backoff' | 'stopped-auth' | 'stopped-quota' | 'stopped-store' | 'waiting-budget' | 'stopped';

export interface StreamStatus {
  /** `margin` or `pool:<name>`. */
  id: string;
  state: StreamState;
  lastEventAt: number | null;
  lastByteAt: number | null;
  nextTryAt: number | null;
  reconnects: number;
  events: number;
  lastError: string | null;
}

export interface StatusSnapshot {
  network: 'demo' | 'custom';
  online: boolean;
  /** Since when the service has been unreachable (ms), or null. */
  offlineSince: number | null;
  streams: StreamStatus[];
  /** A store that could not be opened was moved aside: tell the user once. */
  storeNotice: string | null;
  /** The store refuses writes ("cannot write to the store: disk full"); null when it accepts them. */
  storeError: string | null;
  /** Spans of stream #22 history the service could no longer replay, newest first (at most 5). */
  historyGaps: HistoryGap[];
  /** An unexpected internal error that was caught and survived, the latest one. */
  internalError: { at: number; message: string } | null;
  /** Credits spent on the service (its published prices); null on the Demo network, which is free. */
  credits: CreditUsage | null;
}

/** The credit meter: what this app spent on the service, by its published price list. */
export interface CreditUsage {
  /** Local calendar day and month. */
  today: number;
  thisMonth: number;
  /** YYYY-MM */
  month: string;
  /** Of thisMonth, counted at an estimate (endpoints without a published price). */
  estimated: number;
  /** Of thisMonth, KB received on streams (1 credit per KB). */
  streamedKb: number;
  /** The monthly budget from Settings, or null. */
  budget: number | null;
}

export interface HistoryGap {
  /** The stream was last known to be complete at this time (ms). */
  fromMs: number;
  /** The stream was back at this time (ms). */
  toMs: number;
  /** Liquidations fetched over REST for this span because the stream could not replay them. */
  recoveredLiquidations: number;
  /** Plain words for the status bar and the Live events view. */
  message: string;
}
