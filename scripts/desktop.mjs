#!/usr/bin/env node
// `npm start` and `npm run dev`: make sure the Electron runtime is here, then hand over to
// electron-vite. Since Electron 42 its package downloads the binary lazily, but electron-vite reads
// node_modules/electron/path.txt first and throws "Electron uninstall" without it, so the
// download happens here, once, with a plain message when it cannot.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const mode = process.argv[2] === 'dev' ? 'dev' : 'preview';
const require = createRequire(join(root, 'package.json'));

function electronDir() {
  try {
    return dirname(require.resolve('electron/package.json'));
  } catch {
    return null;
  }
}

function installed(dir) {
  const pathFile = join(dir, 'path.txt');
  if (!existsSync(pathFile)) return false;
  return existsSync(join(dir, 'dist', readFileSync(pathFile, 'utf8').trim()));
}

/** Why the download failed, in one line, from what the installer printed. */
export function downloadFailure(output) {
  const http = output.match(/HTTPError: [^\n]+|status code \d{3}|Response code \d{3}[^\n]*/i);
  const first = output
    .split('\n')
    .map((l) => l.trim())
    .find((l) => l.length > 0 && !l.startsWith('at ') && !/^Downloading/i.test(l));
  return (http?.[0] ?? first ?? 'no reason given').replace(/^(Type)?Error: /, '');
}

function fail(reason) {
  console.error(
    [
      '',
      'Tidewatch: the desktop app needs the Electron runtime, and it could not be downloaded.',
      `  Cause: ${reason}`,
      '  What to do:',
      '    - check the network or proxy (the download honours HTTPS_PROXY, and ELECTRON_MIRROR for a mirror),',
      `      then run \`npm ${mode === 'dev' ? 'run dev' : 'start'}\` again; or`,
      '    - use the same UI in a browser, with nothing to download:  npm run -s cli -- serve',
      '',
    ].join('\n'),
  );
  process.exit(1);
}

async function ensureElectron() {
  const dir = electronDir();
  if (!dir) fail('the electron package is not installed; run `npm install` first');
  if (installed(dir)) return;
  const installer = join(dir, 'install.js');
  if (!existsSync(installer)) fail(`this electron package has no installer (${installer})`);
  console.error('Tidewatch: downloading the Electron runtime (once; about 100 MB)…');
  const child = spawn(process.execPath, ['--require', join(root, 'scripts', 'fetch-cause.cjs'), installer], {
    cwd: dir,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const timer = setTimeout(() => child.kill('SIGTERM'), 15 * 60_000);
  const code = await new Promise((resolve) => child.on('exit', (c, signal) => resolve(signal ? 1 : (c ?? 1))));
  clearTimeout(timer);
  if (code !== 0 || !installed(dir)) fail(downloadFailure(output));
}

await ensureElectron();
const bin = join(root, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js');
const app = spawn(process.execPath, [bin, mode, ...process.argv.slice(3)], { cwd: root, stdio: 'inherit' });
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => app.kill(sig));
app.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
