import { contextBridge } from 'electron';

/**
 * The preload exposes only the Tidewatch contract (src/shared/contract.ts, arriving with the
 * core issue). Until then it exposes the version of the bridge, so the renderer can tell it runs
 * inside the desktop shell.
 */
contextBridge.exposeInMainWorld('tidewatchShell', { bridgeVersion: 1 });
