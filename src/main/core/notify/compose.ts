import type { AlertLevel, AlertRecord } from '../../../shared/contract';
import { maskAmounts } from '../../../shared/privacy';
import { deliveryOf, type Delivery } from './senders';

/** One alert as it goes out: the record, which repeat it is, and its acknowledge link if any. */
export interface Outgoing {
  alert: AlertRecord;
  repeat: number;
  ackUrl: string | null;
}

export interface ComposeOptions {
  /** The manager page's address for links ("http://host:port"), or null. */
  linkBase: string | null;
  /** Amounts masked (privacy mode, or the channel's own `hideAmounts`). */
  hideAmounts: boolean;
  /** The most characters the receiver shows of title, message and link together (Discord 2,000, Telegram 4,096), or none. */
  limit?: number | null;
}

/** What each kind of channel takes in one message (ntfy turns a longer one into an attachment). */
export const MESSAGE_LIMIT: Record<string, number | null> = {
  discord: 2_000,
  telegram: 4_096,
  ntfy: 4_000,
  slack: 3_000,
  email: null,
  webhook: null,
  desktop: null,
};

/** Whether a message fits its receiver. */
export function fits(d: Pick<Delivery, 'title' | 'message' | 'click'>, limit: number | null | undefined): boolean {
  return !limit || d.title.length + d.message.length + (d.click?.length ?? 0) + 16 <= limit;
}

const LEVEL_ORDER: AlertLevel[] = ['critical', 'warning', 'info'];
const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;

/** The pool an alert names in its title ("Critical: SUI_USDC risk ratio 1.250"), or null. */
function poolOf(a: AlertRecord): string | null {
  return /\b([A-Z][A-Z0-9]*_[A-Z][A-Z0-9]*)\b/.exec(`${a.title} ${a.message}`)?.[1] ?? null;
}

/** The message id: the alert's for one (with its repeat), the group's first and count for several. */
export function messageId(items: readonly Pick<Outgoing, 'alert' | 'repeat'>[]): string {
  const first = items[0]!;
  const one = `tidewatch-alert-${first.alert.id}${first.repeat > 0 ? `-r${first.repeat}` : ''}`;
  return items.length === 1 ? one : `${one}-and-${items.length - 1}`;
}

function oneAlert(o: Outgoing, opts: ComposeOptions): { title: string; message: string } {
  const mask = (t: string): string => (opts.hideAmounts ? maskAmounts(t) : t);
  const repeatNote = o.repeat > 0 ? `Repeat ${o.repeat}, not acknowledged yet: ` : '';
  const ack = o.ackUrl ? `\nAcknowledge (stops the repeats): ${o.ackUrl}` : '';
  const privacy = opts.hideAmounts ? '\n(Amounts hidden on this channel.)' : '';
  return { title: mask(`${repeatNote}${o.alert.title}`), message: `${mask(o.alert.message)}${ack}${privacy}` };
}

/**
 * The message for one alert, or for a burst of them on one channel: "3 positions crossed
 * warning on SUI_USDC" with a line per alert, its level the highest of them, its link the one
 * manager's page when all are of one manager.
 */
export function compose(given: readonly Outgoing[], opts: ComposeOptions): Delivery {
  // The most severe first (then oldest): a phone shows the first lines.
  const items =
    given.length > 1
      ? [...given].sort((a, b) => LEVEL_ORDER.indexOf(a.alert.level) - LEVEL_ORDER.indexOf(b.alert.level))
      : given;
  const first = items[0]!;
  const base = deliveryOf(first.alert, opts.linkBase);
  const id = messageId(items);
  // The alerts' numbers, as the Alerts page and `export` show them: a reference for support and for counting what arrived.
  const reference =
    first.alert.id > 0
      ? `\nTidewatch alert${items.length > 1 ? 's' : ''} ${items.map((i) => `${i.alert.id}${i.repeat > 0 ? ` (repeat ${i.repeat})` : ''}`).join(', ')}`
      : '';
  if (items.length === 1) {
    const one = oneAlert(first, opts);
    const message = `${one.message}${reference}`;
    return {
      ...base,
      id,
      title: one.title,
      message,
      ackUrl: first.ackUrl,
      payload: { ...base.payload, id, title: one.title, message: one.message },
    };
  }
  const level = LEVEL_ORDER.find((l) => items.some((i) => i.alert.level === l)) ?? 'info';
  const rules = new Set(items.map((i) => i.alert.rule));
  const pools = new Set(items.map((i) => poolOf(i.alert)));
  const levels = new Set(items.map((i) => i.alert.level));
  const managers = new Set(items.map((i) => i.alert.manager_id));
  const pool = pools.size === 1 ? [...pools][0] : null;
  let title: string;
  if (rules.size === 1 && rules.has('risk-threshold') && levels.size === 1) {
    title = `${plural(managers.size, 'position')} crossed ${level}${pool ? ` on ${pool}` : ''}`;
  } else if (rules.size === 1 && rules.has('liquidation')) {
    title = `${plural(managers.size, 'position')} liquidated${pool ? ` on ${pool}` : ''}`;
  } else {
    // The most severe alert's own title, and what else came with it.
    const rest = LEVEL_ORDER.map((l) => [l, items.slice(1).filter((i) => i.alert.level === l).length] as const).filter(
      ([, n]) => n > 0,
    );
    title = `${oneAlert(first, opts).title} (+ ${rest.map(([l, n]) => `${n} ${l === 'warning' && n > 1 ? 'warnings' : l}`).join(', ')})`;
  }
  const privacy = opts.hideAmounts ? '\n(Amounts hidden on this channel.)' : '';
  const full = items.map((i) => {
    const one = oneAlert(i, opts);
    return `• ${one.title}\n  ${one.message.replace(/\n\(Amounts hidden on this channel\.\)$/, '').replace(/\n/g, '\n  ')}`;
  });
  // Too long for the receiver: a line per alert, its title and first sentence (the app has the rest).
  const compact = (): string[] =>
    items.map((i) => {
      const one = oneAlert(i, opts);
      const first = /^[^.]*(?:\.\d[^.]*)*\./.exec(one.message)?.[0] ?? one.message;
      return `• ${one.title}: ${first.length > 140 ? `${first.slice(0, 139)}…` : first}`;
    });
  let message = `${full.join('\n')}${privacy}${reference}`;
  if (!fits({ title: '', message, click: null }, opts.limit)) message = `${compact().join('\n')}${privacy}${reference}`;
  const click =
    managers.size === 1 ? base.click : opts.linkBase ? `${opts.linkBase.replace(/\/+$/, '')}/#/alerts` : null;
  return { ...base, id, level, title, message, click, payload: { ...base.payload, id, level, title, message } };
}
