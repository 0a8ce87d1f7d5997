import { setFlagsFromString } from 'node:v8';

/**
 * V8's heap settings for a process that streams into the store (docs/operations.md, Memory, has
 * the figures). Under a catch-up V8 doubles its young generation up to 128 MB (no pointer
 * compression in Node or Electron's main process) and lets the old generation grow by its own
 * factor of up to 4 between full collections, while the live data is a batch of a few thousand
 * events: most of that memory holds garbage. So the young generation stays at its first size and
 * the old one grows by 30 %, for a little catch-up ingest speed (`npm run bench` measures both in
 * its heap-limits part). Both flags are read at every collection, so setting them at run time
 * works (a test checks it on this Node); `--max-semi-space-size` is read only at start-up.
 */
export const STREAMING_HEAP_FLAGS = ['--semi-space-growth-factor=1', '--heap-growing-percent=30'] as const;

let applied = false;

/** Apply `STREAMING_HEAP_FLAGS` to this process, once (the store calls it when it opens). */
export function keepHeapSmall(): void {
  if (applied) return;
  applied = true;
  for (const flag of STREAMING_HEAP_FLAGS) setFlagsFromString(flag);
}
