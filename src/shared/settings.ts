/** The user's settings as the contract reports them, and what of them is read only (the keys' facts). */

/**
 * What a watch-list group's alerts do: `alert`, as the trader's own (levels, phone channels,
 * escalation); `info`, recorded at level info on the Alerts page and told in the daily digest, never
 * sent to a channel nor repeated.
 */
export type GroupRule = 'alert' | 'info';

export interface Settings {
  /** `demo`: the built-in Demo network; `custom`: baseUrl + streamUrl + API key. */
  network: 'demo' | 'custom';
  baseUrl: string;
  streamUrl: string;
  naming: 'spec' | 'deepbook';
  /**
   * The service's plan (credit-prices.ts PLANS): choosing one sets the request rate and the
   * stream budget to its limits, and its monthly credits are the budget unless one is set.
   * `custom`: the values below as set.
   */
  plan: 'free' | 'builder' | 'scale' | 'pro' | 'custom';
  requestsPerSecond: number;
  concurrency: number;
  /** Streams open at once (the service's plans limit it). */
  streamBudget: number;
  /** Margin records (loans, deposits, supplies) are read again this often, besides on events of watched managers. */
  recordsRefreshSec: number;
  /** Ratio thresholds (assets / debt), set against the default liquidation ratio 1.125 and moved with a pool's own. */
  warningRatio: number;
  criticalRatio: number;
  /** A position within this move (percent) of its liquidation price is critical whatever its ratio; null: no such rule. */
  nearLiquidationPct: number | null;
  /** Warn when interest alone would liquidate a position within this many days (at today's prices); null: off. */
  interestAlertDays: number | null;
  /**
   * Alert when the borrow APR of a margin pool a watched position borrows from rises past this
   * (percent a year); null: only when the pool's utilization passes its curve's kink.
   */
  rateAlertPct: number | null;
  /**
   * A position owing less than this (USD) is dust: its warnings (threshold and interest) and the
   * repeats of its critical are recorded at level info (the Alerts page, the digest), sent to no
   * channel that carries only warnings and above; its first critical and its liquidation are told
   * as any. null: no position is dust.
   */
  dustDebtUsd: number | null;
  alertCooldownSec: number;
  /** The rule of each watch-list group (contract.ts WATCH_GROUPS): by default your own alert, others' are info. */
  groupRules: { mine: GroupRule; watched: GroupRule };
  /** The daily digest's time ("08:00", on the clock of `digestZone`), or null: no digest. */
  digestAt: string | null;
  /**
   * The zone (an IANA name, "America/New_York") on whose clock `digestAt` is kept and applied, as a
   * channel's quiet hours carry theirs: Settings saves the browser's unless another is chosen, so
   * the page and the monitor (on a machine in another zone) read the one time alike. null: the
   * monitor's machine's (a digest set before zones were kept), which Settings names.
   */
  digestZone: string | null;
  /** The channels the digest goes to, by name; empty: every channel (the desktop's is not one). */
  digestChannels: string[];
  /** Protocol-wide large-liquidation alert above this USD amount; null: off. */
  largeLiquidationUsd: number | null;
  /**
   * Credits a month the user means to spend: reads are paced to end the month inside it, with a
   * warning at 80 % and at 100 %. null: the plan's monthly credits (none for a custom plan).
   */
  monthlyCreditBudget: number | null;
  ipfsGateway: string;
  privacyMode: boolean;
  /** The page served by `serve` plays a short sound with a critical alert. */
  alertSound: boolean;
  startAtLogin: boolean;
  /** Read only: whether an API key is stored. The key itself never leaves main. */
  readonly hasApiKey: boolean;
  /**
   * Read only: how the key is kept at rest. `os-keyring`: encrypted with the OS key store;
   * `plain-text`: encrypted with a fixed key (Linux without a keyring: safeStorage's basic_text);
   * `memory`: given for this run only, never written.
   */
  readonly keyProtection: 'os-keyring' | 'plain-text' | 'memory';
  /** Read only: whether a stream key is set (streams use it instead of the API key). Never the key. */
  readonly hasStreamKey: boolean;
  /** Read only: the pools with a stream key of their own (names only). */
  readonly streamKeyPools: readonly string[];
}

/** What Settings reports about the keys: read only, never written through `updateSettings`. */
export type KeyFacts = 'hasApiKey' | 'keyProtection' | 'hasStreamKey' | 'streamKeyPools';

export type SettingsPatch = Partial<Omit<Settings, KeyFacts>>;

/** Settings without what they report about the keys: what is persisted, edited and patched. */
export function withoutKeyFacts<T extends Partial<Settings>>(s: T): Omit<T, KeyFacts> {
  const { hasApiKey: _h, keyProtection: _k, hasStreamKey: _s, streamKeyPools: _p, ...rest } = s;
  return rest;
}
