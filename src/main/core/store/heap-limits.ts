import { setFlagsFromString } from 'node:v8';

/**
 * V8's heap settings for a process that streams into the store (docs/operations.md, Memory). Under a catch-up of a
 * million events V8 doubles its young generation from 4 MB up to 128 MB (no pointer compression
 * in Node or Electron's main process), and lets the old generation grow by its own factor of up to 4
 * between full collections: peak RSS +216-257 MB over the catch-up while the live heap stayed
 * ~11 MB. Keeping the young generation at its first size and growing the old one by 30 %
 * measured +81-89 MB (2 shared cores, 1M events, same run): live data here is a batch of a few
 * thousand events, so a small young generation costs ~10 % of catch-up ingest speed
 * (`npm run bench` prints both). Both flags are read at every collection, so setting them at run
 * time works (a test checks it on this Node); `--max-semi-space-size` is read only at start-up.
 */
export const STREAMING_HEAP_FLAGS = ['--semi-space-growth-factor=1', '--heap-growing-percent=30'] as const;

let applied = false;

/** Apply `STREAMING_HEAP_FLAGS` to this process, once (the store calls it when it opens). */
export function keepHeapSmall(): void {
  if (applied) return;
  applied = true;
  for (const flag of STREAMING_HEAP_FLAGS) setFlagsFromString(flag);
}
