import { describe, expect, it, vi } from 'vitest';

// Electron is mocked: these tests run where no Electron binary exists.
vi.mock('electron', () => import('./electron-mock').then((m) => m.electron.module));

describe('permissions', async () => {
  const { permissionAllowed } = await import('../../../src/main/shell/window-manager');
  it('are denied but clipboard writes from our own page', () => {
    const ours = ['app://tidewatch'];
    expect(permissionAllowed('clipboard-sanitized-write', 'app://tidewatch/index.html', ours)).toBe(true);
    for (const p of ['media', 'geolocation', 'notifications', 'openExternal', 'clipboard-read'])
      expect(permissionAllowed(p, 'app://tidewatch/', ours)).toBe(false);
    expect(permissionAllowed('clipboard-sanitized-write', 'https://evil.example/', ours)).toBe(false);
  });
});
