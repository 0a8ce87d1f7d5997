import { withoutKeyFacts, type KeyFacts, type Settings, type SettingsPatch } from '../../shared/contract';
import { PLANS, type Plan, type PlanName } from '../../shared/credit-prices';
import { DEFAULT_THRESHOLDS } from '../../shared/portfolio';
import { decodeStreamKeys, encodeStreamKeys, withStreamKey, type StreamKeys } from './client/stream-keys';
import type { SettingsRepo } from './store/settings-repo';

export const DEFAULT_SETTINGS: Omit<Settings, KeyFacts> = {
  network: 'demo',
  baseUrl: '',
  streamUrl: '',
  naming: 'spec',
  plan: 'free',
  requestsPerSecond: PLANS.free.requestsPerSecond,
  concurrency: 4,
  streamBudget: PLANS.free.streams,
  recordsRefreshSec: 3 * 3600,
  warningRatio: DEFAULT_THRESHOLDS.warning,
  criticalRatio: DEFAULT_THRESHOLDS.critical,
  nearLiquidationPct: 3,
  interestAlertDays: 7,
  rateAlertPct: 30,
  dustDebtUsd: 50,
  alertCooldownSec: 900,
  groupRules: { mine: 'alert', watched: 'info' },
  digestAt: null,
  digestZone: null,
  digestChannels: [],
  largeLiquidationUsd: null,
  monthlyCreditBudget: null,
  ipfsGateway: 'https://ipfs.io/ipfs/',
  privacyMode: false,
  alertSound: true,
  startAtLogin: false,
};

/** Where the API key lives is the shell's business (safeStorage on the desktop); core only asks. */
export interface SecretStore {
  get(): string | null;
  set(value: string | null): void;
  /** How the key is protected at rest, for the Settings view. */
  protection(): KeyProtection;
}

export type KeyProtection = Settings['keyProtection'];

/** The key for this run only (the command line's `--api-key`): never written anywhere. */
export class MemorySecretStore implements SecretStore {
  constructor(private value: string | null = null) {}
  get(): string | null {
    return this.value;
  }
  set(value: string | null): void {
    this.value = value;
  }
  protection(): KeyProtection {
    return 'memory';
  }
}

const KEY = 'settings';
/**
 * What the stored settings were written by: 2 from the oracle valuation's thresholds on. Settings
 * without it were saved before, when 1.5 / 1.25 were the defaults written with everything else.
 */
const VERSION = 2;

/** Settings persisted in the store, merged over the defaults; the keys are never among them. */
export class SettingsService {
  constructor(
    private readonly repo: SettingsRepo,
    private readonly secrets: SecretStore,
    /** The stream keys (client/stream-keys.ts), kept like the api-key; JSON. */
    private readonly streamSecrets: SecretStore = new MemorySecretStore(),
    /** Settings forced by the command line for this run (not persisted). */
    private readonly overrides: Partial<Omit<Settings, KeyFacts>> = {},
  ) {}

  /** The settings in force: the saved ones with this run's overrides on top. */
  effective(): Settings {
    return { ...this.get(), ...this.overrides };
  }

  /** The api-key kept at rest (the Demo network's comes with it, not from here). */
  apiKey(): string | null {
    return this.secrets.get();
  }

  get(): Settings {
    const saved = fromStored(withoutKeyFacts(this.repo.get<Partial<Settings>>(KEY) ?? {}));
    const streams = this.streamKeys();
    return {
      ...DEFAULT_SETTINGS,
      ...saved,
      hasApiKey: this.secrets.get() !== null,
      keyProtection: this.secrets.protection(),
      hasStreamKey: streams.all !== undefined,
      streamKeyPools: Object.keys(streams.pools ?? {}).sort(),
    };
  }

  /** The stream keys, for the client only (never part of what Settings answers). */
  streamKeys(): StreamKeys {
    return decodeStreamKeys(this.streamSecrets.get());
  }

  /** Set or remove the stream key (`pool` null) or one pool's own key. */
  setStreamKey(pool: string | null, key: string | null): Settings {
    this.streamSecrets.set(encodeStreamKeys(withStreamKey(this.streamKeys(), pool, key)));
    return this.get();
  }

  update(patch: SettingsPatch): Settings {
    const next = { ...this.get(), ...withPlan(this.get(), patch) };
    if (next.criticalRatio >= next.warningRatio) {
      throw new RangeError(
        `the warning ratio (${next.warningRatio}) must be above the critical ratio (${next.criticalRatio})`,
      );
    }
    if (next.network === 'custom' && !next.baseUrl) {
      throw new RangeError('a custom network needs a base URL');
    }
    const before = this.get();
    this.repo.set(KEY, { ...withoutKeyFacts(next), version: VERSION });
    // The keys were given for a service: pointing the app at another host must not send them there.
    if (movedHost(before, next)) {
      if (this.secrets.get() !== null) this.secrets.set(null);
      if (this.streamSecrets.get() !== null) this.streamSecrets.set(null);
    }
    return this.get();
  }

  setApiKey(key: string | null): Settings {
    this.secrets.set(key);
    return this.get();
  }
}

const hostOf = (url: string): string => {
  try {
    return url ? new URL(url).host.toLowerCase() : '';
  } catch {
    return '';
  }
};

/** Whether the base or stream URL now names another host than the one the key was used with. */
function movedHost(before: Settings, after: Omit<Settings, KeyFacts>): boolean {
  const was = [hostOf(before.baseUrl), hostOf(before.streamUrl || before.baseUrl)];
  const now = [hostOf(after.baseUrl), hostOf(after.streamUrl || after.baseUrl)];
  if (was[0] === '' && was[1] === '') return false;
  return was[0] !== now[0] || was[1] !== now[1];
}

/**
 * A patch with its plan applied: choosing a plan sets its request rate and stream budget (unless
 * the patch sets them too); setting either to another value than the plan's makes it custom.
 */
function withPlan(now: Settings, patch: SettingsPatch): SettingsPatch {
  if (patch.plan !== undefined && patch.plan !== 'custom') {
    const p = PLANS[patch.plan];
    return { requestsPerSecond: p.requestsPerSecond, streamBudget: p.streams, ...patch };
  }
  const plan = patch.plan ?? now.plan;
  if (plan === 'custom') return patch;
  const p = PLANS[plan];
  const off =
    (patch.requestsPerSecond !== undefined && patch.requestsPerSecond !== p.requestsPerSecond) ||
    (patch.streamBudget !== undefined && patch.streamBudget !== p.streams);
  return off ? { ...patch, plan: 'custom' } : patch;
}

/** The plan of the settings, or null for a custom one. */
export function planOf(s: Pick<Settings, 'plan'>): Plan | null {
  return s.plan === 'custom' ? null : PLANS[s.plan as PlanName];
}

/** The month's budget: the one set, else the plan's credits; null for a custom plan without one. */
export function monthlyBudgetOf(s: Pick<Settings, 'plan' | 'monthlyCreditBudget'>): number | null {
  return s.monthlyCreditBudget ?? planOf(s)?.monthlyCredits ?? null;
}

/**
 * Settings saved before plans existed: their request rate and stream budget were the old
 * defaults (10 and 4), not a choice, so they give way to the Free plan's; `riskRefreshSec`
 * (every 30 s) gave way to `recordsRefreshSec`. The old default thresholds (1.5 and 1.25, which
 * held most 3-5x positions in warning) give way to the new ones.
 */
function fromStored(saved: Partial<Settings> & { riskRefreshSec?: number; version?: number }): Partial<Settings> {
  const { riskRefreshSec: _old, version, ...rest } = saved;
  if (version === undefined && rest.warningRatio === 1.5 && rest.criticalRatio === 1.25) {
    delete rest.warningRatio;
    delete rest.criticalRatio;
  }
  if (rest.plan !== undefined) return rest;
  if (rest.requestsPerSecond === 10) delete rest.requestsPerSecond;
  if (rest.streamBudget === 4) delete rest.streamBudget;
  const free = PLANS.free;
  const custom =
    (rest.requestsPerSecond ?? free.requestsPerSecond) !== free.requestsPerSecond ||
    (rest.streamBudget ?? free.streams) !== free.streams;
  return custom ? { ...rest, plan: 'custom' } : rest;
}
