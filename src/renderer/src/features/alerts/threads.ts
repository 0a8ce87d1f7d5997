import type { AlertLevel, AlertRecord, DeliveryEntry } from '../../../../shared/contract';

/**
 * The Alerts page's shape: one thread per watched position, so a wallet that raised 86
 * alerts in 15 minutes reads as a few lines. A position's warning, then its critical crossing,
 * then its liquidation are one story: the newest says where it stands, the rest are folded.
 */

export type Rule = AlertRecord['rule'];

/** Each rule in a few words (the filters, the channel form, a thread without a position). */
export const RULE_NAMES: Readonly<Record<Rule, string>> = {
  'risk-threshold': 'threshold crossings',
  recovered: 'out of danger',
  liquidation: 'liquidations of your positions',
  'large-liquidation': 'large liquidations',
  interest: 'interest',
  rate: 'borrow rates',
  blind: 'Tidewatch cannot see',
  'stream-auth': 'key rejected',
  'store-write': 'cannot save data',
  'history-gap': 'stream history gaps',
  'credit-budget': 'credit budget',
  channel: 'alert channel not reached',
  digest: 'daily digest',
};

/** The rule filter's choices: the rules a trader tells apart, the rest as "other". */
export const RULE_GROUPS = {
  threshold: ['risk-threshold', 'recovered'],
  liquidation: ['liquidation', 'large-liquidation'],
  interest: ['interest', 'rate'],
  blind: ['blind'],
  other: ['stream-auth', 'store-write', 'history-gap', 'credit-budget', 'channel', 'digest'],
} as const satisfies Record<string, readonly Rule[]>;
export type RuleGroup = keyof typeof RULE_GROUPS;
export const RULE_GROUP_NAMES: Readonly<Record<RuleGroup, string>> = {
  threshold: 'Threshold',
  liquidation: 'Liquidation',
  interest: 'Interest',
  blind: 'Blind',
  other: 'Other',
};

export function ruleGroupOf(rule: Rule): RuleGroup {
  for (const [group, rules] of Object.entries(RULE_GROUPS) as Array<[RuleGroup, readonly Rule[]]>)
    if (rules.includes(rule)) return group;
  return 'other';
}

export const LEVELS: readonly AlertLevel[] = ['critical', 'warning', 'info'];
const RANK: Readonly<Record<AlertLevel, number>> = { info: 0, warning: 1, critical: 2 };

export interface AlertFilter {
  /** Only this level; null: every level. */
  level: AlertLevel | null;
  /** Only this kind of rule; null: every rule. */
  rule: RuleGroup | null;
  /** Only alerts still to act on: not acknowledged, not snoozed. */
  openOnly: boolean;
}

/** Not acknowledged and not snoozed: what the sidebar counts and the page shows by default. */
export function isOpen(a: AlertRecord, now = Date.now()): boolean {
  return a.acknowledged_at === null && (a.snoozed_until ?? 0) < now;
}

export function filterAlerts(alerts: readonly AlertRecord[], f: AlertFilter, now = Date.now()): AlertRecord[] {
  return alerts.filter(
    (a) =>
      (f.level === null || a.level === f.level) &&
      (f.rule === null || ruleGroupOf(a.rule) === f.rule) &&
      (!f.openOnly || isOpen(a, now)),
  );
}

export interface AlertThread {
  /** `m:<manager>` for a watched position, `r:rate:<asset>` for a pool's borrow rate, `r:<rule>` for the rest. */
  key: string;
  /** The position, when the thread is one. */
  managerId: string | null;
  owner: string | null;
  /** The rule of a thread that is not a position's. */
  rule: Rule | null;
  /** Newest first. */
  alerts: AlertRecord[];
  /** Where it stands: the newest alert (of a position, the newest of its level, recovery or liquidation); its level, title and time head the thread. */
  head: AlertRecord;
  /** Shown while the thread is folded: the head, and what neither repeats nor is superseded. */
  shown: AlertRecord[];
  /** How many are folded away ("+4 earlier"). */
  folded: number;
  /** The highest level in the thread. */
  worst: AlertLevel;
  /** Not acknowledged (snoozed ones too: acknowledging the thread takes them). */
  unacknowledged: AlertRecord[];
}

/**
 * A watched position's alerts are a thread (its owner is set: a large liquidation names another
 * trader's manager, and those go together with the rest of their rule, or a burst of them would
 * be a thread each).
 */
export function threadKey(a: AlertRecord): string {
  if (a.manager_id !== null && a.owner !== null) return `m:${a.manager_id}`;
  const asset = rateAsset(a);
  return asset === null ? `r:${a.rule}` : `r:rate:${asset}`;
}

/**
 * The asset a borrow-rate alert is of ("USDC borrow rate 37.20 % (was 12.40 %)": its title, as
 * alerts/rate-alerts.ts writes it), or null for any other alert: each pool's rate is a thread
 * of its own, headed by its asset.
 */
export function rateAsset(a: Pick<AlertRecord, 'rule' | 'title'>): string | null {
  if (a.rule !== 'rate') return null;
  return /^(\S+) borrow rate /.exec(a.title)?.[1] ?? null;
}

/**
 * The rules that say where a position stands (its level, its recovery, its liquidation): the
 * newest of them heads its thread. Its other alerts (interest, which tells a day, not a level)
 * are news beside it: a Warning "interest alone liquidates it in 6 days" never heads the thread
 * of a position that is Critical 0.4 % from its liquidation price.
 */
const STANDING_RULES: ReadonlySet<Rule> = new Set<Rule>(['risk-threshold', 'recovered', 'liquidation']);

/**
 * Threads of `alerts`, the thread with the newest alert first. In a position's thread the newest
 * alert of where it stands heads it and supersedes every alert before it (folded); the newest of
 * each other rule after it is shown beneath it. In a rule's thread an alert repeating the level of
 * a newer one is folded (the blind alarm and its "sees again" both stay, older rounds fold).
 */
export function threadsOf(alerts: readonly AlertRecord[]): AlertThread[] {
  const byKey = new Map<string, AlertRecord[]>();
  for (const a of alerts) {
    const k = threadKey(a);
    let list = byKey.get(k);
    if (!list) byKey.set(k, (list = []));
    list.push(a);
  }
  const threads: AlertThread[] = [];
  for (const [key, list] of byKey) {
    list.sort(newestFirst);
    const position = key.startsWith('m:');
    const head = (position ? list.find((a) => STANDING_RULES.has(a.rule)) : undefined) ?? list[0]!;
    const shown = position ? positionShown(list, head) : ruleShown(list);
    threads.push({
      key,
      managerId: position ? head.manager_id : null,
      owner: position ? head.owner : null,
      rule: position ? null : head.rule,
      alerts: list,
      head,
      shown,
      folded: list.length - shown.length,
      worst: list.reduce<AlertLevel>((w, a) => (RANK[a.level] > RANK[w] ? a.level : w), 'info'),
      unacknowledged: list.filter((a) => a.acknowledged_at === null && a.id > 0),
    });
  }
  return threads.sort((a, b) => newestFirst(a.alerts[0]!, b.alerts[0]!));
}

/** A position's thread as shown folded: its head, then the newest of each other rule after it. */
function positionShown(list: readonly AlertRecord[], head: AlertRecord): AlertRecord[] {
  const rules = new Set<Rule>([head.rule]);
  const news = list.filter((a) => {
    if (a === head || newestFirst(a, head) >= 0 || rules.has(a.rule)) return false;
    rules.add(a.rule);
    return true;
  });
  return [head, ...news];
}

/** A rule's thread as shown folded: the newest of each level. */
function ruleShown(list: readonly AlertRecord[]): AlertRecord[] {
  const levels = new Set<AlertLevel>();
  return list.filter((a) => {
    if (levels.has(a.level)) return false;
    levels.add(a.level);
    return true;
  });
}

function newestFirst(a: AlertRecord, b: AlertRecord): number {
  return b.created_at - a.created_at || b.id - a.id;
}

/** A channel's part of an alert's delivery log, as one chip. */
export interface DeliveryChip {
  channel: string;
  /** The latest entry's result, at its time. */
  result: DeliveryEntry['result'];
  at: number;
  detail: string | null;
  /** How many escalation repeats were sent ("repeated 3×"). */
  repeats: number;
  /** It went to this channel's fallback too (its channel was not reached long enough). */
  rerouted: boolean;
  /** This channel carried it as the fallback of one not reached. */
  fallback: boolean;
}

/** One chip per channel, in the order the channels were first tried; the log is oldest first. */
export function deliveryChips(log: readonly DeliveryEntry[] | undefined): DeliveryChip[] {
  const chips = new Map<string, DeliveryChip>();
  for (const e of log ?? []) {
    const chip = chips.get(e.channel) ?? {
      channel: e.channel,
      result: e.result,
      at: e.at,
      detail: e.detail,
      repeats: 0,
      rerouted: false,
      fallback: false,
    };
    if (e.at >= chip.at) Object.assign(chip, { result: e.result, at: e.at, detail: e.detail });
    if (e.result === 'rerouted') chip.rerouted = true;
    if (e.result === 'fallback') chip.fallback = true;
    if (e.repeat > 0 && e.result === 'sent') chip.repeats = Math.max(chip.repeats, e.repeat);
    chips.set(e.channel, chip);
  }
  return [...chips.values()];
}
