import { readFileSync, writeFileSync } from 'node:fs';

export interface Bounds {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface WindowState {
  bounds?: Bounds;
  maximized?: boolean;
}

/** The saved window state, kept only if it still overlaps a display (a monitor may be gone). */
export function loadWindowState(file: string, displays: readonly Bounds[]): WindowState {
  try {
    const state = JSON.parse(readFileSync(file, 'utf8')) as WindowState;
    const b = state.bounds;
    if (!b || ![b.x, b.y, b.width, b.height].every(Number.isFinite) || b.width < 400 || b.height < 300) return {};
    const visible = displays.some(
      (d) => b.x < d.x + d.width - 50 && b.x + b.width > d.x + 50 && b.y < d.y + d.height - 50 && b.y + 30 > d.y,
    );
    return visible ? state : { maximized: state.maximized };
  } catch {
    return {};
  }
}

export function saveWindowState(file: string, state: WindowState): void {
  try {
    writeFileSync(file, JSON.stringify(state));
  } catch {
    // Losing the window position is not worth an error.
  }
}
