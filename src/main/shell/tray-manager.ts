import { join } from 'node:path';
import { Menu, nativeImage, Tray, type MenuItemConstructorOptions } from 'electron';
import type { TrayState } from '../core/tray-state';
import { clockText, CORE_LOCALE } from '../../shared/format';

export interface TrayActions {
  open(): void;
  /** Settings → Alert channels (a channel is not reached). */
  openChannels(): void;
  pause(forMs: number | 'tomorrow' | null): void;
  setStartAtLogin(on: boolean): void;
  startAtLogin(): boolean;
  quit(): void;
}

/**
 * The tray renders a TrayState and holds no logic: an icon per state (template images on
 * macOS), a title on macOS and a tooltip elsewhere, and the menu.
 */
export class TrayManager {
  private tray: Tray | undefined;
  private last: TrayState | undefined;

  constructor(
    private readonly iconDir: string,
    private readonly actions: TrayActions,
    private readonly platform: NodeJS.Platform = process.platform,
  ) {}

  iconPath(level: TrayState['level']): string {
    return join(this.iconDir, `${level}${this.platform === 'darwin' ? 'Template' : ''}.png`);
  }

  render(state: TrayState): void {
    const image = nativeImage.createFromPath(this.iconPath(state.level));
    if (this.platform === 'darwin') image.setTemplateImage(true);
    if (!this.tray) {
      this.tray = new Tray(image);
      this.tray.on('click', () => this.actions.open());
    } else if (this.last?.level !== state.level) {
      this.tray.setImage(image);
    }
    if (this.platform === 'darwin')
      this.tray.setTitle(state.worstRatio === null ? '' : (state.tooltip.split(' · ').pop() ?? ''));
    else this.tray.setToolTip(state.tooltip);
    this.tray.setContextMenu(Menu.buildFromTemplate(this.menu(state)));
    this.last = state;
  }

  menu(state: TrayState): MenuItemConstructorOptions[] {
    const paused = state.alertsPausedUntil !== null;
    return [
      { label: 'Open Tidewatch', click: () => this.actions.open() },
      // What the changed icon means, each a way to the channel's settings.
      ...state.unreached.map((line): MenuItemConstructorOptions => ({
        label: line,
        click: () => this.actions.openChannels(),
      })),
      { type: 'separator' },
      {
        label: paused
          ? `Desktop alerts paused until ${clockText(state.alertsPausedUntil!, CORE_LOCALE, false)}`
          : 'Pause desktop alerts',
        submenu: [
          { label: 'For 1 hour', click: () => this.actions.pause(3_600_000) },
          { label: 'Until tomorrow', click: () => this.actions.pause('tomorrow') },
          { label: 'Resume desktop alerts', enabled: paused, click: () => this.actions.pause(null) },
          { type: 'separator' },
          // What the pause covers: this machine's notifications; the phone, chat and e-mail channels keep sending.
          { label: 'Phone, chat and e-mail channels keep sending', enabled: false },
        ],
      },
      {
        label: 'Start at login',
        type: 'checkbox',
        checked: this.actions.startAtLogin(),
        click: (item) => this.actions.setStartAtLogin(item.checked),
      },
      { type: 'separator' },
      { label: 'Quit Tidewatch', click: () => this.actions.quit() },
    ];
  }

  destroy(): void {
    this.tray?.destroy();
    this.tray = undefined;
  }
}
