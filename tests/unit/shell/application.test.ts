import { describe, expect, it, vi } from 'vitest';

// Electron is mocked: these tests run where no Electron binary exists.
vi.mock('electron', () => import('./electron-mock').then((m) => m.electron.module));

describe('the desktop command line', async () => {
  const { demoSpeed } = await import('../../../src/main/shell/application');
  it('takes --speed like serve and sim, as --speed=N or --speed N', () => {
    expect(demoSpeed(['electron', 'out/main/index.js', '--speed=600'])).toBe(600);
    expect(demoSpeed(['electron', '--speed', '60', '--hidden'])).toBe(60);
    expect(demoSpeed(['electron'])).toBe(1);
    expect(demoSpeed(['electron', '--speed=fast'])).toBe(1);
    expect(demoSpeed(['electron', '--speed=-3'])).toBe(1);
  });
});
