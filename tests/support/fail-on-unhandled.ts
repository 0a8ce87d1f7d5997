import { afterAll, afterEach } from 'vitest';

/**
 * Any unhandled rejection or uncaught exception fails the run: the shells survive one in
 * production (and show it in the status), but the tests must never rely on that net. Vitest
 * reports them too; this makes the failure name the test that was running.
 */
const caught: string[] = [];
const record = (kind: string) => (err: unknown) => {
  caught.push(`${kind}: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
};
process.on('unhandledRejection', record('unhandled rejection'));
process.on('uncaughtException', record('uncaught exception'));

afterEach((ctx) => {
  if (caught.length === 0) return;
  const found = caught.splice(0);
  throw new Error(`${found.length} unhandled error(s) during "${ctx.task.name}":\n${found.join('\n')}`);
});

afterAll(() => {
  if (caught.length > 0) throw new Error(`unhandled error(s) after the last test:\n${caught.splice(0).join('\n')}`);
});
