import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

describe('one Content-Security-Policy', () => {
  it('has no unsafe-inline, and the page meta tag matches what the shells send', async () => {
    const { CSP } = await import('../../../src/shared/csp');
    expect(CSP).not.toContain('unsafe');
    const html = readFileSync(join(__dirname, '../../../src/renderer/index.html'), 'utf8');
    const meta = /content="([^"]+)"/.exec(html)![1]!;
    // The meta tag cannot carry frame-ancestors (headers only); everything else is the same.
    expect(meta).toBe(CSP.replace(" frame-ancestors 'none';", ''));
  });
});
