import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../support/monitor';

describe('window bounds', async () => {
  const { loadWindowState, saveWindowState } = await import('../../../src/main/shell/window-state');
  it('are restored when they still overlap a display, and dropped when that display is gone', () => {
    const d = tempDir();
    const file = join(d.dir, 'w.json');
    saveWindowState(file, { bounds: { x: 100, y: 80, width: 1200, height: 800 }, maximized: false });
    expect(loadWindowState(file, [{ x: 0, y: 0, width: 1920, height: 1080 }]).bounds).toEqual({
      x: 100,
      y: 80,
      width: 1200,
      height: 800,
    });
    saveWindowState(file, { bounds: { x: 3000, y: 80, width: 1200, height: 800 }, maximized: true });
    expect(loadWindowState(file, [{ x: 0, y: 0, width: 1920, height: 1080 }])).toEqual({ maximized: true });
    expect(loadWindowState(join(d.dir, 'missing.json'), [])).toEqual({});
    d.remove();
  });
});
