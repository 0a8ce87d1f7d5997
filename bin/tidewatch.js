#!/usr/bin/env node
// The command line runs straight from the TypeScript sources (no build step after `npm install`).
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const major = Number(process.versions.node.split('.')[0]);
if (major < 22) {
  // better-sqlite3's prebuild needs a current Node: use the project's pinned Node 24 (devDependency `node`).
  const pinned = fileURLToPath(new URL('../node_modules/.bin/node', import.meta.url));
  if (!existsSync(pinned)) {
    console.error(`tidewatch: Node ${process.versions.node} is too old (22 or later is needed). Run \`npm install\`, then \`npm run -s cli -- ...\`.`);
    process.exit(1);
  }
  // The key never goes on the child's command line (where `ps` shows it): it travels in the environment.
  const args = process.argv.slice(2);
  const env = { ...process.env };
  const at = args[0] === 'sim' ? -1 : args.findIndex((a) => a === '--api-key' || a.startsWith('--api-key='));
  if (at >= 0) {
    const inline = args[at].startsWith('--api-key=');
    const value = inline ? args[at].slice('--api-key='.length) : args[at + 1];
    if (value !== undefined) {
      env.TIDEWATCH_API_KEY = value;
      env.TIDEWATCH_KEY_FROM_ARGV = '1';
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
