import { existsSync, readFileSync, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';
import { CSP } from '../../shared/csp';
import { BASE_HEADERS, sendError, type WebHandler } from './answer';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json; charset=utf-8',
  '.woff2': 'font/woff2',
  '.map': 'application/json; charset=utf-8',
};

export interface StaticFile {
  body: Buffer;
  type: string;
}

/** A file of the built renderer; unknown paths fall back to index.html (one-page app). */
export function staticFile(root: string, urlPath: string): StaticFile | undefined {
  const rel = normalize(decodeURIComponent(urlPath)).replace(/^([/\\])+/, '');
  const file = join(root, rel);
  if (!file.startsWith(root + sep) && file !== root) return undefined;
  const target = existsSync(file) && statSync(file).isFile() ? file : join(root, 'index.html');
  if (!existsSync(target)) return undefined;
  return { body: readFileSync(target), type: TYPES[extname(target)] ?? 'application/octet-stream' };
}

export const NOT_BUILT_PAGE = `<!doctype html><meta charset="utf-8"><title>Tidewatch</title>
<body style="font-family:system-ui;padding:2rem"><h1>Tidewatch</h1>
<p>The monitor is running and its API answers, but the user interface has not been built yet.</p>
<p>Run <code>npm run build</code>, then start <code>tidewatch serve</code> again.</p></body>`;

/**
 * The built renderer over HTTP (the desktop serves it over app://, shell/app-protocol.ts): GET or
 * HEAD only. An unknown path, or one that climbs out of the renderer's folder, gets index.html;
 * a page comes with the Content-Security-Policy and no caching; an unbuilt renderer gets a page
 * that says how to build it.
 */
export class FileHandler implements WebHandler {
  constructor(
    /** The built renderer (out/renderer). */
    private readonly root: string,
  ) {}

  handle(req: IncomingMessage, res: ServerResponse, url: URL): void {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      sendError(res, { kind: 'method', message: 'only GET here' });
      return;
    }
    const file = staticFile(this.root, url.pathname === '/' ? '/index.html' : url.pathname);
    const html = file?.type.startsWith('text/html') ?? true;
    res.writeHead(200, {
      'content-type': file?.type ?? 'text/html; charset=utf-8',
      ...BASE_HEADERS,
      ...(html ? { 'content-security-policy': CSP, 'cache-control': 'no-store' } : {}),
    });
    res.end(file?.body ?? NOT_BUILT_PAGE);
  }
}
