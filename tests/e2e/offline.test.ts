import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { World } from '../../src/sim';
import { startServe, type Serving } from '../../src/main/web/serve';
import { go, launchChromium, rendererBuilt, SCREENSHOTS } from '../support/browser';
import { tempDir } from '../support/monitor';

const dir = tempDir();
const described = new World({ seed: 20_251_122, historyDays: 0.01 }).describe();
let serving: Serving;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  if (!rendererBuilt()) throw new Error('out/renderer is missing: run `npm run build` first (npm test does)');
  // The same composition as `tidewatch serve`, in this process, so the test can stop the Demo network.
  serving = await startServe({ port: 0, dataDir: dir.dir, demo: { speed: 60 }, watch: [described.marginOwners[0]!] });
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
});
afterAll(async () => {
  await browser?.close();
  await serving?.close();
  dir.remove();
});

describe('with the Demo network stopped', () => {
  it('renders the views from the store, with stale badges and the offline banner', async () => {
    await page.goto(serving.url);
    await page.getByTestId('position-row').first().waitFor({ timeout: 60_000 });
    await go(page, '#/markets');
    await page.getByTestId('pool-row').first().waitFor();
    await go(page, '#/events');
    await page.locator('[data-testid=events-table] tbody tr').first().waitFor();

    await serving.sim!.close();
    await go(page, '#/portfolio');
    await page.getByTestId('offline-banner').waitFor({ timeout: 30_000 });
    await page.getByTestId('position-row').first().waitFor({ timeout: 30_000 });
    await expect.poll(() => page.getByTestId('freshness').first().textContent(), { timeout: 15_000 }).toMatch(/cached/);
    await page.screenshot({ path: `${SCREENSHOTS}/offline-portfolio.png` });

    await go(page, '#/markets');
    await page.getByTestId('pool-row').first().waitFor({ timeout: 30_000 });
    expect(await page.getByTestId('pool-row').count()).toBeGreaterThanOrEqual(4);
    await go(page, '#/events');
    await page.locator('[data-testid=events-table] tbody tr').first().waitFor({ timeout: 30_000 });
    await expect.poll(() => page.getByTestId('freshness').first().textContent(), { timeout: 15_000 }).toMatch(/cached/);
    await page.screenshot({ path: `${SCREENSHOTS}/offline-events.png` });
    expect(await page.getByTestId('offline-banner').textContent()).toContain('Offline since');
  }, 220_000);
});
