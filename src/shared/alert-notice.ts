import type { AlertLevel, AlertRecord } from './contract';

/**
 * How an alert reads at a glance, written once for the screen (the desktop's native
 * notification, the browser page's) and the phone (ntfy, Telegram, e-mail: notify/compose.ts):
 * the action first within 120 characters, a summary title for several alerts, and the grouping
 * of alerts into bursts that one notification shows. The reasoning: docs/alerts.md, "On the
 * screen and on the phone".
 */

/** The most characters of the line a notification shows first (about two lines of a desktop notification). */
export const LEAD_MAX = 120;
/** An alert within this long after the previous one joins its burst. */
export const BURST_GAP_MS = 30_000;
/** A burst older than this is closed: the next alert starts a new one, with its own notification and sound. */
export const BURST_MAX_MS = 5 * 60_000;

/**
 * The first words of a sentence that tells the trader what to do ("Deposit 307.4 USDC or repay
 * 70.7 SUI → 1.20."): an imperative.
 */
const ACTION_VERBS = new Set([
  'acknowledge',
  'add',
  'buy',
  'cancel',
  'check',
  'close',
  'deposit',
  'enter',
  'lower',
  'move',
  'open',
  'raise',
  'reduce',
  'renew',
  'repay',
  'replace',
  'restart',
  'review',
  'sell',
  'set',
  'top',
  'withdraw',
]);

/**
 * Runs of white space, made one space; the narrow no-break space of a percentage ("2.4 %",
 * shared/format.ts) is not white space here: it stays, and no cut falls on it.
 */
const SPACES = /[^\S\u202F]+/g;

/** `text` within `max` characters: cut on a word boundary, "…" marking the cut. */
export function cutAt(text: string, max = LEAD_MAX): string {
  const t = text.replace(SPACES, ' ').trim();
  if (t.length <= max) return t;
  // Room for the "…"; a word that ends exactly at the edge is kept whole.
  const room = t.slice(0, max - 1);
  const end = t[max - 1] === ' ' ? room.length : room.lastIndexOf(' ');
  const head = (end > 0 ? room.slice(0, end) : room).replace(/[\s,;:(–—-]+$/, '');
  return `${head}…`;
}

/** A text's sentences: a full stop (or ! ?) before a space or the end; "1.20" and "$0.1965" are not ends. */
export function sentencesOf(text: string): string[] {
  return (
    text
      .replace(SPACES, ' ')
      .trim()
      .match(/.+?[.!?](?= |$)|.+$/g) ?? []
  ).map((s) => s.trim());
}

/** Whether a sentence tells the trader what to do: it opens with an imperative ("Deposit …", "Repay …"). */
export function isAction(sentence: string): boolean {
  const first = /^[A-Za-z]+/.exec(sentence)?.[0];
  return first !== undefined && /^[A-Z]/.test(first) && ACTION_VERBS.has(first.toLowerCase());
}

/**
 * A message as the phone's message lays it out: its action sentence, when the message opens with
 * one, as a line of its own within 120 characters, and the details after it. A cut action is
 * given whole again in the details, so no word of the advice is lost; a message that opens with
 * no action is left as it is (`action` null).
 */
export function splitAction(message: string): { action: string | null; details: string } {
  const sentences = sentencesOf(message);
  const first = sentences[0];
  if (first === undefined || !isAction(first)) return { action: null, details: message };
  const action = cutAt(first);
  return { action, details: (action === first ? sentences.slice(1) : sentences).join(' ') };
}

/**
 * What a notification's body says of one alert, within 120 characters: the action sentence when
 * the message opens with one, else as many of its first sentences as fit (the first one cut when
 * it alone is longer).
 */
export function leadOf(message: string): string {
  const sentences = sentencesOf(message);
  const first = sentences[0];
  if (first === undefined) return '';
  if (isAction(first)) return cutAt(first);
  let lead = first;
  for (const s of sentences.slice(1)) {
    if (`${lead} ${s}`.length > LEAD_MAX) break;
    lead = `${lead} ${s}`;
  }
  return cutAt(lead);
}

/** How bad an alert is, worst first: a liquidation, then critical, warning, info. */
function rank(a: Pick<AlertRecord, 'rule' | 'level'>): number {
  return a.rule === 'liquidation' ? 0 : a.level === 'critical' ? 1 : a.level === 'warning' ? 2 : 3;
}
const WORDS = ['liquidated', 'critical', 'warning', 'info'] as const;

/** The alerts worst first; alerts as bad as each other keep their order. */
export function worstFirst<T extends Pick<AlertRecord, 'rule' | 'level'>>(alerts: readonly T[]): T[] {
  return [...alerts].sort((a, b) => rank(a) - rank(b));
}

/** The pool an alert names ("Long 10,175 WAL on WAL_USDC: 1.19, …", "Critical: SUI_USDC risk ratio 1.250"), or null. */
export function poolOf(a: Pick<AlertRecord, 'title' | 'message'>): string | null {
  return /\b([A-Z][A-Z0-9]*_[A-Z][A-Z0-9]*)\b/.exec(`${a.title} ${a.message}`)?.[1] ?? null;
}

/** A position of the user's own: a watched manager (another trader's large liquidation is market news). */
const isPosition = (a: AlertRecord): boolean => a.manager_id !== null && a.owner !== null;

/**
 * The alerts by what they are about, worst first: a position once, by its worst alert (the
 * newest of equal ones: where it stands now), every other alert on its own.
 */
export function byPosition(alerts: readonly AlertRecord[]): AlertRecord[] {
  const worst = new Map<string, AlertRecord>();
  alerts.forEach((a, i) => {
    const key = isPosition(a) ? `m:${a.manager_id}` : `a:${i}`;
    const held = worst.get(key);
    if (held && rank(a) > rank(held)) return;
    // Equally bad positions in the order their worst alerts came.
    worst.delete(key);
    worst.set(key, a);
  });
  return worstFirst([...worst.values()]);
}

/**
 * The title of several alerts: one position's worst alert's own title; "3 positions critical on
 * SUI_USDC" when all are positions of one pool in one state ("2 positions on SUI_USDC: 1
 * critical, 1 warning" in several); "3 alerts: 2 critical, 1 warning" otherwise. A position
 * counts once, at its worst. Never a manager's id: the alerts' own titles name positions in words.
 */
export function summaryTitle(alerts: readonly AlertRecord[]): string {
  const groups = byPosition(alerts);
  if (groups.length === 0) return 'Tidewatch';
  if (groups.length === 1) return groups[0]!.title;
  const counts = WORDS.map((w, i) => [w, groups.filter((g) => rank(g) === i).length] as const).filter(([, n]) => n > 0);
  const listed = counts.map(([w, n]) => `${n} ${w}`).join(', ');
  const pools = new Set(groups.map(poolOf));
  const pool = pools.size === 1 ? [...pools][0] : null;
  if (pool && groups.every(isPosition)) {
    const only = counts.length === 1 ? counts[0]![0] : null;
    if (only && only !== 'info')
      return `${groups.length} positions ${only === 'warning' ? 'at warning' : only} on ${pool}`;
    return `${groups.length} positions on ${pool}: ${listed}`;
  }
  return `${groups.length} alerts: ${listed}`;
}

const LEVELS: AlertLevel[] = ['info', 'warning', 'critical'];
/** The highest level of some alerts (info for none). */
export function levelOf(alerts: readonly Pick<AlertRecord, 'level'>[]): AlertLevel {
  return LEVELS[Math.max(0, ...alerts.map((a) => LEVELS.indexOf(a.level)))]!;
}

/** The lines a notification of several alerts lists beneath its title, at most this many (then "and 3 more"). */
const LISTED = 4;

/**
 * What a notification of a burst says: one alert (or one position's) → its own title and the
 * lead of its message; several → the summary title and a line per position, worst first.
 */
export function burstText(alerts: readonly AlertRecord[]): { title: string; body: string } {
  const groups = byPosition(alerts);
  if (groups.length === 1) return { title: groups[0]!.title, body: leadOf(groups[0]!.message) };
  const lines = groups.slice(0, LISTED).map((g) => cutAt(g.title));
  if (groups.length > LISTED) lines.push(`and ${groups.length - LISTED} more`);
  return { title: summaryTitle(alerts), body: lines.join('\n') };
}

/** A burst as a shell shows it, after an alert joined it. */
export interface BurstUpdate {
  /** Names the burst's one notification (the browser's `tag`, Electron's `id`): a new burst, a new key. */
  key: string;
  /** Its alerts, as they came. */
  alerts: readonly AlertRecord[];
  /** These alerts started it (a new notification). */
  started: boolean;
  /** Its highest level rose with these alerts (true for a new burst): the one occasion to sound again. */
  rose: boolean;
  level: AlertLevel;
}

/**
 * Alerts gathered into bursts: an alert within 30 s of the previous one joins its burst, for at
 * most 5 minutes from the burst's first (docs/alerts.md, "On the screen and on the phone"). The
 * clock is given, so a test moves time without waiting.
 */
export class Bursts {
  private current: { key: string; alerts: AlertRecord[]; first: number; last: number; level: AlertLevel } | null = null;
  private seq = 0;

  constructor(
    private readonly now: () => number = Date.now,
    readonly gapMs = BURST_GAP_MS,
    readonly maxMs = BURST_MAX_MS,
  ) {}

  /** `alerts` (to be shown) join the current burst or start one; null when there are none. */
  add(alerts: readonly AlertRecord[]): BurstUpdate | null {
    if (alerts.length === 0) return null;
    const now = this.now();
    let b = this.current;
    const started = !b || now - b.last > this.gapMs || now - b.first > this.maxMs;
    if (!b || started) {
      b = { key: `tidewatch-alerts-${now}-${++this.seq}`, alerts: [], first: now, last: now, level: 'info' };
      this.current = b;
    }
    for (const a of alerts) {
      // An alert pushed again (a change) takes its own place, not a second one.
      const at = a.id === 0 ? -1 : b.alerts.findIndex((x) => x.id === a.id);
      if (at >= 0) b.alerts[at] = a;
      else b.alerts.push(a);
    }
    b.last = now;
    const level = levelOf(b.alerts);
    const rose = started || LEVELS.indexOf(level) > LEVELS.indexOf(b.level);
    b.level = level;
    return { key: b.key, alerts: [...b.alerts], started, rose, level };
  }

  /** The trader saw it (a click): the next alert starts a new burst. */
  end(): void {
    this.current = null;
  }
}
