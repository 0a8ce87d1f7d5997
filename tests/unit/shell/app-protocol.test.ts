import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveAppPath } from '../../../src/main/shell/app-protocol';

describe('app:// protocol', () => {
  it('maps URLs into the renderer folder and refuses to leave it', () => {
    expect(resolveAppPath('/r', 'app://tidewatch/index.html')).toBe(join('/r', 'index.html'));
    expect(resolveAppPath('/r', 'app://tidewatch/')).toBe(join('/r', 'index.html'));
    expect(resolveAppPath('/r', 'app://tidewatch/assets/a.js')).toBe(join('/r', 'assets/a.js'));
    // Dot segments, encoded or not, never climb out of the folder.
    for (const evil of [
      'app://tidewatch/%2e%2e/%2e%2e/etc/passwd',
      'app://tidewatch/..%2f..%2fetc/passwd',
      'app://tidewatch/..\\..\\x',
    ]) {
      const p = resolveAppPath('/r', evil);
      expect(p === undefined || p.startsWith(join('/r') + '/')).toBe(true);
    }
    expect(resolveAppPath('/r', 'app://other/index.html')).toBeUndefined();
  });
});
