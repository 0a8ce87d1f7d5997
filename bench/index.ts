/**
 * Benchmarks of the Demo network under a loopback load. Absolute numbers on shared machines are
 * noise, so each endpoint is printed as a ratio against a baseline measured in the same run:
 * the cheapest answer the server gives (a 404 for an unknown path).
 */
import { execFileSync } from 'node:child_process';
import { World } from '../src/sim';
import { writePerformanceDoc } from './figures';
import { heapLimitsBench } from './heap-limits';
import { rendererBench } from './renderer';
import { startBench } from './start';
import { load, partInOwnProcess, spawnSim } from './support';

const SECONDS = Number(process.env['BENCH_SECONDS'] ?? 5);
const CONNECTIONS = 16;

// The store's and the monitor's parts each in a process of its own (bench/part-process.ts): this
// one holds Playwright and the Demo network's modules, whose heap V8 sizes and collects with theirs.
const memory = await partInOwnProcess('memory');

const sim = await spawnSim(['--api-key', 'bench', '--seed', '7']);
try {
  // The API cannot list collections: take the first one from the same seed's description.
  const type = new World({ seed: 7, historyDays: 0.01 }).describe().collections[0]!;
  const cases: Array<[string, string]> = [
    ['baseline: 404 for an unknown path', `${sim.url}/no-such-path?api-key=bench`],
    ['GET /dex/get_pools', `${sim.url}/dex/get_pools?api-key=bench`],
    [
      'GET /nfts/collection/{type} page 3, perPage 50',
      `${sim.url}/nfts/collection/${type}?api-key=bench&page=3&perPage=50`,
    ],
    ['GET /dex/SUI_USDC/order-book-depth', `${sim.url}/dex/SUI_USDC/order-book-depth?api-key=bench`],
    ['GET /dex/SUI_USDC/trades (100)', `${sim.url}/dex/SUI_USDC/trades?api-key=bench`],
    ['GET /dex/SUI_USDC/ohlcv/1m (100)', `${sim.url}/dex/SUI_USDC/ohlcv/1m?api-key=bench`],
    ['GET /dex-margin/active-loans perPage 50', `${sim.url}/dex-margin/active-loans?api-key=bench&perPage=50`],
  ];
  console.log(
    `Demo network under loopback load: ${CONNECTIONS} keep-alive connections, ${SECONDS} s per case, server in its own process`,
  );
  let baseline = 0;
  for (const [name, url] of cases) {
    await load(url, CONNECTIONS, 1); // warm-up
    const r = await load(url, CONNECTIONS, SECONDS);
    if (baseline === 0) baseline = r.rps;
    const statuses = [...r.statuses].join(',');
    console.log(
      `${name.padEnd(48)} ${r.rps.toFixed(0).padStart(7)} req/s  ratio ${(r.rps / baseline).toFixed(2)}  status ${statuses}${r.errors ? `  errors ${r.errors}` : ''}`,
    );
  }
} finally {
  await sim.stop();
}

// The parts that start servers or a browser run here, each on a settled heap: a full collection
// of what the parts before left would otherwise land in whichever part runs next.
const settled = <T>(run: () => T): T => {
  (globalThis as { gc?: () => void }).gc?.();
  return run();
};
const budgets = [
  ...memory,
  ...(await partInOwnProcess('queries')),
  ...(await partInOwnProcess('ingest')),
  ...(await partInOwnProcess('latency')),
  ...(await heapLimitsBench()),
  ...(await settled(startBench)),
  ...(await settled(rendererBench)),
];
const missed = budgets.filter((f) => !f.met);
console.log(
  `\n${budgets.length - missed.length} of ${budgets.length} budgets met${missed.length ? `; missed: ${missed.map((f) => `${f.part}: ${f.name}`).join('; ')}` : ''}`,
);
// The table of this run, for the repository: what docs/performance.md says is what was measured last.
const head = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
const dirty =
  execFileSync('git', ['status', '--porcelain', '--untracked-files=no', '--', '.', ':!docs/performance.md'], {
    encoding: 'utf8',
  }).trim() !== '';
writePerformanceDoc('docs/performance.md', budgets, dirty ? `${head} with changes not committed` : head);
console.log('docs/performance.md written');
