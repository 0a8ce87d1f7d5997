import * as v from 'valibot';
import { Webhook } from 'standardwebhooks';
import { parse as parseYaml } from 'yaml';
import type { AlertLevel, AlertRecord } from '../../../shared/contract';
import { isTimeZone } from '../../../shared/zones';

/**
 * Where alerts go besides the screen: a JSON or YAML document (`serve --notify-config
 * FILE`, Settings → Alerts) naming channels of seven kinds, each with the lowest level it carries
 * and the rules it takes. A secret (a bot token, a password, a webhook URL, a signing secret, an
 * ntfy topic URL: whoever knows it can post or read) may be written `env:NAME` and is then read
 * from the environment; every secret, however given, is listed so it can be redacted everywhere.
 */

export const CHANNEL_TYPES = ['ntfy', 'telegram', 'discord', 'slack', 'email', 'webhook', 'desktop'] as const;
export type ChannelType = (typeof CHANNEL_TYPES)[number];

const LEVELS = ['info', 'warning', 'critical'] as const satisfies readonly AlertLevel[];
const RULES = [
  'risk-threshold',
  'recovered',
  'liquidation',
  'large-liquidation',
  'stream-auth',
  'store-write',
  'history-gap',
  'credit-budget',
  'interest',
  'rate',
  'blind',
  'channel',
  'digest',
] as const satisfies ReadonlyArray<AlertRecord['rule']>;

const Url = v.pipe(
  v.string(),
  v.url('must be a URL'),
  v.check((u) => /^https?:\/\//i.test(u), 'must be an http(s) URL'),
);
const Clock = v.pipe(v.string(), v.regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be a time like 22:00'));
const Zone = v.pipe(v.string(), v.maxLength(64), v.check(isTimeZone, 'must be a time zone like America/New_York'));

/** Whether the Standard Webhooks library can sign with this secret (base64, optionally after `whsec_`). */
function signingSecret(secret: string): boolean {
  try {
    new Webhook(secret);
    return secret.replace(/^whsec_/, '').length >= 8;
  } catch {
    return false;
  }
}

/** What every channel may say of itself. */
const common = {
  name: v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(60))),
  minLevel: v.optional(v.picklist(LEVELS), 'warning'),
  /** Only these rules (all when absent). */
  rules: v.optional(v.array(v.picklist(RULES))),
  /**
   * Warnings are held in between, critical alerts pass; on the clock of `zone` (an IANA name: the
   * page sets the browser's), else of the machine the monitor runs on (docs/notify.md#quiet-hours).
   */
  quietHours: v.optional(v.object({ from: Clock, to: Clock, zone: v.optional(Zone) })),
  /** Mask amounts in this channel's messages (privacy mode masks them everywhere). */
  hideAmounts: v.optional(v.boolean(), false),
  /** The least time between two messages (seconds): a burst meanwhile goes as one (default 5, e-mail 30, webhook 0). */
  minIntervalSec: v.optional(v.pipe(v.number(), v.minValue(0), v.maxValue(3600))),
  /** When this channel has failed for `afterMin` minutes, its waiting alerts go to that channel too (docs/notify.md#a-failing-channel). */
  fallback: v.optional(
    v.object({
      channel: v.pipe(v.string(), v.minLength(1), v.maxLength(60)),
      afterMin: v.optional(v.pipe(v.number(), v.minValue(0.5), v.maxValue(1440)), 2),
    }),
  ),
};

const ChannelSchema = v.variant('type', [
  v.object({
    type: v.literal('ntfy'),
    url: Url,
    token: v.optional(v.string()),
    tags: v.optional(v.array(v.string())),
    ...common,
  }),
  v.object({
    type: v.literal('telegram'),
    botToken: v.pipe(v.string(), v.minLength(1)),
    chatId: v.union([v.string(), v.number()]),
    apiRoot: v.optional(Url, 'https://api.telegram.org'),
    ...common,
  }),
  v.object({ type: v.literal('discord'), url: Url, ...common }),
  v.object({ type: v.literal('slack'), url: Url, ...common }),
  v.object({
    type: v.literal('email'),
    smtp: v.object({
      host: v.pipe(v.string(), v.minLength(1)),
      port: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(65_535)), 587),
      /** `starttls` (587), `tls` (465) or `none` (a local relay). */
      security: v.optional(v.picklist(['starttls', 'tls', 'none'])),
      user: v.optional(v.string()),
      password: v.optional(v.string()),
    }),
    from: v.pipe(v.string(), v.email('must be an e-mail address')),
    to: v.union(
      [
        v.pipe(v.string(), v.email('must be an e-mail address or a list of them')),
        v.array(v.pipe(v.string(), v.email('each must be an e-mail address'))),
      ],
      'must be an e-mail address or a list of them',
    ),
    ...common,
  }),
  v.object({
    type: v.literal('webhook'),
    url: Url,
    secret: v.optional(
      v.pipe(
        v.string(),
        v.check(
          signingSecret,
          'must be a Standard Webhooks secret: whsec_ followed by base64 (e.g. from `openssl rand -base64 32`)',
        ),
      ),
    ),
    ...common,
  }),
  v.object({ type: v.literal('desktop'), ...common }),
]);

const ConfigSchema = v.object({
  channels: v.optional(v.array(v.unknown()), []),
  /** Critical alerts are repeated this often until acknowledged (minutes; 0: never). */
  escalateEveryMin: v.optional(v.pipe(v.number(), v.minValue(0), v.maxValue(1440)), 5),
  /** The "blind" alarm goes out after Tidewatch could not see for this long (minutes). */
  blindAfterMin: v.optional(v.pipe(v.number(), v.minValue(0.5), v.maxValue(1440)), 3),
  /** A GET here every `heartbeatEveryMin` while everything is seen (healthchecks.io, Uptime Kuma push). */
  heartbeatUrl: v.optional(v.nullable(Url), null),
  heartbeatEveryMin: v.optional(v.pipe(v.number(), v.minValue(0.5), v.maxValue(1440)), 1),
  /** The manager page's address for links in messages (e.g. the served page's origin). */
  linkBase: v.optional(v.nullable(Url), null),
});

export type ChannelConfig = v.InferOutput<typeof ChannelSchema> & { name: string };
export type NotifyConfig = Omit<v.InferOutput<typeof ConfigSchema>, 'channels'> & { channels: ChannelConfig[] };

/** A channel config that cannot be used, in words that say what to fix (never a secret's value). */
export class NotifyConfigError extends Error {}

/** Which fields of each kind are secrets. */
const SECRET_FIELDS: Record<ChannelType, readonly string[]> = {
  ntfy: ['url', 'token'],
  telegram: ['botToken'],
  discord: ['url'],
  slack: ['url'],
  email: ['smtp.password'],
  webhook: ['url', 'secret'],
  desktop: [],
};

/** The secret fields of a kind of channel ("smtp.password"): Settings shows only whether each is set. */
export function secretFieldsOf(type: string): readonly string[] {
  return (SECRET_FIELDS as Record<string, readonly string[] | undefined>)[type] ?? [];
}

const ENV = /^env:([A-Za-z_][A-Za-z0-9_]*)$/;

/** Replace `env:NAME` in every string of `x` (depth first); a name that is not set is an error. */
function fromEnv(x: unknown, env: Readonly<Record<string, string | undefined>>, where: string): unknown {
  if (typeof x === 'string') {
    const m = ENV.exec(x.trim());
    if (!m) return x;
    const value = env[m[1]!];
    if (value === undefined || value === '')
      throw new NotifyConfigError(
        `${where} names the environment variable ${m[1]}, which is not set. Set it before starting Tidewatch.`,
      );
    return value;
  }
  if (Array.isArray(x)) return x.map((y, i) => fromEnv(y, env, `${where}[${i}]`));
  if (x !== null && typeof x === 'object')
    return Object.fromEntries(Object.entries(x).map(([k, y]) => [k, fromEnv(y, env, `${where}.${k}`)]));
  return x;
}

const at = (o: unknown, path: string): unknown =>
  path
    .split('.')
    .reduce<unknown>(
      (x, k) => (x !== null && typeof x === 'object' ? (x as Record<string, unknown>)[k] : undefined),
      o,
    );

/** "channels[2] (telegram): chatId: Invalid type" from valibot's issues, without the values. */
function problem(where: string, issues: readonly v.BaseIssue<unknown>[]): string {
  const first = issues[0]!;
  const path = first.path?.map((p) => String(p.key)).join('.') ?? '';
  // Valibot's own messages end with what was received: a secret may be that, so it goes.
  const message = first.message.replace(/:? ?Received .*$/s, '');
  return `${where}${path ? `: ${path}` : ''}: ${message}`;
}

/**
 * The config in `text` (JSON or YAML; `source` names it in errors), secrets read from `env`.
 * Returns it with every secret's value (to be redacted everywhere); throws NotifyConfigError.
 * `elsewhere`: channels defined outside this document that a fallback may name (the config
 * file's, for the channels saved in Settings), with their kinds.
 */
export function parseNotifyConfig(
  text: string,
  env: Readonly<Record<string, string | undefined>> = process.env,
  source = 'the notify config',
  elsewhere: ReadonlyArray<Pick<ChannelConfig, 'name' | 'type'>> = [],
): { config: NotifyConfig; secrets: string[] } {
  let raw: unknown;
  try {
    raw = parseYaml(text);
  } catch (err) {
    throw new NotifyConfigError(`${source} is neither JSON nor YAML: ${(err as Error).message.split('\n')[0]}`);
  }
  const top = v.safeParse(ConfigSchema, raw ?? {});
  if (!top.success) throw new NotifyConfigError(problem(source, top.issues));
  const secrets: string[] = [];
  const seen = new Map<string, number>();
  const channels = top.output.channels.map((c, i): ChannelConfig => {
    const type = typeof c === 'object' && c !== null ? (c as { type?: unknown }).type : undefined;
    const where = `channels[${i}]${typeof type === 'string' ? ` (${type})` : ''}`;
    if (typeof type !== 'string' || !(CHANNEL_TYPES as readonly string[]).includes(type)) {
      throw new NotifyConfigError(`${where}: type must be one of ${CHANNEL_TYPES.join(', ')}`);
    }
    const parsed = v.safeParse(ChannelSchema, fromEnv(c, env, where));
    if (!parsed.success) throw new NotifyConfigError(problem(where, parsed.issues));
    const ch = parsed.output;
    for (const field of SECRET_FIELDS[ch.type]) {
      const value = at(ch, field);
      if (typeof value === 'string' && value.length > 0) secrets.push(value);
    }
    const n = (seen.get(ch.type) ?? 0) + 1;
    seen.set(ch.type, n);
    return { ...ch, name: ch.name ?? (n === 1 ? ch.type : `${ch.type}-${n}`) };
  });
  const names = new Set<string>();
  for (const c of channels) {
    if (names.has(c.name))
      throw new NotifyConfigError(`${source}: two channels are named "${c.name}"; give each its own name.`);
    names.add(c.name);
  }
  const kinds = new Map([...elsewhere, ...channels].map((c) => [c.name, c.type]));
  channels.forEach((c, i) => {
    if (!c.fallback) return;
    const where = `channels[${i}] (${c.type}): fallback`;
    const to = c.fallback.channel;
    if (c.type === 'desktop')
      throw new NotifyConfigError(`${where}: the desktop notification has no fallback (it does not fail).`);
    if (to === c.name) throw new NotifyConfigError(`${where}: a channel cannot be its own fallback.`);
    const kind = kinds.get(to);
    if (kind === undefined)
      throw new NotifyConfigError(
        `${where}: no channel is named "${to}"; name one of ${[...kinds.keys()].join(', ')}.`,
      );
    if (kind === 'desktop')
      throw new NotifyConfigError(
        `${where}: the desktop notification cannot be a fallback (it shows on this computer, not away from the desk).`,
      );
  });
  if (top.output.heartbeatUrl) secrets.push(top.output.heartbeatUrl);
  return { config: { ...top.output, channels }, secrets };
}

/** Whether a channel takes an alert by its level and rule. */
export function carries(c: Pick<ChannelConfig, 'minLevel' | 'rules'>, a: Pick<AlertRecord, 'level' | 'rule'>): boolean {
  return LEVELS.indexOf(a.level) >= LEVELS.indexOf(c.minLevel) && (c.rules === undefined || c.rules.includes(a.rule));
}
