import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { app, protocol } from 'electron';
import { registerAppScheme } from './shell/app-protocol';
import { startApplication } from './shell/application';

/**
 * The Electron shell's table of contents: the app:// scheme must be registered before ready,
 * one instance only (a second launch focuses the first), then the application starts.
 * See src/main/shell/application.ts for what it is made of.
 */
registerAppScheme(protocol);

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  void app.whenReady().then(() =>
    startApplication({ mainDir: dirname(fileURLToPath(import.meta.url)) }).catch((err: unknown) => {
      console.error('tidewatch: could not start', err);
      app.exit(1);
    }),
  );
}
