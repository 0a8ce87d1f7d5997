/**
 * README's pictures of the app (docs/images/portfolio-light.png, docs/images/pool-dark.png):
 * `serve`'s composition on the Demo network, watching its two busiest wallets, photographed in
 * Chromium at 1280x800 in New York time: the Portfolio in the light theme, the SUI_USDC pool page
 * in the dark one. Needs the built UI in out/renderer (`npm run build`, or one `serve` run).
 * Run: npx tsx scripts/readme-screenshots.ts
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { World } from '../src/sim';
import { startServe } from '../src/main/web/serve';
import { launchChromium, rendererBuilt } from '../tests/support/browser';
import { until } from '../tests/support/monitor';
import { busiestOwners } from '../tests/support/sim';

const IMAGES = fileURLToPath(new URL('../docs/images/', import.meta.url));
const SEED = 20_251_122;
const VIEWPORT = { width: 1280, height: 800 };
const ZONE = 'America/New_York';

async function shoot(
  browser: Browser,
  url: string,
  o: { hash: string; scheme: 'light' | 'dark'; ready: string[]; file: string },
): Promise<void> {
  const page = await browser.newPage({ viewport: VIEWPORT, timezoneId: ZONE, colorScheme: o.scheme });
  await page.goto(`${url}${o.hash}`);
  for (const testId of o.ready) await page.getByTestId(testId).first().waitFor({ timeout: 60_000 });
  // The browser tab's offer to notify is for a person at the tab, not for a picture of the view.
  const notNow = page.getByRole('button', { name: 'Not now' });
  if (await notNow.isVisible()) await notNow.click();
  // Charts draw after their data; let the live pushes of a few frames land too.
  await page.waitForTimeout(3_000);
  await page.screenshot({ path: join(IMAGES, o.file) });
  await page.close();
  console.log(`wrote ${join(IMAGES, o.file)}`);
}

if (!rendererBuilt()) throw new Error('out/renderer is missing: run `npm run build` first');
const dir = mkdtempSync(join(tmpdir(), 'tidewatch-shot-'));
const serving = await startServe({
  port: 0,
  dataDir: dir,
  demo: { speed: 10, seed: SEED },
  watch: busiestOwners(new World({ seed: SEED }), 2),
});
try {
  // The contract's own answer, as the page will read it: the watched positions once valued.
  const valued = async (): Promise<boolean> =>
    (await serving.monitor.invoke('portfolio', {})).data.wallets.some((w) => w.positions.length > 0);
  await until(valued, 120_000, 'the watched positions');
  mkdirSync(IMAGES, { recursive: true });
  const browser = await launchChromium();
  try {
    await shoot(browser, serving.url, {
      hash: '#/portfolio',
      scheme: 'light',
      ready: ['position-row'],
      file: 'portfolio-light.png',
    });
    await shoot(browser, serving.url, {
      hash: '#/markets/SUI_USDC',
      scheme: 'dark',
      ready: ['spread-row', 'last-price'],
      file: 'pool-dark.png',
    });
  } finally {
    await browser.close();
  }
} finally {
  await serving.close();
  rmSync(dir, { recursive: true, force: true });
}
