/** What the status bar, the tray and the offline banner read: streams, store, history gaps, credits. */

/**
 * `stopped-auth`: the key was rejected (retried every few minutes, and at once when a key is set);
 * `stopped-quota`: the plan's credits or quota are used up (retried every 15 minutes, and at once on "Retry now");
 * `stopped-store`: the store refused a write (disk full): reconnects once it accepts writes again.
 */
export type StreamState =
  | 'idle'
  | 'connecting'
  | 'open'
  | 'backoff'
  | 'stopped-auth'
  | 'stopped-quota'
  | 'stopped-store'
  | 'waiting-budget'
  | 'stopped';

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
  /** A pool's stream held open because a watched position priced there is in danger (risk/danger-pricing.ts). */
  guard?: boolean;
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
  /** Spans of the margin stream's history the service could no longer replay, newest first (at most 5). */
  historyGaps: HistoryGap[];
  /** An unexpected internal error that was caught and survived, the latest one. */
  internalError: { at: number; message: string } | null;
  /** Credits spent on the service (its published prices); null on the Demo network, which is free. */
  credits: CreditUsage | null;
  /** What the guard reads and how often (docs/credits.md); null before the first plan. */
  reads: ReadPlan | null;
  /** Alert channels not reached for a minute or more (docs/notify.md#a-failing-channel); absent or empty: all reach. */
  unreached?: UnreachedChannel[];
}

/**
 * An alert channel in a failure spell past a minute: its sends have failed since then, or a
 * critical alert has waited that long on it. The status bar, the banner and the tray say so.
 */
/** How the blind alarm's reason for "every alert channel fails" starts (notify/reach.ts). */
export const NO_CHANNEL = 'no alert channel reaches you';

export interface UnreachedChannel {
  /** Its name in the config. */
  channel: string;
  /** Its name and kind in words: "phone (ntfy)", "e-mail". */
  words: string;
  /** When the spell began: the first failure since its last message went out, or the oldest critical alert's wait. */
  since: number;
  /** Why, in plain words (the latest failure's, never a URL or a secret). */
  reason: string;
  /** The same in a few words for the status bar: "connection refused". */
  short: string;
  /** Alerts (and repeats) waiting on it. */
  waiting: number;
  /** Where its waiting alerts go (its fallback) and from when; null: it has none. */
  fallback: { channel: string; words: string; at: number } | null;
}

/** The guard's reads: each watched asset's price, the margin records, and what the budget did to them. */
export interface ReadPlan {
  /** Most often first. `everyMs` null: not read (the month's credits are spent). */
  prices: Array<{ symbol: string; everyMs: number | null; slowed: boolean; why: string; readAt: number | null }>;
  /** How often the margin records are read now; null: only on events. */
  recordsEveryMs: number | null;
  /** The budget stretched the records' interval beyond the one set (Settings: *Read margin records every*). */
  recordsSlowed: boolean;
  /**
   * How often the margin pools' rates and utilization are read (pool health); null: not read for
   * the budget; absent: not planned (no budget state yet).
   */
  poolsEveryMs?: number | null;
  /** The budget stretched the pools' read beyond its 15 minutes. */
  poolsSlowed?: boolean;
  /**
   * How often the protocol's loans are read for the liquidation map; null: not read for the
   * budget; absent: not planned (no budget state yet).
   */
  liquidationsEveryMs?: number | null;
  /** The budget stretched the map's read beyond its hour. */
  liquidationsSlowed?: boolean;
  /** The budget's pace factor (1: not slowed); null: reads stopped for the budget. */
  pace: number | null;
  /** What the budget did, in plain words, or null when nothing was slowed. */
  budgetNote: string | null;
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

/**
 * Settings a forecast may be asked for before they are saved (the plan picked in Settings): what
 * is not given is as saved.
 */
export interface ForecastPreview {
  plan?: 'free' | 'builder' | 'scale' | 'pro' | 'custom';
  monthlyCreditBudget?: number | null;
  recordsRefreshSec?: number;
}

/** What Tidewatch forecasts it spends a day at the current settings (the cost model). */
export interface CreditForecast {
  /** Credits a day: the reads, the margin stream and every guard stream open now (as if open all day). */
  perDay: number;
  /**
   * Where they go, one line per read or stream: the margin stream, each price, the records, the
   * event reads, each pool stream open now, and the guard's pool stream when none is open (nothing
   * now; what it would cost, or why the plan never opens one).
   */
  lines: Array<{
    what: string;
    perDay: number;
    detail: string;
    /**
     * A pool page's stream: credits an hour while the page is open (null: not measured yet), not
     * in `perDay` (0), since it closes with the page.
     */
    perHour?: number | null;
  }>;
  /** The plan chosen in Settings (`custom`: none of the service's). */
  plan: string;
  planLabel: string;
  planMonthlyCredits: number | null;
  /** perDay over the plan's daily share (its month over 30 days); null for a custom plan. */
  shareOfPlanDay: number | null;
  /** The month's budget (Settings, else the plan's credits), or null. */
  budget: number | null;
  shareOfBudgetDay: number | null;
  /**
   * Pool streams open now and what each costs an hour (null: not measured yet): while their page is
   * shown, or while the guard holds one for a watched position in danger (`guard`).
   */
  poolStreams: Array<{ pool: string; perHour: number | null; guard?: boolean }>;
  /**
   * The reads the lines count: the plan in force, the very one the status bar shows (`reads`),
   * or for a preview the plan those settings would get now; on the Demo network the plan the
   * service's budget would make at speed 1 (`demo.here` is the one in force).
   */
  reads: ReadPlan;
  /** Of settings not saved (`creditForecast`'s `preview`). */
  preview: boolean;
  /**
   * On the Demo network (free, its reads not paced, its market `speed` times faster than real
   * time): the forecast above is as on the data service at speed 1 (the plan's budget paces the
   * reads, volatility, stream volume and events are taken back to speed 1, a pool stream counts
   * only where the plan would open it), and `here` is the plan in force here, the reads the status
   * bar shows. Null on the service.
   */
  demo: { speed: number; here: ReadPlan } | null;
}
