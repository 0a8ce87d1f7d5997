import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServe, type Serving } from '../../src/main/web/serve';
import { MonitorHarness } from '../support/monitor-harness';
import type { NewAlert } from '../../src/main/core/store/risk-alert-repo';
import type { AlertRecord } from '../../src/shared/contract';
import {
  E2E_POLL_MS,
  go,
  launchChromium,
  recordNotifications,
  rendererBuilt,
  SCREENSHOTS,
  shownNotifications,
} from '../support/browser';
import { tempDir } from '../support/monitor';

/**
 * Alerts in the browser, in Chromium against `serve`: the page notifies a new critical alert (a browser
 * Notification of its burst, recorded by a wrapper), counts what is to act on in the tab's title, and the
 * Alerts page and Settings → Alert channels, shot light and dark at 1280 wide in a non-UTC zone.
 */
const dir = tempDir();
let serving: Serving<MonitorHarness>;
let browser: Browser;
let context: BrowserContext;
let page: Page;
/** A stand-in for ntfy and the Telegram Bot API: takes every message. */
let receiver: Server;
let receiverUrl = '';
const received: string[] = [];
const pageErrors: string[] = [];
let seq = 0;

const MANAGER_A = `0x${'a1'.repeat(32)}`;
const MANAGER_B = `0x${'b2'.repeat(32)}`;
const OTHER = `0x${'c3'.repeat(32)}`;
const OWNER = `0x${'0d'.repeat(32)}`;

/** An alert raised as the core raises one: stored (and so routed to the channels), then published (`alertsRaised`: pushed). */
function raise(a: Partial<NewAlert> & Pick<NewAlert, 'rule' | 'level' | 'title' | 'message'>, agoMs = 0): AlertRecord {
  const record = serving.monitor.store.risk.addAlert({
    dedupe_key: `e2e:${++seq}`,
    manager_id: null,
    owner: null,
    event_id: null,
    created_at: Date.now() - agoMs,
    ...a,
  })!;
  serving.monitor.events.emit('alertsRaised', { alerts: [record] });
  return record;
}

/** Constructed notifications, as the wrapper in the page recorded them. */
const shown = () => shownNotifications(page);
/** A time of day on the core's clock (quiet hours are the server's local time). */
/** The page's zone: away from UTC, serve's (and half an hour off it): every time on the page must be local. */
const PAGE_ZONE = 'Asia/Kolkata';
/** A time of day on the page's clock ("17:26"), as a trader there types quiet hours. */
const hhmm = (ms: number): string =>
  new Intl.DateTimeFormat('en-GB', {
    timeZone: PAGE_ZONE,
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(ms);

beforeAll(async () => {
  if (!rendererBuilt()) throw new Error('out/renderer is missing: run `npm run build` first (npm test does)');
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      received.push(`${req.url} ${body.slice(0, 80)}`);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true,"result":{}}');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  serving = await startServe({
    port: 0,
    dataDir: dir.dir,
    demo: { speed: 60 },
    log: () => {},
    buildMonitor: (options) => new MonitorHarness(options),
  });
  browser = await launchChromium();
  context = await browser.newContext({
    viewport: { width: 1280, height: 800 },
    timezoneId: PAGE_ZONE,
    locale: 'en-US',
  });
  await recordNotifications(context, serving.url);
  page = await context.newPage();
  page.on('pageerror', (e) => pageErrors.push(String(e)));
});

afterAll(async () => {
  await browser?.close();
  await serving?.close();
  await new Promise((r) => receiver?.close(r));
  dir.remove();
});

describe('the browser page alerts', () => {
  it('notifies a new critical alert, counts it in the title, and clears the count when acknowledged', async () => {
    await page.goto(serving.url);
    await go(page, '#/alerts');
    await page.getByTestId('view-alerts').waitFor({ timeout: 30_000 });
    // The permission is granted: nothing to ask.
    expect(await page.getByTestId('notify-permission-banner').count()).toBe(0);
    await expect.poll(() => page.title(), { timeout: E2E_POLL_MS }).toBe('Tidewatch');

    const a = raise({
      rule: 'liquidation',
      level: 'critical',
      manager_id: MANAGER_A,
      owner: OWNER,
      title: 'Liquidated',
      message: 'Margin manager 0xa1a1a1…a1a1 of 0x0d0d0d…0d0d was liquidated: repaid 1,234.5 USDC.',
    });
    await expect.poll(shown, { timeout: 15_000 }).toEqual([
      // One sentence of 87 characters: the body is all of it; the tag is the burst's.
      {
        title: 'Liquidated',
        body: a.message,
        tag: expect.stringMatching(/^tidewatch-alerts-/),
        requireInteraction: true,
      },
    ]);
    await expect.poll(() => page.title(), { timeout: E2E_POLL_MS }).toBe('(1) Tidewatch');

    const row = page.locator(`#alert-${a.id} [data-testid=alert-row]`);
    await row.waitFor();
    await row.getByRole('button', { name: 'Acknowledge' }).click();
    await expect.poll(() => page.title(), { timeout: E2E_POLL_MS }).toBe('Tidewatch');
    await page.locator(`#alert-${a.id}`).waitFor({ state: 'detached' });
    expect(pageErrors).toEqual([]);
  }, 60_000);

  it(
    'sets up channels in Settings, tests them, and shows what each alert was sent on',
    { timeout: 170_000 },
    async () => {
      await go(page, '#/settings');
      const card = page.getByTestId('notify-channels');
      await card.waitFor({ timeout: 30_000 });
      const add = async (
        type: string,
        name: string,
        fields: Record<string, string>,
        extra: { minLevel?: string; quiet?: [string, string] } = {},
      ): Promise<void> => {
        await card.getByTestId('notify-add').click();
        await card.getByTestId('notify-type').selectOption(type);
        await card.getByTestId('notify-name').fill(name);
        for (const [path, value] of Object.entries(fields)) await card.getByTestId(`notify-field-${path}`).fill(value);
        if (extra.minLevel) await card.getByTestId('notify-min-level').selectOption(extra.minLevel);
        if (extra.quiet) {
          await card.getByTestId('notify-quiet-from').fill(extra.quiet[0]);
          await card.getByTestId('notify-quiet-to').fill(extra.quiet[1]);
        }
        await card.getByTestId('notify-save').click();
        await card.locator(`[data-testid=notify-channel][data-channel="${name}"]`).waitFor();
      };
      // A URL that is not one is refused next to the form, in the form's words.
      await card.getByTestId('notify-add').click();
      await card.getByTestId('notify-name').fill('phone');
      await card.getByTestId('notify-field-url').fill('ntfy.sh/no-scheme');
      await card.getByTestId('notify-save').click();
      await expect
        .poll(() => card.getByTestId('notify-form-error').textContent(), { timeout: E2E_POLL_MS })
        .toMatch(/^The topic URL must be/);
      await card.getByRole('button', { name: 'Cancel' }).click();

      await add('ntfy', 'phone', { url: `${receiverUrl}/tidewatch-topic` });
      // Quiet hours around now on the page's clock, the form's zone (serve's is UTC): its warnings are held.
      const now = Date.now();
      await add(
        'telegram',
        'desk',
        { botToken: '123456:secret-bot-token', chatId: '4242', apiRoot: receiverUrl },
        { quiet: [hhmm(now - 3_600_000), hhmm(now + 3_600_000)] },
      );
      expect(await card.locator('[data-testid=notify-channel][data-channel="desk"]').textContent()).toMatch(
        // Chromium names Kolkata by its older name.
        /quiet \d{1,2}:\d\d\s[AP]M–\d{1,2}:\d\d\s[AP]M GMT\+5:30 \(Asia\/(Kolkata|Calcutta)\)/,
      );
      // Nothing listens on port 9: each try fails.
      await add(
        'webhook',
        'ops',
        {
          url: 'http://127.0.0.1:9/hook',
          secret: `whsec_${Buffer.from('an e2e signing secret, 32 bytes!').toString('base64')}`,
        },
        { minLevel: 'critical' },
      );
      expect(await page.content()).not.toContain('secret-bot-token');

      // Editing keeps the secret: its input is empty and says so.
      await card.locator('[data-testid=notify-channel][data-channel="desk"]').getByTestId('notify-edit').click();
      expect(await card.getByTestId('notify-field-botToken').inputValue()).toBe('');
      expect(await card.getByTestId('notify-field-botToken').getAttribute('placeholder')).toBe(
        'set — leave empty to keep',
      );
      await card.getByTestId('notify-form').screenshot({ path: `${SCREENSHOTS}/web-alert-channel-form-light.png` });
      await card.getByRole('button', { name: 'Cancel' }).click();

      await card.getByTestId('notify-test-all').click();
      const results = card.getByTestId('notify-test-result');
      await expect.poll(() => results.count(), { timeout: 30_000 }).toBe(3);
      const byChannel = async (name: string): Promise<[string, string | null]> => {
        const r = card.locator(
          `[data-testid=notify-channel][data-channel="${name}"] + tr [data-testid=notify-test-result]`,
        );
        return [(await r.textContent())!.trim(), await r.getAttribute('data-ok')];
      };
      expect(await byChannel('phone')).toEqual(['✓ Sent: check that it arrived.', 'true']);
      expect((await byChannel('ops'))[1]).toBe('false');
      expect(received.some((r) => r.startsWith('/tidewatch-topic'))).toBe(true);
      expect(received.some((r) => r.startsWith('/bot123456:secret-bot-token/sendMessage'))).toBe(true);
      await page.waitForTimeout(200);
      await card.screenshot({ path: `${SCREENSHOTS}/web-alert-channels-light.png` });
      await page.getByRole('button', { name: 'Dark theme' }).click();
      await page.waitForTimeout(200);
      await card.screenshot({ path: `${SCREENSHOTS}/web-alert-channels-dark.png` });
      // The card among the rest of Settings, as the page shows it.
      await card.getByTestId('notify-options').scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${SCREENSHOTS}/web-settings-channels-dark.png` });
      await page.getByRole('button', { name: 'Light theme' }).click();

      // The burst the Alerts page groups: position A warned, went critical and was liquidated;
      // position B repeated its warning; Tidewatch went blind and saw again; another trader's large liquidation.
      const m = 60_000;
      raise(
        {
          rule: 'risk-threshold',
          level: 'warning',
          manager_id: MANAGER_A,
          owner: OWNER,
          title: 'Warning: SUI_USDC risk ratio 1.196',
          message:
            'Margin manager 0xa1a1a1…a1a1 (SUI_USDC) fell below the warning threshold (1.2). Assets $12,400, debt 10,368 USDC ($10,368): ratio 1.196.',
        },
        14 * m,
      );
      raise(
        {
          rule: 'risk-threshold',
          level: 'critical',
          manager_id: MANAGER_A,
          owner: OWNER,
          title: 'Critical: SUI_USDC risk ratio 1.142',
          message:
            'Margin manager 0xa1a1a1…a1a1 (SUI_USDC) fell below the critical threshold (1.15). Assets $11,840, debt 10,368 USDC ($10,368): ratio 1.142.',
        },
        9 * m,
      );
      for (const [i, ratio] of ['1.198', '1.191', '1.187', '1.183', '1.179'].entries()) {
        raise(
          {
            rule: 'risk-threshold',
            level: 'warning',
            manager_id: MANAGER_B,
            owner: OWNER,
            title: `Warning: DEEP_USDC risk ratio ${ratio}`,
            message: `Margin manager 0xb2b2b2…b2b2 (DEEP_USDC) fell below the warning threshold (1.2). Ratio ${ratio}.`,
          },
          (12 - 2 * i) * m,
        );
      }
      raise(
        {
          rule: 'blind',
          level: 'critical',
          title: 'Tidewatch cannot see',
          message: 'The margin stream has been down for 3 min: liquidations are not seen until it is back.',
        },
        6 * m,
      );
      raise(
        {
          rule: 'blind',
          level: 'info',
          title: 'Tidewatch sees again',
          message: 'The margin stream is back after 4 min.',
        },
        2 * m,
      );
      raise(
        {
          rule: 'large-liquidation',
          level: 'warning',
          manager_id: OTHER,
          title: 'Large liquidation: $182,000',
          message:
            'Margin manager 0xc3c3c3…c3c3 was liquidated for 52,000 SUI (about $182,000). Large liquidations move the book: check your positions on that pool.',
        },
        3 * m,
      );
      const liquidated = raise(
        {
          rule: 'liquidation',
          level: 'critical',
          manager_id: MANAGER_A,
          owner: OWNER,
          title: 'Liquidated',
          message:
            'Margin manager 0xa1a1a1…a1a1 of 0x0d0d0d…0d0d was liquidated at a risk ratio of 1.118: repaid 4,100 USDC; left 1,020 SUI.',
        },
        1 * m,
      );

      await go(page, '#/alerts');
      await page.getByTestId('alert-thread').first().waitFor();
      await expect.poll(() => page.title(), { timeout: E2E_POLL_MS }).toMatch(/^\(\d+\) Tidewatch$/);
      // The deliveries are logged, pushed as an empty change, and read again by the page.
      const chips = page.locator(`#alert-${liquidated.id} [data-testid=alert-delivery]`);
      await expect
        .poll(() => chips.allTextContents(), { timeout: 30_000 })
        .toEqual(expect.arrayContaining([expect.stringMatching(/^phone ✓ \d{1,2}:\d{2} [AP]M \S+$/)]));
      const thread = page.locator(`[data-thread="m:${MANAGER_A}"]`);
      expect(await thread.getByTestId('alert-row').count()).toBe(1);
      expect((await thread.getByTestId('alert-fold').textContent())!.trim()).toBe('+2 earlier');
      // The telegram channel holds B's warnings for its quiet hours.
      await expect
        .poll(
          () =>
            page
              .locator(`[data-thread="m:${MANAGER_B}"] [data-testid=alert-delivery]`, { hasText: 'desk' })
              .first()
              .textContent(),
          { timeout: 30_000 },
        )
        .toMatch(/desk · quiet hours until \d{1,2}:\d\d [AP]M \S+/);

      // A unfolded: the first critical alert's try on the dead webhook failed, its detail in words in the log.
      await thread.getByTestId('alert-fold').click();
      expect(await thread.getByTestId('alert-row').count()).toBe(3);
      // The alerts are dated minutes back, so the channel may already count as not reached (a
      // critical waiting a minute: docs/notify.md): its chip then says so instead of "failed".
      const failed = page
        .locator('[data-testid=alert-delivery]', { hasText: /ops ✗ failed|✗ not delivered to ops/ })
        .first();
      await failed.waitFor({ timeout: 30_000 });
      expect(await failed.getAttribute('title')).toMatch(/^ops: (Failed .+: .+|Not delivered as of .+)/);
      await failed.click();
      await expect
        .poll(() => page.locator('[data-testid=alert-delivery-log] tr', { hasText: 'ops' }).first().textContent())
        .toMatch(/ops.*the alert.*(failed|not delivered).+/);
      await page.waitForTimeout(300);
      await page.screenshot({ path: `${SCREENSHOTS}/web-alerts-light.png`, fullPage: true });
      await page.getByRole('button', { name: 'Dark theme' }).click();
      await page.waitForTimeout(300);
      await page.screenshot({ path: `${SCREENSHOTS}/web-alerts-dark.png`, fullPage: true });

      // Filters: the critical ones only.
      await page.getByTestId('alert-filter-level').selectOption('critical');
      await expect.poll(() => page.getByTestId('alert-thread').count(), { timeout: E2E_POLL_MS }).toBe(2);
      expect(pageErrors).toEqual([]);
    },
  );

  it("writes each alert's message whole in its row at 1280 and 1920 px, never cut mid-figure", async () => {
    // The review's alert, cut "…debt 37,124.95 USDC ($37,1…" at both widths.
    const a = raise({
      rule: 'risk-threshold',
      level: 'warning',
      manager_id: MANAGER_A,
      owner: OWNER,
      title: 'Warning \u2014 Long 0.4712 XBTC on XBTC_USDC: 1.196, liquidation at $88,412.3, \u22129.1\u202F%',
      message:
        'Deposit 2,480.15 USDC or repay 2,426.00 USDC from its balance \u2192 1.275. Its ratio 1.196 fell below the warning threshold 1.200. Assets $47,002.48, debt 37,124.95 USDC ($37,124.95): ratio 1.196. XBTC at $88,412.3 (\u22129.1\u202F%) liquidates it. It is liquidated at or below a ratio of 1.125.',
    });
    await page.goto(serving.url);
    await go(page, '#/alerts');
    const msg = page.locator(`#alert-${a.id} [data-testid=alert-row] .msg`);
    await msg.waitFor({ timeout: 30_000 });
    for (const width of [1280, 1920]) {
      await page.setViewportSize({ width, height: 800 });
      await page.waitForTimeout(100);
      // The box holds its whole text (nothing hidden past its edge), and that text is the message.
      const box = await msg.evaluate((e) => {
        const style = e.ownerDocument.defaultView!.getComputedStyle(e);
        return {
          cut: e.scrollWidth > e.clientWidth + 1 || e.scrollHeight > e.clientHeight + 1,
          ellipsis: style.textOverflow === 'ellipsis' && style.overflow === 'hidden',
          text: e.textContent,
        };
      });
      expect(box, `${width} px`).toEqual({ cut: false, ellipsis: false, text: a.message });
    }
    await page.setViewportSize({ width: 1280, height: 800 });
    expect(pageErrors).toEqual([]);
  }, 60_000);

  it('asks once for the permission where it is not granted, and remembers a dismissal', async () => {
    const other = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    try {
      const p = await other.newPage();
      await p.goto(serving.url);
      const banner = p.getByTestId('notify-permission-banner');
      await banner.waitFor({ timeout: 30_000 });
      expect(await banner.textContent()).toContain(
        'Allow notifications so Tidewatch can alert you while this tab is in the background',
      );
      await banner.getByRole('button', { name: 'Not now' }).click();
      await banner.waitFor({ state: 'detached' });
      await p.reload();
      await p.locator('.brand').waitFor();
      await p.waitForTimeout(500);
      expect(await banner.count()).toBe(0);
    } finally {
      await other.close();
    }
  }, 50_000);
});
