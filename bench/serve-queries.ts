/**
 * Live events as the page gets it: `tidewatch serve` started as the CLI starts it on a store of
 * 1,000,000 margin stream events, each query shape asked as the page asks it (POST
 * /api/invoke/marginEvents over a keep-alive connection, 200 rows), timed until the answer is read
 * and parsed. Baseline in the same run, over the same connection: a call that does nothing
 * (`watchList`), and the floor of the transport: a server in a process of its own that does nothing
 * but answer every call with the bytes serve answered for the newest 200 (on this 2-core machine
 * its p99 alone is 5-10 ms). Beside it, serve's own time for the same calls, from its
 * `Server-Timing` header (from the request to its JSON): the rest is the transport's and this
 * client's.
 * Three rounds, the shapes in turn; each figure is the median of the rounds' quantiles with their
 * spread. Budgets: p50 <= 2 ms, p99 <= 8 ms for every shape.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Store } from '../src/main/core/store/store';
import { startEventServer } from './event-server';
import { medianOf, withSpread, type Figure } from './figures';
import { EVENTS, fillStore, quantiles, SHAPES } from './queries';
import { serveArgs, spawnServe } from './support';

const RUNS = Number(process.env['BENCH_QUERY_RUNS'] ?? 300);
const ROUNDS = 3;
const PART = `Live events, 200 rows of ${EVENTS.toLocaleString('en-US')} stored`;

interface Quantiles {
  p50: number;
  p99: number;
}

/** A server of its own that answers every request with the file's bytes, and nothing else. */
const FIXED_ANSWER_SERVER = `
const body = require('node:fs').readFileSync(process.argv[1]);
const server = require('node:http').createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
    res.end(body);
  });
});
server.listen(0, '127.0.0.1', () => console.log('port ' + server.address().port));`;

async function fixedAnswerServer(file: string): Promise<{ call(): Promise<unknown>; close(): Promise<void> }> {
  const child = spawn(process.execPath, ['-e', FIXED_ANSWER_SERVER, file], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<string>((resolve) =>
    child.stdout!.on('data', (d) => {
      const m = /port (\d+)/.exec(String(d));
      if (m) resolve(m[1]!);
    }),
  );
  return {
    call: async () => {
      const res = await fetch(`http://127.0.0.1:${port}/`, { method: 'POST', body: '{}' });
      return res.json();
    },
    close: async () => {
      child.kill('SIGTERM');
      await once(child, 'exit');
    },
  };
}

export async function serveQueriesBench(): Promise<Figure[]> {
  const dir = mkdtempSync(join(tmpdir(), 'tw-bench-sq-'));
  const service = await startEventServer(0);
  try {
    const store = Store.open(dir);
    fillStore(store);
    await store.shutdown();

    const serve = await spawnServe('queries', serveArgs(dir, service.url, 'bench', false));
    // The bytes serve answers for the newest 200, as it writes them (invoke-handler.ts: JSON of { result }).
    const answer = join(dir, 'answer.json');
    writeFileSync(answer, JSON.stringify({ result: await serve.call('marginEvents', { limit: 200 }) }));
    const fixed = await fixedAnswerServer(answer);
    try {
      // serve's own time for each shape's calls (Server-Timing), over every round.
      const inServe = new Map<string, number[]>();
      const timed = async (name: string, method: string, args: () => object): Promise<Quantiles> => {
        const samples: number[] = [];
        const own = inServe.get(name) ?? [];
        inServe.set(name, own);
        for (let r = 0; r < RUNS; r++) {
          const a = args();
          const s = performance.now();
          if (method === 'fixed') await fixed.call();
          else own.push((await serve.timed(method, a)).serveMs);
          samples.push(performance.now() - s);
        }
        return quantiles(samples);
      };
      const cases: Array<[string, string, () => object]> = [
        ['baseline', 'watchList', () => ({})],
        ['transport', 'fixed', () => ({})],
        ...SHAPES.map(([name, filter]): [string, string, () => object] => [
          name,
          'marginEvents',
          () => ({ ...filter(), limit: 200 }),
        ]),
      ];
      for (const [, method, args] of cases)
        for (let w = 0; w < 30; w++) await (method === 'fixed' ? fixed.call() : serve.call(method, args()));
      const rounds = new Map<string, Quantiles[]>(cases.map(([name]) => [name, []]));
      for (let r = 0; r < ROUNDS; r++)
        for (const [name, method, args] of cases) rounds.get(name)!.push(await timed(name, method, args));

      const base = rounds.get('baseline')!;
      const baseP50 = medianOf(base.map((q) => q.p50));
      const baseP99 = medianOf(base.map((q) => q.p99));
      const floor = rounds.get('transport')!;
      const floorP50 = medianOf(floor.map((q) => q.p50));
      const floorP99 = medianOf(floor.map((q) => q.p99));
      const kb = `${(statSync(answer).size / 1024).toFixed(0)} KB`;
      console.log(`\n${PART}: POST /api/invoke/marginEvents to serve, ${ROUNDS} rounds of ${RUNS} calls per shape`);
      const spread = (qs: Quantiles[]): string =>
        `p50 ${withSpread(
          qs.map((q) => q.p50),
          2,
          'ms',
        )}  p99 ${withSpread(
          qs.map((q) => q.p99),
          2,
          'ms',
        )}`;
      const baseOwn = quantiles(inServe.get('baseline')!);
      console.log(
        `${'baseline: watchList, a call that does nothing'.padEnd(40)} ${spread(base)}  (in serve: p50 ${baseOwn.p50.toFixed(2)} ms, p99 ${baseOwn.p99.toFixed(2)} ms)`,
      );
      console.log(`${`baseline: ${kb} from a server doing nothing else`.padEnd(40)} ${spread(floor)}`);
      const figures: Figure[] = [];
      for (const [name] of SHAPES) {
        const qs = rounds.get(name)!;
        const p50 = medianOf(qs.map((q) => q.p50));
        const p99 = medianOf(qs.map((q) => q.p99));
        const own = quantiles(inServe.get(name)!);
        console.log(
          `${name.padEnd(40)} ${spread(qs)}  (in serve, Server-Timing: p50 ${own.p50.toFixed(2)} ms, p99 ${own.p99.toFixed(2)} ms)`,
        );
        const figure = (q: keyof Quantiles, value: number, base: number, floorOf: number, budget: number): Figure => ({
          part: PART,
          name: `${name}: ${q}`,
          value: `${withSpread(
            qs.map((x) => x[q]),
            2,
            'ms',
          )}; in serve ${own[q].toFixed(2)} ms`,
          baseline: `a call that does nothing: ${base.toFixed(2)} ms; ${kb} from a server doing nothing else: ${floorOf.toFixed(2)} ms`,
          ratio: `${(value / base).toFixed(1)}x`,
          budget: `≤ ${budget} ms`,
          met: value <= budget,
        });
        figures.push(figure('p50', p50, baseP50, floorP50, 2), figure('p99', p99, baseP99, floorP99, 8));
      }
      return figures;
    } finally {
      await fixed.close();
      serve.child.kill('SIGTERM');
      await once(serve.child, 'exit');
    }
  } finally {
    await service.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
