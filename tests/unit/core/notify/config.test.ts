import { describe, expect, it } from 'vitest';
import { carries, NotifyConfigError, parseNotifyConfig } from '../../../../src/main/core/notify/config';

/** The example, as written. */
const EXAMPLE = `{ "channels": [
    { "type": "ntfy", "url": "https://ntfy.sh/my-topic", "minLevel": "warning" },
    { "type": "telegram", "botToken": "env:TW_TG_TOKEN", "chatId": "123456789", "apiRoot": "https://api.telegram.org" },
    { "type": "discord", "url": "env:TW_DISCORD_WEBHOOK" },
    { "type": "webhook", "url": "https://example.org/hook", "secret": "env:TW_HOOK_SECRET", "minLevel": "critical" },
    { "type": "email", "smtp": { "host": "smtp.example.org", "port": 587, "user": "me", "password": "env:TW_SMTP_PASSWORD" },
      "from": "tidewatch@example.org", "to": "me@example.org" } ],
  "escalateEveryMin": 5, "blindAfterMin": 3, "heartbeatUrl": "https://hc-ping.com/your-uuid" }`;

const ENV = {
  TW_TG_TOKEN: '123:tg-secret',
  TW_DISCORD_WEBHOOK: 'https://discord.com/api/webhooks/1/abc',
  TW_HOOK_SECRET: 'whsec_c2VjcmV0',
  TW_SMTP_PASSWORD: 'p4ss',
};

describe('the notify config (channels for alerts away from the screen)', () => {
  it('takes the example as written, secrets from the environment, and lists every secret', () => {
    const { config, secrets } = parseNotifyConfig(EXAMPLE, ENV);
    expect(config.channels.map((c) => [c.name, c.type, c.minLevel])).toEqual([
      ['ntfy', 'ntfy', 'warning'],
      ['telegram', 'telegram', 'warning'],
      ['discord', 'discord', 'warning'],
      ['webhook', 'webhook', 'critical'],
      ['email', 'email', 'warning'],
    ]);
    expect(config.channels[1]).toMatchObject({ botToken: '123:tg-secret', chatId: '123456789' });
    expect(config.channels[4]).toMatchObject({ smtp: { host: 'smtp.example.org', port: 587, password: 'p4ss' } });
    expect(config).toMatchObject({
      escalateEveryMin: 5,
      blindAfterMin: 3,
      heartbeatUrl: 'https://hc-ping.com/your-uuid',
    });
    expect(secrets.sort()).toEqual(
      [
        'https://ntfy.sh/my-topic',
        '123:tg-secret',
        'https://discord.com/api/webhooks/1/abc',
        'https://example.org/hook',
        'whsec_c2VjcmV0',
        'p4ss',
        'https://hc-ping.com/your-uuid',
      ].sort(),
    );
  });

  it('reads YAML alike, names repeated kinds apart, and defaults what is left out', () => {
    const { config } = parseNotifyConfig(
      'channels:\n  - type: ntfy\n    url: https://ntfy.example/a\n  - type: ntfy\n    url: https://ntfy.example/b\n    quietHours: { from: "22:00", to: "07:00" }\n',
      {},
    );
    expect(config.channels.map((c) => c.name)).toEqual(['ntfy', 'ntfy-2']);
    expect(config.channels[1]).toMatchObject({ quietHours: { from: '22:00', to: '07:00' } });
    expect(config).toMatchObject({ escalateEveryMin: 5, blindAfterMin: 3, heartbeatUrl: null, heartbeatEveryMin: 1 });
    expect(parseNotifyConfig('', {}).config.channels).toEqual([]);
  });

  it("keeps quiet hours' zone, the one they are applied on, and refuses one that is no zone", () => {
    const { config } = parseNotifyConfig(
      '{"channels":[{"type":"ntfy","url":"https://n/a","quietHours":{"from":"22:00","to":"07:00","zone":"America/New_York"}}]}',
      {},
    );
    expect(config.channels[0]!.quietHours).toEqual({ from: '22:00', to: '07:00', zone: 'America/New_York' });
    expect(() =>
      parseNotifyConfig(
        '{"channels":[{"type":"ntfy","url":"https://n/a","quietHours":{"from":"22:00","to":"07:00","zone":"Mars/Olympus"}}]}',
        {},
      ),
    ).toThrow('channels[0] (ntfy): quietHours.zone: must be a time zone like America/New_York');
  });

  it('says what to fix in plain words, never with a secret in it', () => {
    const fail = (text: string, env: Record<string, string> = {}): string => {
      try {
        parseNotifyConfig(text, env, 'notify.json');
      } catch (err) {
        expect(err).toBeInstanceOf(NotifyConfigError);
        return (err as Error).message;
      }
      throw new Error('no error');
    };
    expect(fail(EXAMPLE, { ...ENV, TW_TG_TOKEN: '' })).toBe(
      'channels[1] (telegram).botToken names the environment variable TW_TG_TOKEN, which is not set. Set it before starting Tidewatch.',
    );
    expect(fail('{"channels":[{"type":"pager"}]}')).toBe(
      'channels[0] (pager): type must be one of ntfy, telegram, discord, slack, email, webhook, desktop',
    );
    expect(fail('{"channels":[{"type":"discord","url":"ftp://x"}]}')).toBe(
      'channels[0] (discord): url: must be an http(s) URL',
    );
    expect(fail('{"channels":[{"type":"email","smtp":{"host":"h"},"from":"me@example.org","to":"nobody"}]}')).toBe(
      'channels[0] (email): to: must be an e-mail address or a list of them',
    );
    expect(
      fail(
        '{"channels":[{"type":"ntfy","url":"https://n/a","name":"x"},{"type":"ntfy","url":"https://n/b","name":"x"}]}',
      ),
    ).toContain('two channels are named "x"');
    expect(fail('channels: [')).toMatch(/^notify.json is neither JSON nor YAML/);
    const bad = fail('{"channels":[{"type":"webhook","url":"https://h.example/hook?token=s3cr3t","minLevel":"loud"}]}');
    expect(bad).toContain('minLevel');
    expect(bad).not.toContain('s3cr3t');
  });

  it('takes a fallback that names another channel (of this file, or of the file beside Settings), in YAML too', () => {
    const yaml = `channels:
  - type: ntfy
    name: phone
    url: https://ntfy.sh/t
    fallback: { channel: email, afterMin: 5 }
  - type: email
    smtp: { host: smtp.example.org }
    from: a@example.org
    to: b@example.org
    fallback: { channel: phone }
`;
    const { config } = parseNotifyConfig(yaml, {});
    expect(config.channels.map((c) => c.fallback)).toEqual([
      { channel: 'email', afterMin: 5 },
      { channel: 'phone', afterMin: 2 },
    ]);
    const fail = (text: string, elsewhere: Array<{ name: string; type: 'ntfy' | 'desktop' }> = []): string => {
      try {
        parseNotifyConfig(text, {}, 'notify.json', elsewhere);
      } catch (err) {
        expect(err).toBeInstanceOf(NotifyConfigError);
        return (err as Error).message;
      }
      throw new Error('no error');
    };
    const hook = (fallback: unknown): string =>
      JSON.stringify({ channels: [{ type: 'webhook', name: 'hook', url: 'https://h.example/x', fallback }] });
    expect(fail(hook({ channel: 'pager' }))).toBe(
      'channels[0] (webhook): fallback: no channel is named "pager"; name one of hook.',
    );
    expect(fail(hook({ channel: 'hook' }))).toBe(
      'channels[0] (webhook): fallback: a channel cannot be its own fallback.',
    );
    expect(fail(hook({ channel: 'screen' }), [{ name: 'screen', type: 'desktop' }])).toMatch(
      /^channels\[0\] \(webhook\): fallback: the desktop notification cannot be a fallback/,
    );
    expect(fail(hook({ channel: 'phone', afterMin: 0 }))).toMatch(/^channels\[0\] \(webhook\): fallback.afterMin: /);
    // A channel saved in Settings may name one of the file's.
    expect(() =>
      parseNotifyConfig(hook({ channel: 'phone' }), {}, 'Settings', [{ name: 'phone', type: 'ntfy' }]),
    ).not.toThrow();
  });

  it('carries an alert by its level and rule', () => {
    expect(carries({ minLevel: 'warning' }, { level: 'critical', rule: 'liquidation' })).toBe(true);
    expect(carries({ minLevel: 'critical' }, { level: 'warning', rule: 'risk-threshold' })).toBe(false);
    expect(carries({ minLevel: 'info', rules: ['liquidation'] }, { level: 'warning', rule: 'risk-threshold' })).toBe(
      false,
    );
  });
});
