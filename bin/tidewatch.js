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
  const child = spawn(pinned, [fileURLToPath(import.meta.url), ...process.argv.slice(2)], { stdio: 'inherit' });
  for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('../src/cli/main.ts');
}
