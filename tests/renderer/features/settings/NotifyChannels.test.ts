// @vitest-environment happy-dom
import { mount } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { NotifyChannelView, NotifyView } from '../../../../src/shared/contract';
import { ApiError, setApi } from '../../../../src/renderer/src/api';
import NotifyChannels from '../../../../src/renderer/src/features/settings/NotifyChannels.vue';
import { channelOf, formOf, plainError } from '../../../../src/renderer/src/features/settings/notify-form';
import { privacy } from '../../../../src/renderer/src/format';
import { fakeApi } from '../../../support/fake-api';
import { settle } from '../../support/timing';

beforeEach(() => setActivePinia(createPinia()));

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  privacy.value = false;
  document.body.innerHTML = '';
});

describe('Settings → Alert channels', () => {
  const phone: NotifyChannelView = {
    name: 'phone',
    type: 'telegram',
    source: 'settings',
    minLevel: 'warning',
    rules: null,
    // Set in New York; this browser is in UTC (vitest.config.ts).
    quietHours: { from: '22:00', to: '07:00', zone: 'America/New_York' },
    hideAmounts: false,
    minIntervalSec: null,
    fallback: null,
    fields: { chatId: '12345', apiRoot: 'https://api.telegram.org' },
    secrets: { botToken: true },
    status: { pending: 0, lastSentAt: null, failing: null },
  };
  const ops: NotifyChannelView = {
    name: 'ops',
    type: 'webhook',
    source: 'file',
    minLevel: 'critical',
    rules: ['liquidation'],
    quietHours: null,
    hideAmounts: true,
    minIntervalSec: 0,
    fallback: null,
    fields: {},
    secrets: { url: true, secret: false },
    status: {
      pending: 3,
      lastSentAt: null,
      failing: {
        since: Date.UTC(2026, 10, 25, 15, 20),
        at: Date.UTC(2026, 10, 25, 15, 24),
        detail: 'the webhook (ops) could not be reached (the host is down, unknown or unreachable); it is tried again.',
      },
    },
  };
  const VIEW: NotifyView = {
    channels: [ops, phone],
    escalateEveryMin: 5,
    blindAfterMin: 3,
    heartbeatSet: true,
    heartbeatEveryMin: 1,
    linkBase: null,
    file: 'notify.yaml',
    pending: 0,
  };
  const mountChannels = (answers: Record<string, (args: any) => unknown> = {}) => {
    const f = fakeApi({
      notifyChannels: () => VIEW,
      saveNotifyChannel: () => VIEW,
      updateNotifyOptions: () => VIEW,
      ...answers,
    });
    setApi(f.api);
    return { f, w: mount(NotifyChannels, { attachTo: document.body }) };
  };

  it('lists the channels, the file\'s read only, secrets only as "set"', async () => {
    const { w } = mountChannels();
    await settle();
    const rows = w.findAll('[data-testid="notify-channel"]');
    expect(rows.map((r) => r.attributes('data-channel'))).toEqual(['ops', 'phone']);
    expect(rows[0]!.text()).toContain('from notify.yaml');
    expect(rows[0]!.text()).toContain('critical only');
    expect(rows[0]!.text()).toContain('only liquidations of your positions');
    expect(rows[0]!.find('[data-testid="notify-edit"]').exists()).toBe(false);
    expect(rows[0]!.find('[data-testid="notify-remove"]').exists()).toBe(false);
    // On the clock they are applied on, which it names: New York's, not this browser's UTC.
    expect(rows[1]!.text()).toMatch(/quiet 10:00\sPM–7:00\sAM EST \(America\/New_York\)/);
    expect(rows[1]!.text()).toContain('chat 12345');
    // A channel that fails says so, and what waits behind it.
    expect(rows[0]!.get('[data-testid="notify-failing"]').text()).toMatch(
      /^✗ failing since .*: the webhook \(ops\) could not be reached/,
    );
    expect(rows[0]!.text()).toContain('3 waiting');
    expect(w.get('[data-testid="notify-file"]').text()).toContain('tidewatch serve --notify-config notify.yaml');
    // The heartbeat URL is a secret too: "set", never its value.
    expect(w.get('[data-testid="notify-options"]').text()).toContain('set');
    expect((w.get('[data-testid="notify-heartbeat"]').element as HTMLInputElement).value).toBe('');
    expect((w.get('[data-testid="notify-heartbeat"]').element as HTMLInputElement).placeholder).toBe(
      'set — leave empty to keep',
    );
    w.unmount();
  });

  it('edits a channel without its secret: the input stays empty, says "set", and an empty one is not sent', async () => {
    const { f, w } = mountChannels();
    await settle();
    await w.findAll('[data-testid="notify-channel"]')[1]!.get('[data-testid="notify-edit"]').trigger('click');
    const token = w.get('[data-testid="notify-field-botToken"]');
    expect(token.attributes('type')).toBe('password');
    expect((token.element as HTMLInputElement).value).toBe('');
    expect(token.attributes('placeholder')).toBe('set — leave empty to keep');
    expect((w.get('[data-testid="notify-field-chatId"]').element as HTMLInputElement).value).toBe('12345');
    // The quiet hours' zone is the channel's, not this browser's: saved again as it was.
    expect((w.get('[data-testid="notify-quiet-zone"]').element as HTMLSelectElement).value).toBe('America/New_York');
    await w.get('[data-testid="notify-field-chatId"]').setValue('67890');
    await w.get('[data-testid="notify-form"]').trigger('submit');
    await settle();
    const [, args] = f.calls.find(([m]) => m === 'saveNotifyChannel')! as [
      string,
      { channel: Record<string, unknown>; replaces?: string },
    ];
    expect(args.replaces).toBe('phone');
    expect(args.channel).toEqual({
      type: 'telegram',
      name: 'phone',
      minLevel: 'warning',
      quietHours: { from: '22:00', to: '07:00', zone: 'America/New_York' },
      hideAmounts: false,
      chatId: '67890',
      apiRoot: 'https://api.telegram.org',
    });
    expect('botToken' in args.channel).toBe(false);
    expect(w.find('[data-testid="notify-form"]').exists()).toBe(false);
    w.unmount();
  });

  it("sets quiet hours on this browser's clock unless another zone is chosen, and saves the zone with them", async () => {
    const { f, w } = mountChannels();
    await settle();
    await w.get('[data-testid="notify-add"]').trigger('click');
    const zone = w.get('[data-testid="notify-quiet-zone"]');
    // This browser's zone first (UTC here), any zone Intl knows to choose from.
    expect((zone.element as HTMLSelectElement).value).toBe('UTC');
    const choices = w.findAll('[data-testid="notify-quiet-zone"] option').map((o) => o.attributes('value'));
    expect(choices).toEqual(expect.arrayContaining(['UTC', 'America/New_York', 'Europe/Berlin']));
    await w.get('[data-testid="notify-name"]').setValue('pager');
    await w.get('[data-testid="notify-field-url"]').setValue('https://ntfy.sh/t');
    await w.get('[data-testid="notify-quiet-from"]').setValue('23:00');
    await w.get('[data-testid="notify-quiet-to"]').setValue('06:30');
    await w.get('[data-testid="notify-form"]').trigger('submit');
    await settle();
    expect(f.calls.filter(([m]) => m === 'saveNotifyChannel').at(-1)![1]).toMatchObject({
      channel: { quietHours: { from: '23:00', to: '06:30', zone: 'UTC' } },
    });
    await w.get('[data-testid="notify-add"]').trigger('click');
    await w.get('[data-testid="notify-name"]').setValue('berlin');
    await w.get('[data-testid="notify-field-url"]').setValue('https://ntfy.sh/b');
    await w.get('[data-testid="notify-quiet-from"]').setValue('23:00');
    await w.get('[data-testid="notify-quiet-to"]').setValue('06:30');
    await w.get('[data-testid="notify-quiet-zone"]').setValue('Europe/Berlin');
    await w.get('[data-testid="notify-form"]').trigger('submit');
    await settle();
    expect(f.calls.filter(([m]) => m === 'saveNotifyChannel').at(-1)![1]).toMatchObject({
      channel: { quietHours: { from: '23:00', to: '06:30', zone: 'Europe/Berlin' } },
    });
    w.unmount();
  });

  it('names a fallback: another channel that takes its waiting alerts after some minutes, said on its row', async () => {
    const withFallback: NotifyView = {
      ...VIEW,
      channels: [ops, { ...phone, fallback: { channel: 'ops', afterMin: 3 } }],
    };
    const { f, w } = mountChannels({ notifyChannels: () => withFallback, saveNotifyChannel: () => withFallback });
    await settle();
    expect(w.get('[data-channel="phone"] [data-testid="notify-fallback-words"]').text()).toBe(
      'not reached for 3 min: its alerts go to ops',
    );
    await w.get('[data-channel="phone"] [data-testid="notify-edit"]').trigger('click');
    const choices = w.findAll('[data-testid="notify-fallback"] option').map((o) => o.attributes('value'));
    expect(choices).toEqual(['', 'ops']);
    expect((w.get('[data-testid="notify-fallback"]').element as HTMLSelectElement).value).toBe('ops');
    await w.get('[data-testid="notify-fallback-after"]').setValue('5');
    // A typed number input hands Vue a number, not text: it is taken as one.
    await w.get('[aria-label="Least seconds between messages"]').setValue('10');
    await w.get('[data-testid="notify-form"]').trigger('submit');
    await settle();
    const [, args] = f.calls.find(([m]) => m === 'saveNotifyChannel')! as [
      string,
      { channel: Record<string, unknown> },
    ];
    expect(args.channel['fallback']).toEqual({ channel: 'ops', afterMin: 5 });
    expect(args.channel['minIntervalSec']).toBe(10);
    expect(
      plainError('saveNotifyChannel: the channel: channels[0] (telegram): fallback: no channel is named "pager"'),
    ).toBe('The fallback: no channel is named "pager".');
    w.unmount();
  });

  it('adds a channel, saying in plain words what main refused, next to the form', async () => {
    const { f, w } = mountChannels({
      saveNotifyChannel: () => {
        throw new ApiError('bad-argument', 'saveNotifyChannel: channels[1] (ntfy): url: must be an http(s) URL');
      },
    });
    await settle();
    await w.get('[data-testid="notify-add"]').trigger('click');
    await w.get('[data-testid="notify-save"]').trigger('submit');
    // A new ntfy channel needs its topic: said before anything is sent.
    expect(w.get('[data-testid="notify-form-error"]').text()).toBe('Enter the topic URL.');
    expect(w.get('[data-testid="notify-field-url"]').attributes('placeholder')).toBe(
      'https://ntfy.sh/your-secret-topic',
    );
    await w.get('[data-testid="notify-name"]').setValue('pager');
    await w.get('[data-testid="notify-field-url"]').setValue('ftp://ntfy.sh/x');
    await w.get('[data-testid="notify-form"]').trigger('submit');
    await settle();
    expect(f.calls.find(([m]) => m === 'saveNotifyChannel')![1]).toEqual({
      channel: { type: 'ntfy', name: 'pager', minLevel: 'warning', hideAmounts: false, url: 'ftp://ntfy.sh/x' },
    });
    expect(w.get('[data-testid="notify-form-error"]').text()).toBe('The topic URL must be an http(s) URL.');
    w.unmount();
  });

  it('sends a test on one channel or all, each result in its own words, green or red', async () => {
    const { f, w } = mountChannels({
      notifyTest: ({ channel }) => ({
        results: [
          { channel: 'phone', type: 'telegram', ok: true, message: 'Sent: check that it arrived.', ms: 420 },
          ...(channel
            ? []
            : [{ channel: 'ops', type: 'webhook', ok: false, message: 'the webhook (ops) answered 500', ms: 80 }]),
        ],
      }),
    });
    await settle();
    await w.findAll('[data-testid="notify-test"]')[1]!.trigger('click');
    await settle();
    expect(f.calls.find(([m]) => m === 'notifyTest')![1]).toEqual({ channel: 'phone' });
    expect(w.findAll('[data-testid="notify-test-result"]').map((r) => [r.text(), r.classes('ok-text')])).toEqual([
      ['✓ Sent: check that it arrived.', true],
    ]);
    await w.get('[data-testid="notify-test-all"]').trigger('click');
    await settle();
    expect(w.findAll('[data-testid="notify-test-result"]').map((r) => [r.text(), r.classes('bad-text')])).toEqual([
      ['✗ the webhook (ops) answered 500', true],
      ['✓ Sent: check that it arrived.', false],
    ]);
    w.unmount();
  });

  it('builds the e-mail channel, one recipient or several, and keeps the password unless typed', () => {
    const mail: NotifyChannelView = {
      name: 'mail',
      type: 'email',
      source: 'settings',
      minLevel: 'critical',
      rules: ['liquidation', 'risk-threshold'],
      quietHours: null,
      hideAmounts: true,
      minIntervalSec: 30,
      fallback: null,
      fields: {
        'smtp.host': 'smtp.example.com',
        'smtp.port': 587,
        'smtp.security': 'starttls',
        'smtp.user': 'me',
        from: 'tw@example.com',
        to: ['a@example.com', 'b@example.com'],
      },
      secrets: { 'smtp.password': true },
      status: { pending: 0, lastSentAt: null, failing: null },
    };
    const form = formOf(mail);
    expect(form.values['to']).toBe('a@example.com, b@example.com');
    expect(form.values['smtp.password']).toBe('');
    expect(channelOf(form, mail)).toEqual({
      channel: {
        type: 'email',
        name: 'mail',
        minLevel: 'critical',
        rules: ['liquidation', 'risk-threshold'],
        hideAmounts: true,
        minIntervalSec: 30,
        smtp: { host: 'smtp.example.com', port: 587, security: 'starttls', user: 'me' },
        from: 'tw@example.com',
        to: ['a@example.com', 'b@example.com'],
      },
    });
    form.values['to'] = 'a@example.com';
    form.values['smtp.password'] = 'hunter2';
    expect((channelOf(form, mail) as { channel: Record<string, any> }).channel['smtp']).toEqual({
      host: 'smtp.example.com',
      port: 587,
      security: 'starttls',
      user: 'me',
      password: 'hunter2',
    });
    expect((channelOf(form, mail) as { channel: Record<string, any> }).channel['to']).toBe('a@example.com');
    form.quietFrom = '22:00';
    expect(channelOf(form, mail)).toEqual({ problem: 'Quiet hours need both a start and an end (or neither).' });
  });

  it("words main's refusals without the method, the index or the field path", () => {
    expect(plainError('saveNotifyChannel: channels[2] (email): to: must be an e-mail address or a list of them')).toBe(
      "The recipient's address must be an e-mail address or a list of them.",
    );
    expect(
      plainError(
        'saveNotifyChannel: channels[0] (telegram): chatId: Invalid type: Expected (string | number) but received undefined',
      ),
    ).toBe('The chat id must be (string | number).');
    expect(
      plainError('saveNotifyChannel: a channel named "ops" comes from the notify config file; choose another name'),
    ).toBe('A channel named "ops" comes from the notify config file; choose another name.');
    expect(plainError('saveNotifyChannel: the channel: two channels are named "x"; give each its own name.')).toBe(
      'Two channels are named "x"; give each its own name.',
    );
    expect(plainError('updateNotifyOptions: heartbeatUrl: heartbeatUrl must be an http(s) URL')).toBe(
      'The heartbeat URL must be an http(s) URL.',
    );
  });
});
