import type { DemoOwnerHint, KeyFacts, Settings } from '../../shared/contract';
import type { DemoTarget } from './client/service-target';
import type { DigestClock } from './digest/digest-schedule';
import type { NotifyConfig } from './notify/config';
import type { SecretStore } from './settings';

/** What a shell tells the monitor when it builds it (core/monitor.ts). */
export interface MonitorOptions {
  dataDir: string;
  /** The Demo network the shell started (src/sim), used when settings.network is `demo`. */
  demo?: DemoTarget & { hints?: () => DemoOwnerHint[] };
  secrets: SecretStore;
  /** The stream keys (client/stream-keys.ts); none: streams use the API key. */
  streamSecrets?: SecretStore;
  /** The alert channels saved in Settings (one config document with its secrets), kept like the api-key. */
  notifySecrets?: SecretStore;
  /** `serve --notify-config FILE`, parsed: its channels for this run. */
  notifyFile?: { path: string; config: NotifyConfig; secrets: string[] } | null;
  /** The address links in messages point to when the config names none (serve's), or none. */
  publicUrl?: () => string | null;
  /** Settings forced by the command line for this run (not persisted). */
  overrides?: Partial<Omit<Settings, KeyFacts>>;
  /** Owners added to the watch list at start. */
  watch?: string[];
  /** `last-id` for the margin stream's very first start; default: `0` on the Demo network, `$` elsewhere. */
  marginFirstStart?: '$' | '0';
  fetch?: typeof fetch;
  /** The alert channels' clock: tests move it to judge a failing channel without waiting (default Date.now). */
  notifyClock?: () => number;
  /** The daily digest's clock and timer: tests move it to the digest's time without waiting (default the system's). */
  digestClock?: DigestClock;
  /** Stream tuning (tests use short times). */
  streams?: { watchdogMs?: number; backoffBaseMs?: number; backoffCapMs?: number };
  /** How long one answer of the service, and so one contract call, may take (default 30 s; tests use short times). */
  serviceTimeoutMs?: number;
  log?: (line: string) => void;
}
