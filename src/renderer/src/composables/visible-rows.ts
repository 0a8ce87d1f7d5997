/**
 * Which rows of a long table are in the DOM (docs/performance.md, the desk): the rows in view
 * and `OVERSCAN_PX` either side, each table measured against the window once per frame by one
 * shared listener, however many tables (a Portfolio of 100 wallets has 100). The rest of a table
 * is a spacer row of their height, so the scroll bar, the page's length and the rows' order stay
 * as if every row were there.
 */

/** Below this many rows in a view every row is in the DOM: a whole table of them costs less than a frame. */
export const VIRTUAL_FROM = 200;
/** A row's height until one is measured (px). */
export const ROW_ESTIMATE_PX = 64;
/** Rows this far beyond the window stay in the DOM: Tab reaches the next row, a wheel turn shows rows at once. */
export const OVERSCAN_PX = 480;

export interface Range {
  first: number;
  /** One past the last. */
  last: number;
}

/**
 * The rows of a table whose first row starts `top` px from the window's top (negative: above it)
 * that fall within the window of `height` px, `overscan` px either side, at `rowPx` a row.
 */
export function visibleRange(count: number, top: number, height: number, rowPx: number, overscan = OVERSCAN_PX): Range {
  const first = Math.max(0, Math.floor((-top - overscan) / rowPx));
  const last = Math.min(count, Math.ceil((height - top + overscan) / rowPx));
  return last <= first ? { first: 0, last: 0 } : { first, last };
}

/** One table's part: where it is, and what to do with the range it gets. */
export interface Watched {
  /** Its first row's top and the rendered rows' mean height (null: none rendered), in px. */
  measure(): { top: number; rowPx: number | null };
  count(): number;
  apply(range: Range, rowPx: number): void;
}

const watched = new Set<Watched>();
let frame: number | undefined;
/** The rows' height as last measured, shared: every table's rows are alike. */
let rowPx = ROW_ESTIMATE_PX;

/** Measure every table (reads only, one layout), then hand each its range (writes). */
function run(): void {
  frame = undefined;
  const height = window.innerHeight;
  const seen = [...watched].map((w) => ({ w, m: w.measure() }));
  const heights = seen.map((s) => s.m.rowPx).filter((x): x is number => x !== null && x > 0);
  // Whole pixels, moved only by 2 or more: a height that moved with each measure would move every
  // spacer, so the next measure, in every frame (a loop of renders that the desk bench showed).
  const mean = heights.length > 0 ? Math.round(heights.reduce((a, b) => a + b, 0) / heights.length) : rowPx;
  if (Math.abs(mean - rowPx) >= 2) rowPx = mean;
  for (const { w, m } of seen) w.apply(visibleRange(w.count(), m.top, height, rowPx), rowPx);
}

/** Measure again in the next frame (a scroll, a resize, new rows). */
export function schedule(): void {
  if (frame === undefined && watched.size > 0) frame = requestAnimationFrame(run);
}

function onScroll(): void {
  schedule();
}

export function watch(w: Watched): () => void {
  if (watched.size === 0) {
    // Capture: the scroll of whichever element scrolls the view (the app's content pane) reaches here.
    document.addEventListener('scroll', onScroll, { capture: true, passive: true });
    window.addEventListener('resize', onScroll, { passive: true });
  }
  watched.add(w);
  schedule();
  return () => {
    watched.delete(w);
    if (watched.size === 0) {
      document.removeEventListener('scroll', onScroll, { capture: true });
      window.removeEventListener('resize', onScroll);
      if (frame !== undefined) cancelAnimationFrame(frame);
      frame = undefined;
    }
  };
}

/** The shared row height now (px). */
export const rowHeight = (): number => rowPx;
