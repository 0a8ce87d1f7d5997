import { extname, join, normalize, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Net, Protocol } from 'electron';
import { CSP } from '../../shared/csp';

export const APP_SCHEME = 'app';
export const APP_HOST = 'tidewatch';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;

/** Must run before `app.whenReady()`: app:// behaves like https (secure context, fetch, storage). */
export function registerAppScheme(protocol: Protocol): void {
  protocol.registerSchemesAsPrivileged([
    { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } },
  ]);
}

/** The file under `root` that an app:// URL names, or undefined when it would leave `root`. */
export function resolveAppPath(root: string, url: string): string | undefined {
  const u = new URL(url);
  if (u.host !== APP_HOST) return undefined;
  const rel = normalize(decodeURIComponent(u.pathname)).replace(/^([/\\])+/, '');
  const file = join(root, rel === '' ? 'index.html' : rel);
  return file.startsWith(root + sep) ? file : undefined;
}

/**
 * Serve the built renderer from app://tidewatch/ (not file://, whose origin is shared by every
 * local file), with the CSP on every answer.
 */
export function serveRenderer(protocol: Protocol, net: Net, root: string): void {
  protocol.handle(APP_SCHEME, async (request) => {
    const file = resolveAppPath(root, request.url);
    if (!file) return new Response('Not found', { status: 404 });
    const res = await net.fetch(pathToFileURL(file).toString());
    const headers = new Headers(res.headers);
    headers.set('content-security-policy', CSP);
    headers.set('x-content-type-options', 'nosniff');
    if (extname(file) === '.js') headers.set('content-type', 'text/javascript');
    return new Response(res.body, { status: res.status, headers });
  });
}
