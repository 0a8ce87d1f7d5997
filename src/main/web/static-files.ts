import { existsSync, readFileSync, statSync } from 'node:fs';
import { extname, join, normalize, sep } from 'node:path';

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
