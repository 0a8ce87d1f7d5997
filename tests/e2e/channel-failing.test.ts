import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServe, type Serving } from '../../src/main/web/serve';
import { MonitorHarness } from '../support/monitor-harness';
import type { AlertRecord } from '../../src/shared/contract';
import {
  go,
  launchChromium,
  recordNotifications,
  rendererBuilt,
  SCREENSHOTS,
  shownNotifications,
} from '../support/browser';
import { tempDir, until } from '../support/monitor';
import { refusingPort } from '../support/refusing-port';

/**
 * A failing channel is loud, in Chromium against `serve` (docs/notify.md#a-failing-channel): ntfy
 * saved in Settings points at a port that refuses connections and a critical alert waits on it.
 * A minute later on the alert channels' clock (moved by the test) the status bar and a banner on
 * every view say so on the page's local clock, the browser notifies it once, the alert reads "not
 * delivered to phone", and Settings' channel card wraps the failure's words with its buttons in
 * sight at 1280 wide (shot to test-results/screenshots/).
 */
const ZONE = 'Asia/Kolkata';
const dir = tempDir();
let serving: Serving<MonitorHarness>;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let skew = 0;
const pageErrors: string[] = [];

const shown = () => shownNotifications(page);
/** "3:25 PM" as the page shows a time of today in its zone. */
/** A time read on its own names its zone (docs/formats.md): "8:30 AM GMT+5:30". */
const local = (ms: number): string =>
  new Intl.DateTimeFormat('en-US', {
    hour: 'numeric',
    minute: '2-digit',
    timeZone: ZONE,
    timeZoneName: 'short',
  }).format(ms);
const escaped = (text: string): string => text.replace(/[+()]/g, '\\$&');

beforeAll(async () => {
  if (!rendererBuilt()) throw new Error('out/renderer is missing: run `npm run build` first (npm test does)');
  serving = await startServe({
    port: 0,
    dataDir: dir.dir,
    demo: { speed: 60 },
    notifyClock: () => Date.now() + skew,
    log: () => {},
    buildMonitor: (options) => new MonitorHarness(options),
  });
  browser = await launchChromium();
  context = await browser.newContext({ viewport: { width: 1280, height: 800 }, timezoneId: ZONE, locale: 'en-US' });
  await recordNotifications(context, serving.url);
  page = await context.newPage();
  page.on('pageerror', (e) => pageErrors.push(String(e)));
});

afterAll(async () => {
  await browser?.close();
  await serving?.close();
  dir.remove();
});

describe('a channel that refuses connections, in the browser', () => {
  it('is said in the status bar and a banner on every view within a minute, once as a notification', async () => {
    const notify = serving.monitor.alerts.notify;
    notify.saveChannel({ type: 'ntfy', name: 'phone', url: `http://127.0.0.1:${await refusingPort()}/tidewatch` });
    await page.goto(serving.url);
    await page.getByTestId('status-bar').waitFor({ timeout: 30_000 });
    const a: AlertRecord = serving.monitor.store.risk.addAlert({
      dedupe_key: 'e2e:refused',
      rule: 'liquidation',
      level: 'critical',
      manager_id: `0x${'a1'.repeat(32)}`,
      owner: `0x${'0d'.repeat(32)}`,
      event_id: null,
      title: 'Liquidated',
      message: 'Margin manager 0xa1a1a1…a1a1 was liquidated.',
      created_at: Date.now(),
    })!;
    await until(() => notify.worker.spellOf('phone') !== null, 10_000, 'the first refused send');
    const since = notify.worker.spellOf('phone')!.since;
    expect(await page.getByTestId('channel-banner').count()).toBe(0);

    skew += 61_000;
    notify.reach.tick();
    const banner = page.getByTestId('channel-banner');
    await banner.waitFor({ timeout: 10_000 });
    expect(await banner.innerText()).toMatch(
      new RegExp(
        `^Alerts are not reaching phone \\(ntfy\\) since ${escaped(local(since))}: ntfy \\(phone\\) could not be reached: connection refused .*1 alert waits for it; Tidewatch keeps trying\\.`,
      ),
    );
    const flag = page.getByTestId('channel-unreached');
    expect(await flag.innerText()).toBe(`phone (ntfy) not reached since ${local(since)}: connection refused`);
    // The warning colour (--warn), not the muted grey of the bar.
    const colour = await page.evaluate(
      `getComputedStyle(document.querySelector('[data-testid="channel-unreached"]')).color`,
    );
    const warn = await page.evaluate(`getComputedStyle(document.documentElement).getPropertyValue('--warn').trim()`);
    expect(colour).toBe(hexToRgb(String(warn)));
    await expect
      .poll(async () => (await shown()).filter((n) => n.title === 'Alerts are not reaching phone (ntfy)').length, {
        timeout: 10_000,
      })
      .toBe(1);

    // Another view: the banner is still there; the alert says where it did not go.
    await go(page, `#/alerts/${a.id}`);
    await page.getByTestId('channel-banner').waitFor({ timeout: 10_000 });
    const chip = page.locator(`#alert-${a.id} [data-testid=alert-delivery]`);
    await expect.poll(() => chip.innerText(), { timeout: 10_000 }).toBe('✗ not delivered to phone');
    await page.screenshot({ path: `${SCREENSHOTS}/channel-failing-alerts.png` });

    // More ticks of the same spell: no second notification.
    for (let i = 0; i < 3; i++) {
      skew += 5_000;
      notify.reach.tick();
    }
    expect((await shown()).filter((n) => n.title === 'Alerts are not reaching phone (ntfy)')).toHaveLength(1);

    // Settings: the failure's long words wrap in the card; its buttons stay in sight.
    await go(page, '#/settings');
    const card = page.getByTestId('notify-channels');
    const row = card.locator('[data-channel="phone"]');
    await row.getByTestId('notify-failing').waitFor({ timeout: 10_000 });
    await row.scrollIntoViewIfNeeded();
    const box = (await card.boundingBox())!;
    for (const id of ['notify-test', 'notify-edit', 'notify-remove']) {
      const b = (await row.getByTestId(id).boundingBox())!;
      expect(b.x + b.width, id).toBeLessThanOrEqual(box.x + box.width);
      expect(b.x, id).toBeGreaterThanOrEqual(box.x);
    }
    expect(await card.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
    await card.screenshot({ path: `${SCREENSHOTS}/channel-failing-settings.png` });
    expect(pageErrors).toEqual([]);
  }, 120_000);
});

function hexToRgb(hex: string): string {
  const n = Number.parseInt(hex.replace('#', ''), 16);
  return `rgb(${(n >> 16) & 255}, ${(n >> 8) & 255}, ${n & 255})`;
}
