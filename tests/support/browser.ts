import { existsSync, mkdirSync } from 'node:fs';
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';

export const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
export const SCREENSHOTS = 'test-results/screenshots';
/**
 * How long a page may take to show what a poll waits for: vitest's default (1 s) is shorter than
 * a page reading 20 pages of a count on two busy cores (the ten runs under load saw it fail).
 */
export const E2E_POLL_MS = 15_000;

/** Debian's Chromium, headless; never a browser download. */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `no Chromium at ${CHROMIUM}: install it with \`apt-get install -y chromium\` (.ci/run does), or set CHROMIUM_PATH`,
    );
  }
  mkdirSync(SCREENSHOTS, { recursive: true });
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

export function rendererBuilt(): boolean {
  return existsSync('out/renderer/index.html');
}

/** The view each address shows, by its `data-testid="view-…"` section (see src/renderer/src/routes.ts). */
function viewOf(hash: string): string {
  const [name = '', param] = hash.replace(/^#\/?/, '').split('/');
  if (name === 'markets' && param) return 'pool';
  const views = ['wallet', 'collection', 'markets', 'margin', 'events', 'alerts', 'settings', 'manager'];
  return views.includes(name) ? name : 'portfolio';
}

/**
 * Switch the app's view by its hash route (string form: the test compiles without DOM types), and
 * wait until the new view is on screen: a view is loaded on its first visit, and until then the
 * one before stays painted (a manager's page has an events table too, without the Manager column).
 */
export async function go(page: Page, hash: string): Promise<void> {
  await page.evaluate(`window.location.hash = ${JSON.stringify(hash)}`);
  await page.getByTestId(`view-${viewOf(hash)}`).waitFor({ timeout: 30_000 });
}

/**
 * The texts of every `selector` match under `root`, read in one task of the page. A list the app
 * re-sorts live must be read this way: `allTextContents` finds the elements in one round trip and
 * reads their texts in a second, so a re-sort in between reads the new texts in the old order.
 */
export async function textsIn(root: Locator, selector: string): Promise<string[]> {
  return root.evaluate(
    (el, sel) =>
      Array.from(
        (el as unknown as { querySelectorAll(s: string): ArrayLike<{ textContent: string | null }> }).querySelectorAll(
          sel,
        ),
        (e) => e.textContent ?? '',
      ),
    selector,
  );
}

/** A browser notification as `recordNotifications` keeps it (`window.__notifications`). */
export interface RecordedNotification {
  title: string;
  body?: string;
  tag?: string;
  requireInteraction?: boolean;
}

/**
 * Let the pages of `context` show notifications at `url`'s origin, and keep each one the page
 * shows in `window.__notifications` (read them with `shownNotifications`).
 */
export async function recordNotifications(context: BrowserContext, url: string): Promise<void> {
  await context.grantPermissions(['notifications'], { origin: new URL(url).origin });
  await context.addInitScript(`(() => {
    const Original = window.Notification;
    const seen = (window.__notifications = []);
    class Recorded extends Original {
      constructor(title, options = {}) {
        seen.push({ title, body: options.body, tag: options.tag, requireInteraction: options.requireInteraction });
        super(title, options);
      }
    }
    window.Notification = Recorded;
  })()`);
}

/** The notifications a page has shown so far (`recordNotifications`). */
export const shownNotifications = (page: Page): Promise<RecordedNotification[]> =>
  page.evaluate('window.__notifications') as Promise<RecordedNotification[]>;
