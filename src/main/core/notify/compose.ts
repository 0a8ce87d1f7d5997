import type { AlertLevel, AlertRecord } from '../../../shared/contract';
import { leadOf, splitAction, summaryTitle, worstFirst } from '../../../shared/alert-notice';
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
const HIDDEN_NOTE = '\n(Amounts hidden on this channel.)';

/** The message id: the alert's for one (with its repeat), the group's first and count for several. */
export function messageId(items: readonly Pick<Outgoing, 'alert' | 'repeat'>[]): string {
  const first = items[0]!;
  const one = `tidewatch-alert-${first.alert.id}${first.repeat > 0 ? `-r${first.repeat}` : ''}`;
  return items.length === 1 ? one : `${one}-and-${items.length - 1}`;
}

/**
 * One alert's words on a channel: its title, and its text laid out for a glance (the action
 * sentence as the first line, within 120 characters, the details after: docs/alerts.md, "On the
 * screen and on the phone"); `plain` is the message as the alert has it, for the webhook's JSON.
 */
function oneAlert(o: Outgoing, opts: ComposeOptions): { title: string; text: string; plain: string; lead: string } {
  const mask = (t: string): string => (opts.hideAmounts ? maskAmounts(t) : t);
  const repeatNote = o.repeat > 0 ? `Repeat ${o.repeat}, not acknowledged yet: ` : '';
  const ack = o.ackUrl ? `\nAcknowledge (stops the repeats): ${o.ackUrl}` : '';
  const privacy = opts.hideAmounts ? HIDDEN_NOTE : '';
  const message = mask(o.alert.message);
  const { action, details } = splitAction(message);
  const text = action ? `${action}${details ? `\n${details}` : ''}` : message;
  return {
    title: mask(`${repeatNote}${o.alert.title}`),
    text: `${text}${ack}${privacy}`,
    plain: `${message}${ack}${privacy}`,
    lead: leadOf(message),
  };
}

/**
 * The message for one alert, or for a burst of them on one channel: the summary title the
 * screen's notification has ("3 positions critical on SUI_USDC", "3 alerts: 2 critical,
 * 1 warning"), a paragraph per alert worst first, its level the highest of them, its link the
 * one manager's page when all are of one manager.
 */
export function compose(given: readonly Outgoing[], opts: ComposeOptions): Delivery {
  // The most severe first (then oldest): a phone shows the first lines.
  const items =
    given.length > 1 ? worstFirst(given.map((o) => ({ ...o, rule: o.alert.rule, level: o.alert.level }))) : given;
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
    return {
      ...base,
      id,
      title: one.title,
      message: `${one.text}${reference}`,
      ackUrl: first.ackUrl,
      payload: { ...base.payload, id, title: one.title, message: one.plain },
    };
  }
  const level = LEVEL_ORDER.find((l) => items.some((i) => i.alert.level === l)) ?? 'info';
  const managers = new Set(items.map((i) => i.alert.manager_id));
  const mask = (t: string): string => (opts.hideAmounts ? maskAmounts(t) : t);
  const summary = summaryTitle(items.map((i) => ({ ...i.alert, title: mask(i.alert.title) })));
  const title = items.every((i) => i.repeat > 0) ? `Repeat, not acknowledged yet: ${summary}` : summary;
  const privacy = opts.hideAmounts ? HIDDEN_NOTE : '';
  const words = items.map((i) => oneAlert(i, opts));
  const full = words.map((one) => `• ${one.title}\n  ${one.text.replace(HIDDEN_NOTE, '').replace(/\n/g, '\n  ')}`);
  // Too long for the receiver: a line per alert, its title and its action or first words (the app has the rest).
  const compact = words.map((one) => `• ${one.title}: ${one.lead}`);
  let message = `${full.join('\n')}${privacy}${reference}`;
  if (!fits({ title: '', message, click: null }, opts.limit)) message = `${compact.join('\n')}${privacy}${reference}`;
  const click =
    managers.size === 1 ? base.click : opts.linkBase ? `${opts.linkBase.replace(/\/+$/, '')}/#/alerts` : null;
  return { ...base, id, level, title, message, click, payload: { ...base.payload, id, level, title, message } };
}
