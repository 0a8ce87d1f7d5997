import { join } from 'node:path';
import { BrowserWindow, screen, shell, type Session } from 'electron';
import { guardNavigation, isOwnPage, type GuardedContents } from './navigation';
import { loadWindowState, saveWindowState } from './window-state';

export interface WindowOptions {
  preload: string;
  /** app://tidewatch/index.html, or the dev server's URL. */
  entryUrl: string;
  userDataDir: string;
  icon?: string;
  /** Our pages' origins (app://tidewatch, the dev server): navigation anywhere else is stopped. */
  allowedOrigins: readonly string[];
  log: (line: string) => void;
}

/**
 * The one window: secure web preferences, navigation and new windows locked down, bounds
 * remembered, closing hides to the tray (only Quit quits).
 */
export class WindowManager {
  private win: BrowserWindow | undefined;
  quitting = false;

  constructor(private readonly opts: WindowOptions) {}

  get window(): BrowserWindow | undefined {
    return this.win && !this.win.isDestroyed() ? this.win : undefined;
  }

  create(show: boolean): BrowserWindow {
    const stateFile = join(this.opts.userDataDir, 'window-state.json');
    const state = loadWindowState(
      stateFile,
      screen.getAllDisplays().map((d) => d.workArea),
    );
    const win = new BrowserWindow({
      width: 1280,
      height: 820,
      ...state.bounds,
      minWidth: 900,
      minHeight: 600,
      show: false,
      title: 'Tidewatch',
      icon: this.opts.icon,
      webPreferences: {
        preload: this.opts.preload,
        contextIsolation: true,
        sandbox: true,
        nodeIntegration: false,
        webviewTag: false,
        spellcheck: false,
      },
    });
    if (state.maximized) win.maximize();
    win.once('ready-to-show', () => {
      if (show) win.show();
    });
    win.on('close', (e) => {
      saveWindowState(stateFile, { bounds: win.getNormalBounds(), maximized: win.isMaximized() });
      if (!this.quitting) {
        e.preventDefault();
        win.hide();
      }
    });
    guardNavigation(
      win.webContents as unknown as GuardedContents,
      this.opts.allowedOrigins,
      (url) => void shell.openExternal(url),
      this.opts.log,
    );
    void win.loadURL(this.opts.entryUrl);
    this.win = win;
    return win;
  }

  /** Bring the window up (creating it if needed), optionally on a view such as `#/alerts`. */
  show(hash?: string): void {
    const win = this.window ?? this.create(true);
    if (win.isMinimized()) win.restore();
    win.show();
    win.focus();
    if (hash) void win.webContents.executeJavaScript(`window.location.hash = ${JSON.stringify(hash)}`);
  }
}

/** The only permission the page needs: writing ids to the clipboard (the copy buttons), from our own page. */
export function permissionAllowed(permission: string, origin: string, allowedOrigins: readonly string[]): boolean {
  return permission === 'clipboard-sanitized-write' && isOwnPage(origin, allowedOrigins);
}

/** Deny every permission (camera, notifications from the page, geolocation…) but clipboard writes from our page. */
export function lockDownSession(session: Session, allowedOrigins: readonly string[]): void {
  session.setPermissionRequestHandler((wc, permission, callback) =>
    callback(permissionAllowed(permission, wc.getURL(), allowedOrigins)),
  );
  session.setPermissionCheckHandler((_wc, permission, origin) => permissionAllowed(permission, origin, allowedOrigins));
}
