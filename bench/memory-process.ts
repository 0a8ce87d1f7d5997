/**
 * The memory benchmark in a process of its own (`npm run bench` runs it so): a process that holds
 * the monitor's modules and nothing of the benchmark's (Playwright, the other parts' data). V8
 * sizes a heap's growth on what is live: in the benchmark's own process (~48 MB live) the same
 * ingest peaked at +77 to +141 MB RSS across five runs, against +70-79 MB here.
 * Prints the part's table, then its budgets as one JSON line after BUDGETS_MARKER.
 */
import { memoryBench } from './memory';

export const BUDGETS_MARKER = 'budgets:';

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop()!)) {
  const results = await memoryBench();
  console.log(`${BUDGETS_MARKER}${JSON.stringify(results)}`);
  process.exit(0);
}
