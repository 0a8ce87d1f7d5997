/**
 * What every benchmark part hands back: one row per budgeted figure, as docs/performance.md shows
 * it. Values are written as measured (the median with its spread over runs); a baseline is one
 * measured in the same run wherever one can exist, and the budget is a ratio to it then.
 */
import { cpus, totalmem } from 'node:os';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

export interface Figure {
  /** The part of the bench it belongs to (a section of the output). */
  part: string;
  /** What is measured, as the user gets it. */
  name: string;
  /** The figure: its median, with the spread over runs, and any in-process figure beside it. */
  value: string;
  /** The baseline measured in the same run, or '' where none can exist. */
  baseline: string;
  /** value / baseline, or ''. */
  ratio: string;
  budget: string;
  met: boolean;
}

/** "1.23 (1.10-1.40)": a median with its spread, in `digits` decimals. */
export function withSpread(xs: readonly number[], digits: number, unit = ''): string {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s[Math.floor(s.length / 2)]!;
  const f = (x: number): string =>
    x.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
  const u = unit ? ` ${unit}` : '';
  return s.length > 1 ? `${f(mid)}${u} (${f(s[0]!)}-${f(s[s.length - 1]!)})` : `${f(mid)}${u}`;
}

export const medianOf = (xs: readonly number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export function printFigures(figures: readonly Figure[]): void {
  for (const f of figures)
    console.log(
      `  budget ${(f.met ? 'met' : 'MISSED').padEnd(6)} ${f.name}: ${f.value}${f.ratio ? `, ${f.ratio}` : ''} (budget ${f.budget})`,
    );
}

const cell = (s: string): string => s.replace(/\|/g, '\\|');

const markers = (name: string): [string, string] => [`<!-- ${name}:start -->`, `<!-- ${name}:end -->`];

/** The section a program of its own wrote between `name`'s markers in the file at `path`, markers included ('' if none). */
export function markedSection(path: string, name: string): string {
  if (!existsSync(path)) return '';
  const text = readFileSync(path, 'utf8');
  const [start, end] = markers(name);
  const a = text.indexOf(start);
  const b = text.indexOf(end, a);
  return a < 0 || b < 0 ? '' : text.slice(a, b + end.length);
}

/**
 * Write `lines` between `name`'s markers in the file at `path` (a doc's table a program owns,
 * the rest of the doc by hand or another program): replaced where they are, else appended.
 */
export function writeBetweenMarkers(path: string, name: string, lines: readonly string[]): void {
  const [start, end] = markers(name);
  const section = [start, ...lines, end].join('\n');
  const text = existsSync(path) ? readFileSync(path, 'utf8') : '';
  const old = markedSection(path, name);
  writeFileSync(path, old ? text.replace(old, () => section) : `${text.trimEnd()}\n\n${section}\n`);
}

/** The desk bench's section of docs/performance.md (bench/desk.ts), which `npm run bench` keeps. */
export const DESK_SECTION = 'desk-frames';

/** docs/performance.md: the machine and the date once, then one table of the run (and the desk's, kept). */
export function writePerformanceDoc(path: string, figures: readonly Figure[], commit: string): void {
  const desk = markedSection(path, DESK_SECTION);
  const cpu = cpus();
  const lines = [
    '# Performance',
    '',
    'Written by `npm run bench`; do not edit by hand. The table is what one run measured and nothing',
    'else: `bench/index.ts` runs each part (a file in `bench/`: the catch-up ingest is',
    '`bench/serve-ingest.ts`), gathers the figures each hands back and writes them here',
    "(`writePerformanceDoc` in `bench/figures.ts`); how a figure is taken is in its part's file. Each",
    'figure is measured as the user gets it, through `tidewatch serve` started as the CLI starts it',
    '(its HTTP API and SSE subscriptions, the way the page uses them) unless its name says otherwise,',
    'as the median of the runs with their spread in brackets; the baseline is measured in the same',
    'run. History lives in git: `git log -p docs/performance.md`.',
    '',
    'The catch-up ingest\'s figures "first byte to exit" count every process of serve\'s tree, read from',
    'outside (Linux /proc: `utime`+`stime` and `write_bytes`): serve itself, the checkpointer it runs',
    'as a child process (`node -e`) to copy the WAL into the database file, and any other it starts',
    "(tsx's compiler, when it has something to compile), from the stream's first byte until, stopped",
    'after the last row, all of them have exited, so the checkpoints after the last commit and the',
    'last one at exit count; a process that ends is counted through the parent that reaps it. The',
    "plain client's tree, the baseline, is counted the same way (it opens the same store, so it runs",
    'a checkpointer too). The ingest part prints the processes it counted.',
    '',
    `Run on ${new Date().toISOString().slice(0, 10)}, commit ${commit}: ${cpu.length} × ${cpu[0]?.model.trim() ?? 'unknown CPU'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.versions.node}, ${process.platform}.`,
    '',
    `${figures.filter((f) => f.met).length} of ${figures.length} budgets met.`,
    '',
    '| part | figure | measured | baseline (same run) | ratio | budget | met |',
    '| --- | --- | --- | --- | --- | --- | --- |',
    ...figures.map(
      (f) =>
        `| ${cell(f.part)} | ${cell(f.name)} | ${cell(f.value)} | ${cell(f.baseline || '—')} | ${cell(f.ratio || '—')} | ${cell(f.budget)} | ${f.met ? 'yes' : '**no**'} |`,
    ),
    '',
    ...(desk ? [desk, ''] : []),
  ];
  writeFileSync(path, lines.join('\n'));
}
