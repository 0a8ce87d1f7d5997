import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The Electron executable if it was downloaded into node_modules/electron/dist, else undefined. */
export function electronBinary(): string | undefined {
  const dir = join('node_modules', 'electron');
  if (process.env['ELECTRON_OVERRIDE_DIST_PATH']) {
    const p = join(process.env['ELECTRON_OVERRIDE_DIST_PATH'], 'electron');
    return existsSync(p) ? p : undefined;
  }
  const pathFile = join(dir, 'path.txt');
  if (!existsSync(pathFile)) return undefined;
  const full = join(dir, 'dist', readFileSync(pathFile, 'utf8').trim());
  return existsSync(full) ? full : undefined;
}
