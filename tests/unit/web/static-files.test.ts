import { WIRE_ERRORS } from '../../../src/shared/wire';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FileHandler, NOT_BUILT_PAGE, staticFile } from '../../../src/main/web/static-files';
import { CSP } from '../../../src/shared/csp';
import { fakeReq, fakeRes } from './http-doubles';

/** A built renderer beside a file it must never hand out. */
const dir = mkdtempSync(join(tmpdir(), 'tidewatch-static-'));
const root = join(dir, 'renderer');
mkdirSync(join(root, 'assets'), { recursive: true });
writeFileSync(join(root, 'index.html'), '<!doctype html><title>Tidewatch</title>');
writeFileSync(join(root, 'assets', 'app.js'), 'console.log(1)');
writeFileSync(join(dir, 'secret.txt'), 'THE SECRET');
writeFileSync(join(dir, 'renderer-evil.txt'), 'THE SECRET');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A path as the browser sends it, read as WebAuth reads it (a URL on our own address). */
function get(handler: FileHandler, path: string, method = 'GET') {
  const res = fakeRes();
  handler.handle(fakeReq(path, {}, method), res.as(), new URL(path, 'http://127.0.0.1:4321'));
  return res;
}

describe('the built renderer over HTTP', () => {
  const files = new FileHandler(root);

  it('serves the page with the CSP and no caching, and an asset with its type and no CSP', () => {
    const page = get(files, '/');
    expect(page.status).toBe(200);
    expect(page.body).toContain('<title>Tidewatch</title>');
    expect(page.headers).toMatchObject({
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': CSP,
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
    });
    const js = get(files, '/assets/app.js');
    expect(js.body).toBe('console.log(1)');
    expect(js.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(js.headers['content-security-policy']).toBeUndefined();
  });

  it('answers an unknown path with the page (one-page app)', () => {
    expect(get(files, '/markets/SUI_USDC').body).toContain('<title>Tidewatch</title>');
  });

  it('refuses to climb out of its folder, however the path is written', () => {
    for (const path of [
      '/../secret.txt',
      '/..%2fsecret.txt',
      '/%2e%2e/secret.txt',
      '/%2e%2e%2fsecret.txt',
      '/assets/..%2f..%2fsecret.txt',
      '/..%5csecret.txt',
      '/%2e%2e%2frenderer-evil.txt',
      `/${encodeURIComponent(join(dir, 'secret.txt'))}`,
    ]) {
      const res = get(files, path);
      expect(res.body, path).not.toContain('SECRET');
      expect(res.body, path).toContain('<title>Tidewatch</title>');
    }
    // Asked directly, past any URL parsing: the page, or nothing for a path that starts outside.
    for (const path of ['/../secret.txt', '/../renderer-evil.txt', '\\..\\secret.txt']) {
      expect(staticFile(root, path)?.body.toString(), path).toContain('<title>Tidewatch</title>');
    }
    expect(staticFile(root, '../secret.txt')).toBeUndefined();
    expect(staticFile(root, '../renderer-evil.txt')).toBeUndefined();
  });

  it('takes only GET and HEAD', () => {
    const post = get(files, '/', 'POST');
    expect(post.status).toBe(405);
    expect(post.json()).toEqual({
      error: { kind: 'method', message: 'only GET here', advice: WIRE_ERRORS.method.advice },
    });
    expect(get(files, '/', 'HEAD').status).toBe(200);
  });

  it('says how to build the user interface when it is not built', () => {
    const res = get(new FileHandler(join(dir, 'not-built')), '/');
    expect(res.status).toBe(200);
    expect(res.body).toBe(NOT_BUILT_PAGE);
    expect(res.headers['content-security-policy']).toBe(CSP);
  });

  it('lets a malformed %-escape throw, for the router to answer 400', () => {
    expect(() => get(files, '/%ff%fe')).toThrow(URIError);
  });
});
