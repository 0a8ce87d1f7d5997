import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ContractMethod, TidewatchApi } from '../../src/shared/contract';
import type { DesktopBridge } from '../../src/shared/wire';
import type { Monitor } from '../../src/main/core/monitor';
import { startWebShell, type WebShell } from '../../src/main/web/server';
import { IpcBridge } from '../../src/main/shell/ipc-bridge';
import { bridged } from '../../src/renderer/src/api';
import { webTransport } from '../../src/renderer/src/api/web-transport';
import { describeError } from '../../src/renderer/src/composables/useQuery';
import { monitorOn, tempDir } from '../support/monitor';
import { startTestSim, type TestSim } from '../support/sim';

/**
 * One failing call through both shells, from the page's side: the desktop's preload over IPC
 * (electron mocked: its ipcRenderer hands each message to main's IpcBridge as Electron would)
 * and the web transport over HTTP to the web shell. The page must say the same sentence with
 * the same advice whichever carried it.
 */
const main: { bridge?: IpcBridge } = {};
const appFrame = { url: 'app://tidewatch/index.html', parent: null };
const exposed: { api?: DesktopBridge } = {};
vi.mock('electron', () => ({
  contextBridge: { exposeInMainWorld: (_key: string, api: DesktopBridge) => (exposed.api = api) },
  ipcRenderer: {
    on: () => {},
    send: () => {},
    invoke: (_channel: string, method: unknown, args: unknown, callId: unknown) =>
      main.bridge!.invoke({ senderFrame: appFrame, sender: { id: 1 } } as never, method, args, callId),
  },
}));

let t: TestSim;
let m: Monitor;
let web: WebShell;
const dir = tempDir();
let desktop: TidewatchApi;
let browser: TidewatchApi;

beforeAll(async () => {
  t = await startTestSim({ historyDays: 0.1 });
  m = monitorOn(t, dir.dir).start();
  main.bridge = new IpcBridge(m, () => ['app://tidewatch']);
  await import('../../src/preload/index');
  desktop = bridged(exposed.api!);
  web = await startWebShell({ api: m, port: 0, rendererDir: '/nonexistent', log: () => {} });
  // The page's fetch carries the session cookie; a program shows the token in a header instead.
  const realFetch = globalThis.fetch;
  const fetchWithToken: typeof fetch = (input, init) =>
    realFetch(input, { ...init, headers: { ...(init?.headers as object), 'x-tidewatch-token': web.token } });
  vi.stubGlobal('fetch', fetchWithToken);
  browser = webTransport(`http://127.0.0.1:${web.port}`);
});
afterAll(async () => {
  vi.unstubAllGlobals();
  await web?.close();
  await m?.close();
  await t?.close();
  dir.remove();
});

async function failureOf(api: TidewatchApi, method: ContractMethod, args: unknown): Promise<unknown> {
  try {
    await api.invoke(method, args as never);
  } catch (err) {
    return err;
  }
  throw new Error(`${method} did not fail`);
}

describe('one failing call, both shells', () => {
  const cases: Array<[string, ContractMethod, unknown, RegExp]> = [
    ['a bad argument', 'addWatch', { owner: 'not-a-wallet' }, /^The owner is not an address/],
    ['a pool name that is not one', 'depth', { pool: 'http://169.254.169.254/' }, /^The pool is not a pool name/],
    ['an object the service does not know', 'nft', { objectId: `0x${'e'.repeat(64)}` }, /./],
  ];
  it.each(cases)(
    '%s: the same kind, sentence and advice in the desktop and the browser',
    async (_, method, args, says) => {
      const fromDesktop = await failureOf(desktop, method, args);
      const fromBrowser = await failureOf(browser, method, args);
      expect(fromDesktop).toMatchObject({ name: 'ApiError' });
      expect((fromDesktop as { kind: string }).kind).toBe((fromBrowser as { kind: string }).kind);
      const told = describeError(fromDesktop);
      expect(told).toEqual(describeError(fromBrowser));
      expect(told.message).toMatch(says);
      expect(told.advice).toBeTruthy();
      expect(`${told.message} ${told.advice}`).not.toMatch(/https?:\/\/127|at \w+ \(|\.ts:\d/);
    },
  );
});
