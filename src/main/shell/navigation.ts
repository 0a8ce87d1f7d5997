/**
 * Where the window may go, as pure functions (unit-tested without Electron): origins compared
 * as parsed `scheme://host[:port]`, never by string prefix (`http://localhost:5173@evil.example/`
 * is evil.example), and the system browser only for the hosts of links the app itself shows.
 */

/** `scheme://host[:port]` of a URL, lower-cased; null when it does not parse or has no host. */
export function originOf(url: string): string | null {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return null;
  }
  if (!u.host) return null;
  // Node's URL gives custom schemes (app://) an opaque origin: build it from the parts instead.
  return `${u.protocol}//${u.host}`.toLowerCase();
}

/** Whether `url` is one of our own pages (app://tidewatch, or the dev server in development). */
export function isOwnPage(url: string, allowedOrigins: readonly string[]): boolean {
  const o = originOf(url);
  return o !== null && allowedOrigins.some((a) => originOf(a) === o);
}

/** Hosts whose https links may open in the system browser: the explorer and docs the app links to. */
export const EXTERNAL_HOSTS = ['suiscan.xyz', 'suivision.xyz', 'docs.sui.io'] as const;

/** Only https, only an allowed host (or one of its subdomains), no credentials in the URL. */
export function mayOpenExternally(url: string): boolean {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return false;
  }
  if (u.protocol !== 'https:' || u.username !== '' || u.password !== '') return false;
  const host = u.hostname.toLowerCase();
  return EXTERNAL_HOSTS.some((h) => host === h || host.endsWith(`.${h}`));
}

/** What the guards need of a webContents (Electron's, or a test double). */
export interface GuardedContents {
  on(event: 'will-navigate' | 'will-redirect', listener: (e: { preventDefault(): void }, url: string) => void): unknown;
  on(event: 'will-frame-navigate', listener: (e: { preventDefault(): void; url: string }) => void): unknown;
  on(event: 'will-attach-webview', listener: (e: { preventDefault(): void }) => void): unknown;
  setWindowOpenHandler(handler: (details: { url: string }) => { action: 'deny' }): void;
}

/**
 * Lock a window to our pages: navigation, redirects and frame navigations elsewhere are stopped
 * (an allowed https link opens in the system browser instead), new windows are denied, webviews
 * never attach.
 */
export function guardNavigation(
  wc: GuardedContents,
  allowedOrigins: readonly string[],
  openExternal: (url: string) => void,
  log: (line: string) => void,
): void {
  const elsewhere = (url: string): boolean => {
    if (isOwnPage(url, allowedOrigins)) return false;
    if (mayOpenExternally(url)) openExternal(url);
    else log(`blocked navigation to ${originOf(url) ?? 'an invalid URL'}`);
    return true;
  };
  wc.on('will-navigate', (e, url) => {
    if (elsewhere(url)) e.preventDefault();
  });
  wc.on('will-redirect', (e, url) => {
    if (!isOwnPage(url, allowedOrigins)) {
      e.preventDefault();
      log(`blocked redirect to ${originOf(url) ?? 'an invalid URL'}`);
    }
  });
  wc.on('will-frame-navigate', (e) => {
    if (!isOwnPage(e.url, allowedOrigins)) {
      e.preventDefault();
      log(`blocked frame navigation to ${originOf(e.url) ?? 'an invalid URL'}`);
    }
  });
  wc.on('will-attach-webview', (e) => e.preventDefault());
  wc.setWindowOpenHandler(({ url }) => {
    if (mayOpenExternally(url)) openExternal(url);
    else log(`blocked a new window for ${originOf(url) ?? 'an invalid URL'}`);
    return { action: 'deny' };
  });
}
