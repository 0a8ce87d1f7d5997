#!/usr/bin/env node
// The command line runs straight from the TypeScript sources (no build step after `npm install`).
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const KEY_OPTIONS = ['--api-key', '--stream-key'];
const keyOnArgv = process.argv.slice(2).some((a) => KEY_OPTIONS.some((o) => a === o || a.startsWith(`${o}=`)));
if (keyOnArgv) {
  // The process's command line is world-readable (`ps`, /proc/PID/cmdline) for its whole life:
  // overwrite it in place, as database clients do with a password given as an option. Node has
  // already read its arguments; setting the title writes over the memory `ps` reads them from.
  process.title = `tidewatch ${process.argv[2] ?? ''}`.trim();
}

const major = Number(process.versions.node.split('.')[0]);
if (major < 22) {
  // better-sqlite3's prebuild needs a current Node: use the project's pinned Node 24 (the `node` dependency).
  const pinned = fileURLToPath(new URL('../node_modules/.bin/node', import.meta.url));
  if (!existsSync(pinned)) {
    console.error(
      `tidewatch: Node ${process.versions.node} is too old (22 or later is needed). Run \`npm install\`, then \`npm run -s cli -- ...\`.`,
    );
    process.exit(1);
  }
  // The keys never go on the child's command line (where `ps` shows them): they travel in the environment.
  const args = process.argv.slice(2);
  const env = { ...process.env };
  const moved = [
    ['--api-key', 'TIDEWATCH_API_KEY', 'TIDEWATCH_KEY_FROM_ARGV'],
    ['--stream-key', 'TIDEWATCH_STREAM_KEY', 'TIDEWATCH_STREAM_KEY_FROM_ARGV'],
  ];
  for (const [option, variable, flag] of args[0] === 'sim' ? [] : moved) {
    const at = args.findIndex((a) => a === option || a.startsWith(`${option}=`));
    if (at < 0) continue;
    const inline = args[at].startsWith(`${option}=`);
    const value = inline ? args[at].slice(option.length + 1) : args[at + 1];
    if (value !== undefined) {
      env[variable] = value;
      env[flag] = '1';
      args.splice(at, inline ? 1 : 2);
    }
  }
  const child = spawn(pinned, [fileURLToPath(import.meta.url), ...args], { stdio: 'inherit', env });
  for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('../src/cli/main.ts');
}
