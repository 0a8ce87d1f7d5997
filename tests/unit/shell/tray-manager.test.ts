import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { electron } from './electron-mock';

// Electron is mocked: these tests run where no Electron binary exists.
vi.mock('electron', () => import('./electron-mock').then((m) => m.electron.module));

const { TrayManager } = await import('../../../src/main/shell/tray-manager');

describe('TrayManager', () => {
  beforeEach(() => electron.trays.splice(0));
  const actions = {
    open: vi.fn(),
    openChannels: vi.fn(),
    pause: vi.fn(),
    setStartAtLogin: vi.fn(),
    startAtLogin: () => true,
    quit: vi.fn(),
  };
  const state = (
    level: 'ok' | 'warning' | 'critical' | 'unreached' | 'offline',
    paused: number | null = null,
    unreached: string[] = [],
  ) => ({
    level,
    watchedLoans: 2,
    worstRatio: 1.3,
    tooltip: `Tidewatch · ${level}`,
    alertsPausedUntil: paused,
    unreached,
  });

  it('shows an icon per state and the tooltip (Linux/Windows), and builds the menu', () => {
    const tm = new TrayManager('/icons', actions, 'linux');
    tm.render(state('ok'));
    tm.render(state('critical'));
    const tray = electron.trays[0]!;
    expect(tray.image).toBe(join('/icons', 'critical.png'));
    expect(tray.tooltip).toBe('Tidewatch · critical');
    expect(tray.menu!.map((i) => i.label ?? i.type)).toEqual([
      'Open Tidewatch',
      'separator',
      'Pause desktop alerts',
      'Start at login',
      'separator',
      'Quit Tidewatch',
    ]);
    const pause = tray.menu![2].submenu as any[];
    pause[0].click();
    pause[1].click();
    expect(actions.pause).toHaveBeenNthCalledWith(1, 3_600_000);
    expect(actions.pause).toHaveBeenNthCalledWith(2, 'tomorrow');
    expect(pause[2].enabled).toBe(false);
    expect(pause[4]).toMatchObject({ label: 'Phone, chat and e-mail channels keep sending', enabled: false });
    tray.menu![5].click();
    expect(actions.quit).toHaveBeenCalled();
  });

  it('changes the icon when an alert channel is not reached, and says which in the menu, a way to its settings', () => {
    const tm = new TrayManager('/icons', actions, 'linux');
    tm.render(state('ok'));
    tm.render(state('unreached', null, ['phone (ntfy) not reached since 12:55: connection refused']));
    const tray = electron.trays[0]!;
    expect(tray.image).toBe(join('/icons', 'unreached.png'));
    expect(tray.menu!.map((i) => i.label ?? i.type).slice(0, 3)).toEqual([
      'Open Tidewatch',
      'phone (ntfy) not reached since 12:55: connection refused',
      'separator',
    ]);
    tray.menu![1].click();
    expect(actions.openChannels).toHaveBeenCalled();
  });

  it('uses template images and a title on macOS, and offers Resume while paused', () => {
    const tm = new TrayManager('/icons', actions, 'darwin');
    tm.render(state('warning', Date.now() + 1000));
    const tray = electron.trays[0]!;
    expect(tray.image).toBe(join('/icons', 'warningTemplate.png'));
    expect(tray.title).toBe('warning');
    expect(tray.tooltip).toBeUndefined();
    expect(tray.menu![2].label).toMatch(/^Desktop alerts paused until \d{1,2}:\d\d [AP]M$/);
    expect((tray.menu![2].submenu as any[])[2].enabled).toBe(true);
  });

  it('has every icon it can show on disk', () => {
    for (const level of ['ok', 'warning', 'critical', 'unreached', 'offline'] as const) {
      for (const platform of ['linux', 'darwin'] as const) {
        expect(
          readFileSync(new TrayManager('resources/tray', actions, platform).iconPath(level))
            .subarray(1, 4)
            .toString(),
        ).toBe('PNG');
      }
    }
  });
});
