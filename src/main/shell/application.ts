import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { app, ipcMain, net, powerMonitor, protocol, safeStorage, session } from 'electron';
import type { StatusSnapshot } from '../../shared/contract';
import { startSim, type RunningSim } from '../../sim';
import { Monitor } from '../core/monitor';
import { installSafetyNet } from '../core/safety-net';
import { trayStateOf } from '../core/tray-state';
import { AlertNotifier } from './alert-notifier';
import { CSP } from '../../shared/csp';
import { APP_ORIGIN, serveRenderer } from './app-protocol';
import { IpcBridge } from './ipc-bridge';
import { NOTIFY_CHANNELS_FILE, SafeStorageSecretStore, STREAM_KEYS_FILE } from './secret-store';
import { TrayManager } from './tray-manager';
import { lockDownSession, WindowManager } from './window-manager';

export interface ShellPaths {
  /** out/main of the build (this file's folder once bundled). */
  mainDir: string;
}

/**
 * The desktop shell, composed in one place (rotki's application.ts): the Demo network, the
 * monitor, IPC, the window, the tray and notifications. It reads like a table of contents;
 * each part is its own class.
 */
export async function startApplication(paths: ShellPaths): Promise<void> {
  const log = (line: string): void => console.log(`tidewatch: ${line}`);
  const hidden = process.argv.includes('--hidden');
  const userData = app.getPath('userData');
  if (process.platform === 'win32') app.setAppUserModelId('app.tidewatch.desktop');

  // 1. Secrets: the key is decrypted here, in main, and never leaves it.
  const secrets = await SafeStorageSecretStore.open(safeStorage, userData, process.platform, log);
  const streamSecrets = await SafeStorageSecretStore.open(safeStorage, userData, process.platform, log, {
    name: STREAM_KEYS_FILE,
    what: 'stream keys',
  });
  const notifySecrets = await SafeStorageSecretStore.open(safeStorage, userData, process.platform, log, {
    name: NOTIFY_CHANNELS_FILE,
    what: 'alert channels',
  });

  // 2. The Demo network (the default network), in this process on a random loopback port.
  const demoKey = randomBytes(12).toString('hex');
  // `--speed=N` (the same option as `serve` and `sim`) makes the Demo network N times busier.
  const speed = demoSpeed(process.argv);
  // Gradual: it listens at once and builds its history in slices, so the window and the cached
  // views do not wait for it (its requests wait for the part of the history they need).
  const sim: RunningSim = await startSim({ apiKeys: [demoKey], port: 0, host: '127.0.0.1', speed, gradual: true });

  // 3. The monitor: store, streams, risk, alerts.
  const monitor = new Monitor({
    dataDir: join(userData, 'data'),
    demo: { baseUrl: sim.url, apiKey: demoKey, speed, hints: () => (sim.world.built ? sim.world.owners() : []) },
    secrets,
    streamSecrets,
    notifySecrets,
    log,
  }).start();
  // The last resort: an error nobody handled is logged and shown in the status; the app lives on.
  installSafetyNet({ log: (line) => log(monitor.redact(line)), onError: (err) => monitor.noteInternalError(err) });

  // 4. The renderer over app:// (dev server in development), locked down.
  const devUrl = !app.isPackaged ? process.env['ELECTRON_RENDERER_URL'] : undefined;
  const allowedOrigins = [APP_ORIGIN, ...(devUrl ? [new URL(devUrl).origin] : [])];
  serveRenderer(protocol, net, join(paths.mainDir, '../renderer'));
  lockDownSession(session.defaultSession, allowedOrigins);
  if (devUrl) {
    session.defaultSession.webRequest.onHeadersReceived((details, callback) => {
      callback({
        responseHeaders: {
          ...details.responseHeaders,
          'Content-Security-Policy': [
            CSP.replace("script-src 'self'", "script-src 'self' 'unsafe-inline'").replace(
              "style-src 'self'",
              "style-src 'self' 'unsafe-inline'",
            ),
          ],
        },
      });
    });
  }
  const applyLoginItem = (on: boolean): void => {
    if (app.getLoginItemSettings().openAtLogin !== on)
      app.setLoginItemSettings({ openAtLogin: on, args: ['--hidden'] });
  };
  applyLoginItem(monitor.effective().startAtLogin);
  new IpcBridge(
    monitor,
    () => allowedOrigins,
    (line) => log(monitor.redact(line)),
    (method, result) => {
      if (method === 'updateSettings') applyLoginItem((result as { startAtLogin: boolean }).startAtLogin);
    },
  ).register(ipcMain);
  const resources = app.isPackaged ? join(process.resourcesPath, 'resources') : join(app.getAppPath(), 'resources');
  const windows = new WindowManager({
    preload: join(paths.mainDir, '../preload/index.cjs'),
    entryUrl: devUrl ?? `${APP_ORIGIN}/index.html`,
    userDataDir: userData,
    allowedOrigins,
    log,
    icon: join(resources, 'icon.png'),
  });
  windows.create(!hidden);

  // 5. Notifications and the tray, both fed by the core.
  // A click opens the window on that alert (the key-rejected alert leads to Settings, where the key is entered),
  // or on the Alerts page for a burst of several.
  const notifier = new AlertNotifier(
    (alert) => windows.show(!alert ? '#/alerts' : alert.rule === 'stream-auth' ? '#/settings' : `#/alerts/${alert.id}`),
    Date.now,
    () => monitor.effective().privacyMode,
    (alert) => monitor.desktopCarries(alert),
  );
  let status: StatusSnapshot | undefined = monitor.status();
  const tray = new TrayManager(join(resources, 'tray'), {
    open: () => windows.show(),
    openChannels: () => windows.show('#/settings'),
    pause: (forMs) => {
      notifier.pause(forMs);
      renderTray();
    },
    setStartAtLogin: (on) => {
      applyLoginItem(on);
      void monitor.invoke('updateSettings', { startAtLogin: on });
    },
    startAtLogin: () => app.getLoginItemSettings().openAtLogin,
    quit: () => app.quit(),
  });
  const renderTray = (): void => {
    const s = monitor.effective();
    tray.render(
      trayStateOf({
        status,
        ...monitor.latestReadings(),
        privacy: s.privacyMode,
        alertsPausedUntil: notifier.pausedUntil,
        now: Date.now(),
      }),
    );
  };
  monitor.subscribe('status', (s) => {
    status = s;
    renderTray();
  });
  monitor.subscribe('risk', renderTray);
  monitor.subscribe('alerts', (alerts) => notifier.notify(alerts));
  renderTray();
  setInterval(renderTray, 60_000).unref();
  // Back from sleep: read the time asleep now, not after the stream's watchdog.
  powerMonitor.on('resume', () => monitor.resume());

  // 6. Lifecycle: a second launch focuses the window; closing hides; only Quit quits.
  app.on('second-instance', () => windows.show());
  app.on('activate', () => windows.show());
  app.on('window-all-closed', () => {
    // Stay in the tray.
  });
  let shuttingDown = false;
  app.on('before-quit', (e) => {
    windows.quitting = true;
    if (shuttingDown) return;
    shuttingDown = true;
    e.preventDefault();
    void (async () => {
      tray.destroy();
      await monitor.close();
      await sim.close();
      await secrets.flushed();
      await notifySecrets.flushed();
      app.exit(0);
    })();
  });
}

/** `--speed=N` or `--speed N` from the command line; 1 when absent or not a positive number. */
export function demoSpeed(argv: readonly string[]): number {
  const i = argv.findIndex((a) => a === '--speed' || a.startsWith('--speed='));
  if (i < 0) return 1;
  const text = argv[i]!.includes('=') ? argv[i]!.split('=')[1] : argv[i + 1];
  const n = Number(text);
  return Number.isFinite(n) && n > 0 ? n : 1;
}
