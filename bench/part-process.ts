/**
 * One benchmark part in a process of its own (`npm run bench` runs the store's and the monitor's
 * parts so, through `partInOwnProcess`): a process that holds the monitor's modules and nothing
 * of the benchmark's (Playwright, the Demo network's modules, the other parts' data), as an
 * independent program measuring the same figure would. V8 sizes a heap's growth, and times its
 * collections, by what is live: in the benchmark's own process (~48 MB live) the memory part's
 * ingest peaked at +77 to +141 MB RSS across five runs against +70-79 MB here, and the ingest's
 * end-to-end ratio to raw INSERTs read 0.70-0.82x against 0.85-0.90x here.
 *
 * argv: the part's name (memory, queries, ingest, latency)
 */
import { alertLatencyBench } from './alert-latency';
import type { Figure } from './figures';
import { serveIngestBench } from './serve-ingest';
import { memoryBench } from './memory';
import { serveQueriesBench } from './serve-queries';
import { reportBudgets } from './support';

const parts: Record<string, () => Figure[] | Promise<Figure[]>> = {
  memory: memoryBench,
  queries: serveQueriesBench,
  ingest: serveIngestBench,
  latency: alertLatencyBench,
};
const part = parts[process.argv[2] ?? ''];
if (!part) throw new Error(`no benchmark part "${process.argv[2]}" (${Object.keys(parts).join(', ')})`);
reportBudgets(await part());
process.exit(0);
