/**
 * The memory benchmark in a process of its own (`npm run bench` runs it so, `partInOwnProcess`): a
 * process that holds the monitor's modules and nothing of the benchmark's (Playwright, the other
 * parts' data). V8 sizes a heap's growth on what is live: in the benchmark's own process (~48 MB
 * live) the same ingest peaked at +77 to +141 MB RSS across five runs, against +70-79 MB here.
 */
import { memoryBench } from './memory';
import { reportBudgets } from './support';

reportBudgets(await memoryBench());
process.exit(0);
