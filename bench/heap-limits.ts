/**
 * The heap limits a streaming process sets on itself (src/main/core/store/heap-limits.ts), against
 * the same allocation without them in the same run: a child process (V8 flags are per process)
 * allocates like a catch-up, 2,000,000 short-lived objects while a window of the last 20,000
 * stays alive (a group commit's pending batch), and prints its young generation's size and its
 * peak heap. Medians of 3 pairs, run side by side.
 * Budgets: the young generation held below V8's first unasked doubling (8 MB), the peak heap at
 * most half of what V8 grows to unasked.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { printFigures, withSpread, type Figure } from './figures';

const MODULE = fileURLToPath(new URL('../src/main/core/store/heap-limits.ts', import.meta.url));
const ROUNDS = 3;
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function youngGeneration(limited: boolean): Promise<{ newSpaceMb: number; heapPeakMb: number }> {
  const code = `
    const v8 = require('node:v8');
    ${limited ? `require(${JSON.stringify(MODULE)}).keepHeapSmall();` : ''}
    const window = new Array(20000);
    let peak = 0;
    for (let i = 0; i < 2000000; i++) {
      window[i % window.length] = { id: 'e' + i, data: JSON.stringify({ n: i, text: 'x'.repeat(100) }) };
      if (i % 10000 === 0) peak = Math.max(peak, process.memoryUsage().heapTotal);
    }
    const ns = v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space');
    console.log(JSON.stringify({ newSpaceMb: ns.space_size / 1048576, heapPeakMb: peak / 1048576 }));
  `;
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', '-e', code], {
    cwd: fileURLToPath(new URL('..', import.meta.url)),
  });
  return JSON.parse(stdout) as { newSpaceMb: number; heapPeakMb: number };
}

export async function heapLimitsBench(): Promise<Figure[]> {
  const free: Array<{ newSpaceMb: number; heapPeakMb: number }> = [];
  const held: Array<{ newSpaceMb: number; heapPeakMb: number }> = [];
  for (let i = 0; i < ROUNDS; i++) {
    const [f, h] = await Promise.all([youngGeneration(false), youngGeneration(true)]);
    free.push(f);
    held.push(h);
  }
  const row = (name: string, xs: typeof free): string =>
    `${name.padEnd(28)} young generation ${median(xs.map((x) => x.newSpaceMb))
      .toFixed(1)
      .padStart(6)} MB` +
    ` (${Math.min(...xs.map((x) => x.newSpaceMb)).toFixed(1)}-${Math.max(...xs.map((x) => x.newSpaceMb)).toFixed(1)})` +
    `  peak heap ${median(xs.map((x) => x.heapPeakMb))
      .toFixed(0)
      .padStart(5)} MB`;
  console.log(`\nHeap limits of a streaming process (${ROUNDS} pairs, medians with their range)`);
  console.log(row('baseline: V8 unasked', free));
  console.log(row('keepHeapSmall()', held));
  const young = median(held.map((x) => x.newSpaceMb));
  const ratio = median(held.map((x) => x.heapPeakMb)) / median(free.map((x) => x.heapPeakMb));
  const part = 'Heap limits of a streaming process (in process)';
  const figures: Figure[] = [
    {
      part,
      name: 'young generation held by keepHeapSmall()',
      value: withSpread(
        held.map((x) => x.newSpaceMb),
        1,
        'MB',
      ),
      baseline: `V8 unasked: ${withSpread(
        free.map((x) => x.newSpaceMb),
        1,
        'MB',
      )}`,
      ratio: '',
      budget: '< 8 MB',
      met: young < 8,
    },
    {
      part,
      name: 'peak heap with keepHeapSmall()',
      value: withSpread(
        held.map((x) => x.heapPeakMb),
        0,
        'MB',
      ),
      baseline: `V8 unasked: ${withSpread(
        free.map((x) => x.heapPeakMb),
        0,
        'MB',
      )}`,
      ratio: `${ratio.toFixed(2)}x`,
      budget: '≤ 0.5x',
      met: ratio <= 0.5,
    },
  ];
  printFigures(figures);
  return figures;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await heapLimitsBench();
