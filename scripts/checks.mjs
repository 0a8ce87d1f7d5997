/**
 * `npm test`'s checks before the tests: typecheck, lint, format, dependency rules, test budgets
 * and the build, two at a time (this machine and CI have two cores; each check is mostly one
 * process on one core). Each check is its package.json script, run as `npm run -s NAME`; its output
 * is shown only when it fails. Exits 1 when any failed, after all have finished.
 *
 * Usage: node scripts/checks.mjs [NAME…]   (default: every check, in the order below)
 */
import { spawn } from 'node:child_process';

const CHECKS = ['typecheck', 'lint', 'format:check', 'deps', 'budgets', 'build'];
const LANES = 2;

/** One check: its name, whether it passed, how long it took and what it printed. */
function run(name) {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', '-s', name], { stdio: ['ignore', 'pipe', 'pipe'] });
    const out = [];
    child.stdout.on('data', (b) => out.push(b));
    child.stderr.on('data', (b) => out.push(b));
    child.on('error', (err) => out.push(Buffer.from(String(err))));
    child.on('close', (code) =>
      resolve({ name, ok: code === 0, seconds: (performance.now() - started) / 1000, output: Buffer.concat(out) }),
    );
  });
}

const names = process.argv.slice(2).length > 0 ? process.argv.slice(2) : CHECKS;
const queue = [...names];
const results = [];
async function lane() {
  for (let name = queue.shift(); name !== undefined; name = queue.shift()) {
    const r = await run(name);
    results.push(r);
    console.log(`${r.ok ? '✓' : '✗'} ${r.name} ${r.seconds.toFixed(1)} s`);
    if (!r.ok) process.stdout.write(r.output);
  }
}
const started = performance.now();
await Promise.all(Array.from({ length: LANES }, lane));
const failed = results.filter((r) => !r.ok).map((r) => r.name);
console.log(
  failed.length === 0
    ? `checks: all ${results.length} passed in ${((performance.now() - started) / 1000).toFixed(1)} s`
    : `checks: ${failed.join(', ')} failed`,
);
process.exit(failed.length === 0 ? 0 : 1);
