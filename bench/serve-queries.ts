/**
 * Live events as the page gets it: `tidewatch serve` started as the CLI starts it on a store of
 * 1,000,000 margin stream events, each query shape asked as the page asks it (POST
 * /api/invoke/marginEvents over a keep-alive connection, 200 rows), timed until the answer is read
 * and parsed. Baseline in the same run, over the same connection: a call that does nothing
 * (`watchList`). Beside it, the same query in this process against the store (SQL and rows only).
 * Three rounds, the shapes in turn; each figure is the median of the rounds' quantiles with their
 * spread. Budgets: p50 <= 2 ms, p99 <= 8 ms for every shape.
 */
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Store } from '../src/main/core/store/store';
import { startEventServer } from './event-server';
import { medianOf, withSpread, type Figure } from './figures';
import { EVENTS, fillStore, quantiles, SHAPES } from './queries';
import { spawnServe } from './support';

const RUNS = Number(process.env['BENCH_QUERY_RUNS'] ?? 300);
const ROUNDS = 3;
const PART = `Live events, 200 rows of ${EVENTS.toLocaleString('en-US')} stored`;

interface Quantiles {
  p50: number;
  p99: number;
}

export async function serveQueriesBench(): Promise<Figure[]> {
  const dir = mkdtempSync(join(tmpdir(), 'tw-bench-sq-'));
  const service = await startEventServer(0);
  try {
    const store = Store.open(dir);
    fillStore(store);
    // The same queries in this process, for the figure beside.
    const sql = new Map<string, Quantiles>();
    for (const [name, filter] of SHAPES) {
      for (let w = 0; w < 20; w++) store.margin.list({ ...filter(), limit: 200 });
      const samples: number[] = [];
      for (let r = 0; r < RUNS; r++) {
        const f = filter();
        const s = performance.now();
        store.margin.list({ ...f, limit: 200 });
        samples.push(performance.now() - s);
      }
      sql.set(name, quantiles(samples));
    }
    await store.shutdown();

    const serve = await spawnServe('queries', [
      '--data-dir',
      dir,
      '--base-url',
      service.url,
      '--stream-url',
      service.url,
      '--api-key',
      'bench',
      '--no-history',
    ]);
    try {
      const timed = async (method: string, args: () => object): Promise<Quantiles> => {
        const samples: number[] = [];
        for (let r = 0; r < RUNS; r++) {
          const a = args();
          const s = performance.now();
          await serve.call(method, a);
          samples.push(performance.now() - s);
        }
        return quantiles(samples);
      };
      const cases: Array<[string, string, () => object]> = [
        ['baseline', 'watchList', () => ({})],
        ...SHAPES.map(([name, filter]): [string, string, () => object] => [
          name,
          'marginEvents',
          () => ({ ...filter(), limit: 200 }),
        ]),
      ];
      for (const [, method, args] of cases) for (let w = 0; w < 30; w++) await serve.call(method, args());
      const rounds = new Map<string, Quantiles[]>(cases.map(([name]) => [name, []]));
      for (let r = 0; r < ROUNDS; r++)
        for (const [name, method, args] of cases) rounds.get(name)!.push(await timed(method, args));

      const base = rounds.get('baseline')!;
      const baseP50 = medianOf(base.map((q) => q.p50));
      const baseP99 = medianOf(base.map((q) => q.p99));
      console.log(`\n${PART}: POST /api/invoke/marginEvents to serve, ${ROUNDS} rounds of ${RUNS} calls per shape`);
      console.log(
        `${'baseline: watchList, a call that does nothing'.padEnd(40)} p50 ${withSpread(
          base.map((q) => q.p50),
          2,
          'ms',
        )}  p99 ${withSpread(
          base.map((q) => q.p99),
          2,
          'ms',
        )}`,
      );
      const figures: Figure[] = [];
      for (const [name] of SHAPES) {
        const qs = rounds.get(name)!;
        const p50 = medianOf(qs.map((q) => q.p50));
        const p99 = medianOf(qs.map((q) => q.p99));
        const inProcess = sql.get(name)!;
        console.log(
          `${name.padEnd(40)} p50 ${withSpread(
            qs.map((q) => q.p50),
            2,
            'ms',
          )}  p99 ${withSpread(
            qs.map((q) => q.p99),
            2,
            'ms',
          )}  (in process, SQL and rows: p50 ${inProcess.p50.toFixed(2)} ms, p99 ${inProcess.p99.toFixed(2)} ms)`,
        );
        figures.push(
          {
            part: PART,
            name: `${name}: p50`,
            value: `${withSpread(
              qs.map((q) => q.p50),
              2,
              'ms',
            )}; in process ${inProcess.p50.toFixed(2)} ms`,
            baseline: `a call that does nothing: ${baseP50.toFixed(2)} ms`,
            ratio: `${(p50 / baseP50).toFixed(1)}x`,
            budget: '≤ 2 ms',
            met: p50 <= 2,
          },
          {
            part: PART,
            name: `${name}: p99`,
            value: `${withSpread(
              qs.map((q) => q.p99),
              2,
              'ms',
            )}; in process ${inProcess.p99.toFixed(2)} ms`,
            baseline: `a call that does nothing: ${baseP99.toFixed(2)} ms`,
            ratio: `${(p99 / baseP99).toFixed(1)}x`,
            budget: '≤ 8 ms',
            met: p99 <= 8,
          },
        );
      }
      return figures;
    } finally {
      serve.child.kill('SIGTERM');
      await once(serve.child, 'exit');
    }
  } finally {
    await service.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
