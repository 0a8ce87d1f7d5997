import type { AlertLevel, AlertRecord, NotifyChannelView } from '../../../../shared/contract';
import { localZone } from '../../../../shared/zones';

/**
 * Settings → Alert channels: the form of each kind of channel, and the channel it sends to
 * `saveNotifyChannel` (the notify config's shape). A secret is never shown nor prefilled: its
 * input stays empty, says "set" when one is saved, and an empty one is left out so the saved
 * value stays.
 */

export type ChannelType = NotifyChannelView['type'];

export const CHANNEL_TYPE_NAMES: Readonly<Record<ChannelType, string>> = {
  ntfy: 'ntfy',
  telegram: 'Telegram',
  discord: 'Discord',
  slack: 'Slack',
  email: 'E-mail',
  webhook: 'Webhook',
  desktop: 'Desktop notification',
};

export interface FieldDef {
  /** Its path in the channel ("smtp.host"), as NotifyChannelView names it. */
  path: string;
  label: string;
  kind: 'text' | 'url' | 'number' | 'email' | 'list' | 'select';
  secret?: boolean;
  required?: boolean;
  placeholder?: string;
  options?: readonly string[];
  hint?: string;
  /** The field in a sentence ("Enter the recipient's address."), when its label will not do. */
  noun?: string;
  /** What a new channel starts with. */
  initial?: string;
}

/** Each kind's own fields, beside the common ones (name, lowest level, rules, quiet hours, hide amounts). */
export const CHANNEL_FIELDS: Readonly<Record<ChannelType, readonly FieldDef[]>> = {
  ntfy: [
    {
      path: 'url',
      label: 'Topic URL',
      kind: 'url',
      secret: true,
      required: true,
      placeholder: 'https://ntfy.sh/your-secret-topic',
      hint: 'whoever knows it can read your alerts: pick a long, unguessable topic',
    },
    {
      path: 'token',
      label: 'Access token',
      kind: 'text',
      secret: true,
      placeholder: 'optional: for a protected topic',
    },
    { path: 'tags', label: 'Tags', kind: 'list', placeholder: 'optional, comma-separated' },
  ],
  telegram: [
    {
      path: 'botToken',
      label: 'Bot token',
      kind: 'text',
      secret: true,
      required: true,
      placeholder: '123456:ABC… from @BotFather',
    },
    { path: 'chatId', label: 'Chat id', kind: 'text', required: true, placeholder: 'e.g. 123456789 or @channel' },
    { path: 'apiRoot', label: 'Bot API root', kind: 'url', initial: 'https://api.telegram.org' },
  ],
  discord: [
    {
      path: 'url',
      label: 'Webhook URL',
      kind: 'url',
      secret: true,
      required: true,
      placeholder: 'https://discord.com/api/webhooks/…',
    },
  ],
  slack: [
    {
      path: 'url',
      label: 'Webhook URL',
      kind: 'url',
      secret: true,
      required: true,
      placeholder: 'https://hooks.slack.com/services/…',
    },
  ],
  email: [
    { path: 'smtp.host', label: 'SMTP host', kind: 'text', required: true, placeholder: 'smtp.example.com' },
    { path: 'smtp.port', label: 'Port', kind: 'number', initial: '587' },
    {
      path: 'smtp.security',
      label: 'Security',
      kind: 'select',
      options: ['starttls', 'tls', 'none'],
      initial: 'starttls',
      hint: 'STARTTLS on 587, TLS on 465, none for a local relay',
    },
    { path: 'smtp.user', label: 'User', kind: 'text', placeholder: 'optional' },
    { path: 'smtp.password', label: 'Password', kind: 'text', secret: true, placeholder: 'optional' },
    {
      path: 'from',
      label: 'From',
      noun: "sender's address",
      kind: 'email',
      required: true,
      placeholder: 'tidewatch@example.com',
    },
    {
      path: 'to',
      label: 'To',
      noun: "recipient's address",
      kind: 'list',
      required: true,
      placeholder: 'you@example.com (comma-separated for several)',
    },
  ],
  webhook: [
    {
      path: 'url',
      label: 'URL',
      kind: 'url',
      secret: true,
      required: true,
      placeholder: 'https://example.com/hooks/tidewatch',
    },
    {
      path: 'secret',
      label: 'Signing secret',
      kind: 'text',
      secret: true,
      placeholder: 'optional: signs each message (Standard Webhooks)',
    },
  ],
  desktop: [],
};

/** The rules a channel may be limited to (none chosen: every rule). */
export const CHANNEL_RULES: ReadonlyArray<AlertRecord['rule']> = [
  'risk-threshold',
  'liquidation',
  'interest',
  'rate',
  'large-liquidation',
  'stream-auth',
  'store-write',
  'history-gap',
  'credit-budget',
];

export interface ChannelForm {
  type: ChannelType;
  name: string;
  minLevel: AlertLevel;
  rules: Array<AlertRecord['rule']>;
  quietFrom: string;
  quietTo: string;
  /** The zone on whose clock the quiet hours are kept and applied: the channel's, or the browser's for new ones. */
  quietZone: string;
  hideAmounts: boolean;
  /** As typed: Vue's v-model on a number input hands over a number once one is typed. */
  minIntervalSec: string | number;
  /** The channel its waiting alerts go to when it is not reached ('' none), and after how many minutes. */
  fallbackChannel: string;
  fallbackAfterMin: string | number;
  /** The kind's fields by path, as typed (secrets empty unless typed). */
  values: Record<string, string>;
}

/** A label inside a sentence: "Topic URL" -> "topic URL", "SMTP host" stays. */
const inSentence = (f: Pick<FieldDef, 'label' | 'noun'>): string =>
  f.noun ?? f.label.replace(/^[A-Z](?=[a-z])/, (c) => c.toLowerCase());

/** The time zones quiet hours may be kept on (Intl's, UTC too), with `current` among them whatever it is. */
export function zoneChoices(current: string): string[] {
  const known = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return [...new Set([current, 'UTC', ...known])].sort((a, b) => a.localeCompare(b));
}

export function emptyForm(type: ChannelType = 'ntfy'): ChannelForm {
  return {
    type,
    name: '',
    minLevel: 'warning',
    rules: [],
    quietFrom: '',
    quietTo: '',
    quietZone: localZone(),
    hideAmounts: false,
    minIntervalSec: '',
    fallbackChannel: '',
    fallbackAfterMin: '2',
    values: initialValues(type),
  };
}

export function initialValues(type: ChannelType): Record<string, string> {
  return Object.fromEntries(CHANNEL_FIELDS[type].map((f) => [f.path, f.initial ?? '']));
}

/** A saved channel in the form: its fields as text, its secrets empty. */
export function formOf(c: NotifyChannelView): ChannelForm {
  const values = initialValues(c.type);
  for (const f of CHANNEL_FIELDS[c.type]) {
    if (f.secret) continue;
    const v = c.fields[f.path];
    if (v !== undefined && v !== null) values[f.path] = Array.isArray(v) ? v.join(', ') : String(v);
  }
  return {
    type: c.type,
    name: c.name,
    minLevel: c.minLevel,
    rules: [...(c.rules ?? [])],
    quietFrom: c.quietHours?.from ?? '',
    quietTo: c.quietHours?.to ?? '',
    quietZone: c.quietHours?.zone ?? localZone(),
    hideAmounts: c.hideAmounts,
    minIntervalSec: c.minIntervalSec === null ? '' : String(c.minIntervalSec),
    fallbackChannel: c.fallback?.channel ?? '',
    fallbackAfterMin: String(c.fallback?.afterMin ?? 2),
    values,
  };
}

function setPath(o: Record<string, unknown>, path: string, value: unknown): void {
  const keys = path.split('.');
  let x = o;
  for (const k of keys.slice(0, -1)) x = (x[k] ??= {}) as Record<string, unknown>;
  x[keys.at(-1)!] = value;
}

/**
 * The channel to save, or what is missing in plain words. `editing`: the saved channel this form
 * changes; a secret left empty is left out (the saved one stays), unless there is none to keep.
 */
export function channelOf(
  form: ChannelForm,
  editing?: NotifyChannelView,
): { channel: Record<string, unknown> } | { problem: string } {
  const kept = (path: string): boolean =>
    editing !== undefined && editing.type === form.type && editing.secrets[path] === true;
  const channel: Record<string, unknown> = { type: form.type };
  if (form.name.trim()) channel['name'] = form.name.trim();
  channel['minLevel'] = form.minLevel;
  if (form.rules.length > 0) channel['rules'] = [...form.rules];
  const from = form.quietFrom.trim();
  const to = form.quietTo.trim();
  if (from || to) {
    if (!from || !to) return { problem: 'Quiet hours need both a start and an end (or neither).' };
    // Kept with the zone they were set in: the monitor applies them on its clock, wherever it runs.
    channel['quietHours'] = { from, to, zone: form.quietZone || localZone() };
  }
  channel['hideAmounts'] = form.hideAmounts;
  if (String(form.minIntervalSec).trim()) {
    const s = Number(form.minIntervalSec);
    if (!Number.isFinite(s) || s < 0) return { problem: 'The least time between messages is a number of seconds.' };
    channel['minIntervalSec'] = s;
  }
  if (form.fallbackChannel) {
    const after = Number(form.fallbackAfterMin);
    if (String(form.fallbackAfterMin).trim() === '' || !Number.isFinite(after) || after < 0.5)
      return { problem: 'The fallback takes over after a number of minutes (at least 0.5).' };
    channel['fallback'] = { channel: form.fallbackChannel, afterMin: after };
  }
  for (const f of CHANNEL_FIELDS[form.type]) {
    const text = (form.values[f.path] ?? '').trim();
    if (text === '') {
      if (f.required && !(f.secret && kept(f.path))) return { problem: `Enter the ${inSentence(f)}.` };
      continue;
    }
    if (f.kind === 'number') {
      const n = Number(text);
      if (!Number.isInteger(n)) return { problem: `The ${inSentence(f)} is a whole number.` };
      setPath(channel, f.path, n);
    } else if (f.kind === 'list') {
      const items = text
        .split(',')
        .map((x) => x.trim())
        .filter(Boolean);
      // One address is sent as one (the config takes an address or a list).
      setPath(channel, f.path, f.path === 'to' && items.length === 1 ? items[0] : items);
    } else {
      setPath(channel, f.path, text);
    }
  }
  return { channel };
}

/** Each kind's field labels by path, for the errors main answers in the config's words. */
function labelOf(type: ChannelType | undefined, path: string): string {
  const common: Record<string, string> = {
    name: 'name',
    minLevel: 'lowest level',
    rules: 'rules',
    quietHours: 'quiet hours',
    'quietHours.from': 'start of the quiet hours',
    'quietHours.to': 'end of the quiet hours',
    'quietHours.zone': 'time zone of the quiet hours',
    minIntervalSec: 'least time between messages',
    hideAmounts: 'hide amounts',
    fallback: 'fallback',
    'fallback.channel': 'fallback channel',
    'fallback.afterMin': 'fallback delay',
    escalateEveryMin: 'repeat interval',
    blindAfterMin: 'blind alarm delay',
    heartbeatUrl: 'heartbeat URL',
    heartbeatEveryMin: 'heartbeat interval',
    linkBase: 'link base URL',
  };
  const own = type ? CHANNEL_FIELDS[type].find((f) => f.path === path) : undefined;
  return own ? inSentence(own) : (common[path] ?? path.replace(/\./g, ' '));
}

/**
 * A save's error in plain words: "saveNotifyChannel: channels[0] (ntfy): url: must be an http(s)
 * URL" becomes "The topic URL must be an http(s) URL." (no method, no index, the form's own label).
 */
export function plainError(message: string, type?: ChannelType): string {
  let m = message
    .replace(/^(saveNotifyChannel|removeNotifyChannel|updateNotifyOptions|notifyTest): /, '')
    .replace(/^the (channel|channels saved in Settings): /, '');
  const where = /^channels\[\d+\](?: \((\w+)\))?: /.exec(m);
  const kind = (where?.[1] as ChannelType | undefined) ?? type;
  if (where) m = m.slice(where[0].length);
  const field = /^([A-Za-z][\w.]*): (.*)$/s.exec(m);
  if (field) {
    const label = labelOf(kind, field[1]!);
    // "heartbeatUrl: heartbeatUrl must be…": the contract's own messages name the field again.
    const rest = field[2]!
      .replace(new RegExp(`^${field[1]!.replace(/\./g, '\\.')} `), '')
      .replace(/^Invalid key: .*$/s, 'is missing')
      .replace(/^Invalid type: Expected (.*?) but received .*$/s, 'must be $1');
    m = /^(must|each|is|needs)\b/.test(rest) ? `the ${label} ${rest}` : `the ${label}: ${rest}`;
  }
  m = m.trim().replace(/^./, (c) => c.toUpperCase());
  return /[.!?]$/.test(m) ? m : `${m}.`;
}

/** "warning and above", "critical only", "everything". */
export function levelWords(l: AlertLevel): string {
  return l === 'critical' ? 'critical only' : l === 'warning' ? 'warning and above' : 'everything';
}

/** Where a channel sends, from its fields that are not secrets ("chat 12345", "to you@example.com via smtp.example.com"). */
export function channelWhere(c: NotifyChannelView): string {
  const f = c.fields;
  const list = (v: unknown): string => (Array.isArray(v) ? v.join(', ') : String(v ?? ''));
  switch (c.type) {
    case 'telegram':
      return `chat ${list(f['chatId'])}`;
    case 'email':
      return `to ${list(f['to'])} via ${list(f['smtp.host'])}`;
    case 'ntfy':
      return f['tags'] ? `tags ${list(f['tags'])}` : '';
    case 'desktop':
      return "the desktop app's notifications";
    default:
      return '';
  }
}
