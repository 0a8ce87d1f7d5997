import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const installed = existsSync(join(ROOT, 'node_modules/electron/path.txt'));

/**
 * `npm start` / `npm run dev` where Electron's runtime cannot be downloaded: one plain message
 * naming the cause and the browser alternative, exit code 1, no stack trace. The download is
 * pointed at a refused loopback port so the test behaves the same on every machine.
 */
describe.skipIf(installed)('npm start without the Electron runtime', () => {
  for (const mode of ['preview', 'dev']) {
    it(`${mode}: explains itself and exits 1`, () => {
      const cache = mkdtempSync(join(tmpdir(), 'tw-electron-cache-'));
      try {
        const r = spawnSync(process.execPath, [join(ROOT, 'scripts/desktop.mjs'), mode], {
          encoding: 'utf8',
          env: { ...process.env, ELECTRON_MIRROR: 'http://127.0.0.1:9/', electron_config_cache: cache },
          timeout: 120_000,
        });
        expect(r.status).toBe(1);
        expect(r.stderr).toContain('the desktop app needs the Electron runtime, and it could not be downloaded');
        expect(r.stderr).toMatch(/Cause: fetch failed: ECONNREFUSED|Cause: fetch failed/);
        expect(r.stderr).toContain('npm run -s cli -- serve');
        expect(r.stderr).toContain(mode === 'dev' ? 'npm run dev' : 'npm start');
        expect(r.stderr).not.toMatch(/^\s+at /m);
        expect(r.stderr).not.toContain('Electron uninstall');
      } finally {
        rmSync(cache, { recursive: true, force: true });
      }
    }, 130_000);
  }
});
