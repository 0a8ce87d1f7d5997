import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { World } from '../../src/sim';
import { E2E_POLL_MS, go, launchChromium, rendererBuilt, SCREENSHOTS } from '../support/browser';
import { tempDir } from '../support/monitor';
import { busiestOwners } from '../support/sim';

const BIN = fileURLToPath(new URL('../../bin/tidewatch.js', import.meta.url));
const dir = tempDir();
const world = new World({ seed: 20_251_122 });
const described = world.describe();
/** The five owners with the most managers: their liquidations come every few seconds at --speed 600. */
const busiest = busiestOwners(world, 5);
let serve: ChildProcess;
let browser: Browser;
let page: Page;
let url = '';
let startedAt = 0;
const pageErrors: string[] = [];

async function view(hash: string, ready: string | string[], name: string): Promise<void> {
  await go(page, hash);
  for (const selector of Array.isArray(ready) ? ready : [ready])
    await page.locator(selector).first().waitFor({ timeout: 30_000 });
  await page.waitForTimeout(400);
  await page.screenshot({ path: `${SCREENSHOTS}/${name}.png` });
}

beforeAll(async () => {
  if (!rendererBuilt()) throw new Error('out/renderer is missing: run `npm run build` first (npm test does)');
  startedAt = Date.now();
  serve = spawn(
    process.execPath,
    [
      BIN,
      'serve',
      '--port',
      '0',
      '--data-dir',
      dir.dir,
      '--speed',
      '600',
      '--watch',
      described.wallets[0]!,
      ...busiest.flatMap((o) => ['--watch', o]),
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  serve.stderr!.resume();
  url = await new Promise<string>((resolve, reject) => {
    let out = '';
    serve.stdout!.on('data', (d) => {
      out += d;
      const m = /Tidewatch is running at (\S+)/.exec(out);
      if (m) resolve(m[1]!);
    });
    serve.once('exit', (code) => reject(new Error(`serve exited with ${code}`)));
  });
  browser = await launchChromium();
  // A non-UTC zone: every time on screen must be local (candles included).
  page = await browser.newPage({ viewport: { width: 1440, height: 900 }, timezoneId: 'America/New_York' });
  page.on('pageerror', (e) => pageErrors.push(String(e)));
});

afterAll(async () => {
  await browser?.close();
  serve?.kill('SIGTERM');
  dir.remove();
});

describe('the UI in Chromium against `tidewatch serve` on the Demo network', () => {
  it('renders the portfolio with the watched wallets and their loans', async () => {
    await page.goto(url);
    // The printed token is traded for a cookie: it is gone from the address bar.
    expect(page.url()).not.toContain('token');
    await page.getByTestId('position-row').first().waitFor({ timeout: 60_000 });
    const ms = Date.now() - startedAt;
    console.log(`serve start to portfolio rendered in Chromium: ${ms} ms`);
    expect(await page.getByTestId('wallet-card').count()).toBe(1 + busiest.length);
    await expect
      .poll(() => page.getByTestId('freshness').first().textContent(), { timeout: E2E_POLL_MS })
      .toMatch(/ago|just now/);
    await page.screenshot({ path: `${SCREENSHOTS}/portfolio.png` });
  }, 70_000);

  it('follows the light or dark theme of the system until the user picks one', async () => {
    const shown = (): Promise<unknown> => page.evaluate('document.documentElement.dataset.theme');
    await page.evaluate("localStorage.removeItem('tidewatch.theme')");
    await page.emulateMedia({ colorScheme: 'light' });
    await page.reload();
    await page.getByTestId('position-row').first().waitFor({ timeout: 60_000 });
    expect(await shown()).toBe('light');
    await page.emulateMedia({ colorScheme: 'dark' });
    await expect.poll(shown, { timeout: E2E_POLL_MS }).toBe('dark');
    // Picked with the button: kept, whatever the system does next.
    await page.getByRole('button', { name: 'Light theme' }).click();
    expect(await shown()).toBe('light');
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.emulateMedia({ colorScheme: 'light' });
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.waitForTimeout(200);
    expect(await shown()).toBe('light');
    await page.evaluate("localStorage.removeItem('tidewatch.theme')");
    await page.emulateMedia({ colorScheme: null });
  }, 90_000);

  it('renders every other view with data from the Demo network', async () => {
    await view(`#/wallet/${described.wallets[0]}`, '[data-testid=nft-card]', 'wallet');
    expect(await page.getByTestId('kiosk-group').count()).toBeGreaterThan(0);
    await page.getByTestId('nft-card').first().click();
    await page.getByTestId('nft-drawer').waitFor();
    await page.screenshot({ path: `${SCREENSHOTS}/wallet-drawer.png` });
    // Escape closes it, as any dialog.
    await page.keyboard.press('Escape');
    await page.getByTestId('nft-drawer').waitFor({ state: 'detached' });

    await view(`#/collection/${described.collections[0]}`, '[data-testid=match-count]', 'collection');
    await page.getByTestId('tab-holders').click();
    await page.getByTestId('holder-row').first().waitFor();
    await page.locator('[data-testid=filter-builder] input[type=checkbox]').first().check();
    await expect
      .poll(() => page.getByTestId('fields-json').textContent(), { timeout: E2E_POLL_MS })
      .toContain('attributes.contents.0.value');

    await view('#/markets', '[data-testid=pool-row]', 'markets');
    expect(await page.getByTestId('pool-row').count()).toBeGreaterThanOrEqual(4);
    await view(
      '#/markets/SUI_USDC',
      ['[data-testid=depth-ladder]', '[data-testid=trade-tape] tbody tr', '[data-testid=candle-chart] canvas'],
      'pool',
    );
    await expect
      .poll(() => page.getByTestId('status-bar').getAttribute('title'), { timeout: 15_000 })
      .toContain('SUI_USDC: live');
    expect(Number((await page.getByTestId('mid-price').textContent())!.replace(/,/g, ''))).toBeGreaterThan(0);

    await view('#/margin', '[data-testid=liquidations-table] tbody tr', 'margin');
    await view('#/events', '[data-testid=events-table] tbody tr', 'events');
    // How recent the newest event is, beside when the list was read: the first row's time.
    expect(await page.getByTestId('newest-event').textContent()).toMatch(
      /^newest event (just now|\d+ s ago|\d+ min ago|\d+ h ago|\d+ days ago)$/,
    );
    // Both read from one rendering: the list is live, a new event between two reads moves the first row.
    const [badge, firstRow] = await page.evaluate<Array<string | null>>(
      `[document.querySelector('[data-testid=newest-event]')?.getAttribute('title') ?? null,
        document.querySelector('[data-testid=events-table] tbody tr td:first-child')?.getAttribute('title') ?? null]`,
    );
    expect(badge).toBeTruthy();
    expect(badge).toBe(firstRow);
    // Export CSV: the rows on screen, every column (the rows shown carry only what the table needs).
    await page.getByLabel('live').uncheck();
    const shown = await page.locator('[data-testid=events-table] tbody tr td:last-child code').allTextContents();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-csv').click()]);
    const csv = readFileSync((await download.path())!, 'utf8')
      .trim()
      .split('\n');
    expect(csv[0]).toBe('id,type,timestamp_ms,checkpoint_id,tx_hash,margin_manager_id,data,valid,received_at');
    expect(csv.slice(1).map((line) => line.split(',')[0])).toEqual(shown);
    // Each valid event's data whole, as stored (its manager, its amounts), not the row's cut.
    const valid = csv.slice(1).filter((line) => /,true,\d+$/.test(line));
    expect(valid.length).toBeGreaterThan(0);
    for (const line of valid) expect(line).toMatch(/""margin_manager_id"":""0x[0-9a-f]+""/);
    await page.getByLabel('live').check();
    await view('#/settings', '[data-testid=api-key-input]', 'settings');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByRole('status').filter({ hasText: 'Settings saved.' }).waitFor();
    await page.getByTestId('api-key-input').fill('my-secret-key-123');
    await page.getByRole('button', { name: 'Save key' }).click();
    await page.getByTestId('key-saved').waitFor();
    expect(await page.getByTestId('api-key-input').inputValue()).toBe('');
    expect(await page.content()).not.toContain('my-secret-key-123');
    await page.getByRole('button', { name: 'Remove key' }).click();
    await page.getByTestId('key-saved').waitFor({ state: 'detached' });
    expect(pageErrors).toEqual([]);
  }, 120_000);

  it('shows a live liquidation of a watched manager in Alerts and Live events (history is not alerted)', async () => {
    await view('#/alerts', '[data-testid=view-alerts]', 'alerts-before');
    await page.locator('[data-testid=alert-item]', { hasText: 'Liquidated' }).first().waitFor({ timeout: 120_000 });
    await page.screenshot({ path: `${SCREENSHOTS}/alerts.png` });
    // A notification's click lands on #/alerts/<id>: that alert is marked.
    const domId = (await page
      .locator('[data-testid=alert-item]', { hasText: 'Liquidated' })
      .first()
      .getAttribute('id'))!;
    await go(page, `#/alerts/${domId.replace('alert-', '')}`);
    await expect
      .poll(() => page.locator(`#${domId}`).getAttribute('class'), { timeout: E2E_POLL_MS })
      .toContain('focused');
    await go(page, '#/events');
    await page
      .locator('[data-testid=events-table] tbody tr', { hasText: 'Liquidation' })
      .first()
      .waitFor({ timeout: 30_000 });
    expect(Number(await page.getByTestId('open-alerts').textContent())).toBeGreaterThan(0);
  }, 200_000);
});
