import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { AlertRecord, RiskReading, StatusSnapshot } from '../../src/shared/contract';
import type { PositionLevel } from '../../src/shared/risk-model';
import { trayStateOf } from '../../src/main/core/tray-state';
import { tempDir } from '../support/monitor';

// Electron is mocked: these tests run where no Electron binary exists.
const electron = vi.hoisted(() => {
  const shown: Array<{ title: string; body: string; urgency: string; click?: () => void }> = [];
  class Notification {
    static isSupported = () => true;
    private handlers: Record<string, () => void> = {};
    constructor(readonly opts: { title: string; body: string; urgency: string }) {}
    on(ev: string, f: () => void) {
      this.handlers[ev] = f;
      return this;
    }
    show() {
      shown.push({ ...this.opts, click: this.handlers['click'] });
    }
  }
  const trays: Array<{ image: string; tooltip?: string; title?: string; menu?: any[] }> = [];
  class Tray {
    state: { image: string; tooltip?: string; title?: string; menu?: any[] };
    constructor(image: { path: string }) {
      this.state = { image: image.path };
      trays.push(this.state);
    }
    on() {}
    setImage(image: { path: string }) {
      this.state.image = image.path;
    }
    setToolTip(t: string) {
      this.state.tooltip = t;
    }
    setTitle(t: string) {
      this.state.title = t;
    }
    setContextMenu(m: { template: any[] }) {
      this.state.menu = m.template;
    }
    destroy() {}
  }
  return {
    shown,
    trays,
    module: {
      Notification,
      Tray,
      Menu: { buildFromTemplate: (template: any[]) => ({ template }) },
      nativeImage: { createFromPath: (path: string) => ({ path, setTemplateImage: () => {} }) },
    },
  };
});
vi.mock('electron', () => electron.module);

const { AlertNotifier, tomorrowAt0 } = await import('../../src/main/shell/alert-notifier');
const { TrayManager } = await import('../../src/main/shell/tray-manager');
const { IpcBridge } = await import('../../src/main/shell/ipc-bridge');
const { isTrustedSender } = await import('../../src/main/shell/sender-check');
const { SafeStorageSecretStore, STREAM_KEYS_FILE } = await import('../../src/main/shell/secret-store');
const { resolveAppPath } = await import('../../src/main/shell/app-protocol');

/** A reading with the level the valuation gave it (by the 1.5 / 1.25 thresholds unless said). */
const reading = (id: string, ratio: number | null, level?: PositionLevel): RiskReading & { level: PositionLevel } => ({
  manager_id: id,
  owner: '0xo',
  ts_ms: 1,
  risk_ratio: ratio,
  debt_usd: 1,
  assets_usd: 1,
  distance_pct: -5,
  level: level ?? (ratio === null || ratio >= 1.5 ? 'ok' : ratio >= 1.25 ? 'warning' : 'critical'),
});
const status = (patch: Partial<StatusSnapshot> = {}): StatusSnapshot => ({
  network: 'demo',
  online: true,
  offlineSince: null,
  streams: [],
  storeNotice: null,
  storeError: null,
  historyGaps: [],
  internalError: null,
  credits: null,
  reads: null,
  ...patch,
});
const alert = (patch: Partial<AlertRecord> = {}): AlertRecord => ({
  id: 1,
  rule: 'liquidation',
  level: 'critical',
  manager_id: '0xm',
  owner: '0xo',
  event_id: 'e',
  title: 'Liquidated',
  message: 'gone',
  created_at: 1,
  acknowledged_at: null,
  snoozed_until: null,
  ...patch,
});

describe('tray state (computed in core)', () => {
  const base = { privacy: false, alertsPausedUntil: null, now: Date.UTC(2026, 10, 22, 12) };
  it('goes ok -> warning -> critical with the worst watched loan, and says so in the tooltip', () => {
    expect(trayStateOf({ ...base, status: status(), readings: [] })).toMatchObject({
      level: 'ok',
      watchedLoans: 0,
      tooltip: 'Tidewatch · 0 watched loans',
    });
    expect(trayStateOf({ ...base, status: status(), readings: [reading('a', 2), reading('b', 1.4)] })).toMatchObject({
      level: 'warning',
      worstRatio: 1.4,
      tooltip: 'Tidewatch · 2 watched loans · worst risk ratio 1.400',
    });
    expect(trayStateOf({ ...base, status: status(), readings: [reading('a', 1.2), reading('b', null)] }).level).toBe(
      'critical',
    );
  });
  it('is offline when the service is unreachable or the key was rejected, and masks the ratio in privacy mode', () => {
    const off = trayStateOf({
      ...base,
      status: status({ online: false, offlineSince: base.now - 60_000 }),
      readings: [reading('a', 1.2)],
    });
    expect(off.level).toBe('offline');
    expect(off.tooltip).toMatch(/^Tidewatch · offline since \d\d:\d\d · 1 watched loan · worst risk ratio 1.200$/);
    const auth = trayStateOf({
      ...base,
      status: status({
        streams: [
          {
            id: 'margin',
            state: 'stopped-auth',
            lastEventAt: null,
            lastByteAt: null,
            nextTryAt: null,
            reconnects: 0,
            events: 0,
            lastError: '401',
          },
        ],
      }),
      readings: [],
    });
    expect(auth).toMatchObject({ level: 'offline' });
    expect(auth.tooltip).toContain('API key rejected');
    const priv = trayStateOf({ ...base, privacy: true, status: status(), readings: [reading('a', 1.3)] });
    expect(priv.tooltip).toContain('worst risk ratio •••');
    expect(priv.tooltip).not.toContain('1.3');
  });
  it('judges by the level the alerts use (a position near its liquidation price), not the lowest ratio, and shows a pause', () => {
    const s = trayStateOf({
      ...base,
      status: status(),
      readings: [reading('a', 2, 'critical'), reading('b', 1.4)],
      alertsPausedUntil: base.now + 3_600_000,
    });
    expect(s.level).toBe('critical');
    expect(s.worstRatio).toBe(2);
    expect(s.tooltip).toMatch(/alerts paused until \d\d:\d\d$/);
  });
});

describe('TrayManager', () => {
  beforeEach(() => electron.trays.splice(0));
  const actions = { open: vi.fn(), pause: vi.fn(), setStartAtLogin: vi.fn(), startAtLogin: () => true, quit: vi.fn() };
  const state = (level: 'ok' | 'warning' | 'critical' | 'offline', paused: number | null = null) => ({
    level,
    watchedLoans: 2,
    worstRatio: 1.3,
    tooltip: `Tidewatch · ${level}`,
    alertsPausedUntil: paused,
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

  it('uses template images and a title on macOS, and offers Resume while paused', () => {
    const tm = new TrayManager('/icons', actions, 'darwin');
    tm.render(state('warning', Date.now() + 1000));
    const tray = electron.trays[0]!;
    expect(tray.image).toBe(join('/icons', 'warningTemplate.png'));
    expect(tray.title).toBe('warning');
    expect(tray.tooltip).toBeUndefined();
    expect(tray.menu![2].label).toMatch(/^Desktop alerts paused until/);
    expect((tray.menu![2].submenu as any[])[2].enabled).toBe(true);
  });

  it('has every icon it can show on disk', () => {
    for (const level of ['ok', 'warning', 'critical', 'offline'] as const) {
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

describe('AlertNotifier', () => {
  beforeEach(() => electron.shown.splice(0));

  it('shows critical and warning alerts, and a click opens the window on the alert', () => {
    const onClick = vi.fn();
    const n = new AlertNotifier(onClick);
    n.notify([
      alert(),
      alert({ id: 2, rule: 'risk-threshold', level: 'warning', title: 'Warning' }),
      alert({ id: 3, level: 'info' }),
    ]);
    expect(electron.shown.map((s) => [s.title, s.urgency])).toEqual([
      ['Liquidated', 'critical'],
      ['Warning', 'normal'],
    ]);
    electron.shown[0]!.click!();
    expect(onClick).toHaveBeenCalledWith(expect.objectContaining({ id: 1 }));
  });

  it("masks the amounts of the user's own positions in privacy mode, not other traders'", () => {
    let privacy = true;
    const n = new AlertNotifier(
      () => {},
      Date.now,
      () => privacy,
    );
    const message =
      'Margin manager 0x5dc2…e25f (WAL_USDC) fell below the critical threshold (1.25). Debt 791.5 USDC ($791.50). WAL at $0.1925 (-10.8 %) liquidates it.';
    n.notify([
      alert({ message }),
      alert({
        id: 2,
        rule: 'large-liquidation',
        level: 'warning',
        owner: null,
        message: 'liquidated for 1,200 SUI (about $3,600)',
      }),
    ]);
    expect(electron.shown[0]!.body).toBe(
      'Margin manager 0x5dc2…e25f (WAL_USDC) fell below the critical threshold (1.25). Debt ••••• USDC ($•••••). WAL at $••••• (-10.8 %) liquidates it.',
    );
    expect(electron.shown[1]!.body).toBe('liquidated for 1,200 SUI (about $3,600)');
    privacy = false;
    n.notify([alert({ id: 3, message })]);
    expect(electron.shown[2]!.body).toBe(message);
  });

  it('respects a pause (1 hour, until tomorrow) and resumes', () => {
    let now = Date.UTC(2026, 10, 22, 12);
    const n = new AlertNotifier(
      () => {},
      () => now,
    );
    n.pause(3_600_000);
    expect(n.notify([alert()])).toHaveLength(0);
    now += 3_600_001;
    expect(n.notify([alert()])).toHaveLength(1);
    n.pause('tomorrow');
    expect(n.pausedUntil).toBe(tomorrowAt0(now));
    expect(n.notify([alert()])).toHaveLength(0);
    n.pause(null);
    expect(n.notify([alert({ rule: 'stream-auth', level: 'warning', title: 'API key rejected' })])).toHaveLength(1);
  });
});

describe('IPC bridge', () => {
  const api = {
    invoke: vi.fn(async (method: string) => ({ method })),
    subscribe: vi.fn(() => () => {}),
  };
  const bridge = new IpcBridge(api as any, () => ['app://tidewatch']);
  const own = { url: 'app://tidewatch/index.html#/alerts', parent: null };
  const ev = (frame: any, id = 1) =>
    ({ senderFrame: frame, sender: { id, send: vi.fn(), once: vi.fn(), isDestroyed: () => false } }) as any;

  it('accepts only the app main frame', () => {
    expect(isTrustedSender(own, ['app://tidewatch'])).toBe(true);
    expect(isTrustedSender({ url: 'app://tidewatch/', parent: {} }, ['app://tidewatch'])).toBe(false);
    expect(isTrustedSender({ url: 'https://evil.example/', parent: null }, ['app://tidewatch'])).toBe(false);
    expect(isTrustedSender({ url: 'file:///etc/passwd', parent: null }, ['app://tidewatch'])).toBe(false);
    expect(
      isTrustedSender({ url: 'http://localhost:5173/', parent: null }, ['app://tidewatch', 'http://localhost:5173']),
    ).toBe(true);
    expect(isTrustedSender(null, ['app://tidewatch'])).toBe(false);
  });

  it('refuses foreign senders and unknown methods, and validates arguments through the contract', async () => {
    expect(await bridge.invoke(ev({ url: 'https://evil.example/', parent: null }), 'settings', {})).toMatchObject({
      ok: false,
      error: { kind: 'forbidden' },
    });
    expect(await bridge.invoke(ev(own), 'eval', {})).toMatchObject({ ok: false, error: { kind: 'bad-argument' } });
    expect(await bridge.invoke(ev(own), 42, {})).toMatchObject({ ok: false, error: { kind: 'bad-argument' } });
    expect(await bridge.invoke(ev(own), 'pools', {})).toEqual({ ok: true, result: { method: 'pools' } });
    expect(api.invoke).toHaveBeenCalledTimes(1);
  });

  it('subscribes a frame once per topic, only to known topics, and pushes to it', () => {
    const e = ev(own, 7);
    bridge.subscribe(e, 'alerts');
    bridge.subscribe(e, 'alerts');
    bridge.subscribe(e, 'rm -rf');
    bridge.subscribe(ev({ url: 'https://evil.example/', parent: null }, 8), 'alerts');
    expect(api.subscribe).toHaveBeenCalledTimes(1);
    const push = (api.subscribe.mock.calls[0] as unknown as [string, (p: unknown) => void])[1];
    push([{ id: 1 }]);
    expect(e.sender.send).toHaveBeenCalledWith('tidewatch:push', 'alerts', [{ id: 1 }]);
  });

  it('cancels a call when its own frame asks, and only then', async () => {
    let seen: AbortSignal | undefined;
    const slow = {
      invoke: vi.fn((_m: string, _a: unknown, o?: { signal?: AbortSignal }) => {
        seen = o?.signal;
        return new Promise((resolve, reject) =>
          o?.signal?.addEventListener('abort', () => reject(new Error('cancelled'))),
        );
      }),
      subscribe: vi.fn(() => () => {}),
    };
    const b = new IpcBridge(slow as any, () => ['app://tidewatch']);
    const answer = b.invoke(ev(own, 3), 'trades', {}, 41);
    b.cancel(ev({ url: 'https://evil.example/', parent: null }, 3), 41);
    b.cancel(ev(own, 4), 41);
    expect(seen?.aborted).toBe(false);
    b.cancel(ev(own, 3), 41);
    expect(seen?.aborted).toBe(true);
    expect(await answer).toMatchObject({ ok: false, error: { kind: 'cancelled' } });
  });
});

describe('the API key at rest', () => {
  // A reversible stand-in for the OS encryption.
  const safe = (backend = 'gnome_libsecret') =>
    ({
      encryptStringAsync: async (s: string) => Buffer.from(s, 'utf8').map((b) => b ^ 0x5a),
      decryptStringAsync: async (b: Buffer) => ({
        result: Buffer.from(b.map((x) => x ^ 0x5a)).toString('utf8'),
        shouldReEncrypt: false,
      }),
      getSelectedStorageBackend: () => backend,
    }) as any;

  it('round-trips through safeStorage into the user data folder, never in clear text', async () => {
    const d = tempDir();
    const a = await SafeStorageSecretStore.open(safe(), d.dir, 'linux');
    expect(a.get()).toBeNull();
    a.set('sk-live-SECRET-123');
    await a.flushed();
    const onDisk = readFileSync(join(d.dir, 'api-key.bin'));
    expect(onDisk.toString('utf8')).not.toContain('SECRET');
    const b = await SafeStorageSecretStore.open(safe(), d.dir, 'linux');
    expect(b.get()).toBe('sk-live-SECRET-123');
    expect(b.protection()).toBe('os-keyring');
    b.set(null);
    await b.flushed();
    expect((await SafeStorageSecretStore.open(safe(), d.dir, 'linux')).get()).toBeNull();
    d.remove();
  });

  it('keeps the stream keys in a file of their own, encrypted the same way, beside the API key', async () => {
    const d = tempDir();
    const file = { name: STREAM_KEYS_FILE, what: 'stream keys' };
    const api = await SafeStorageSecretStore.open(safe(), d.dir, 'linux');
    const streams = await SafeStorageSecretStore.open(safe(), d.dir, 'linux', () => {}, file);
    api.set('sk-live-SECRET-123');
    streams.set(JSON.stringify({ all: 'STREAM-SECRET-9', pools: { SUI_USDC: 'POOL-SECRET-7' } }));
    await Promise.all([api.flushed(), streams.flushed()]);
    const onDisk = readFileSync(join(d.dir, STREAM_KEYS_FILE)).toString('utf8');
    expect(onDisk).not.toMatch(/SECRET/);
    expect((await SafeStorageSecretStore.open(safe(), d.dir, 'linux')).get()).toBe('sk-live-SECRET-123');
    expect(JSON.parse((await SafeStorageSecretStore.open(safe(), d.dir, 'linux', () => {}, file)).get()!)).toEqual({
      all: 'STREAM-SECRET-9',
      pools: { SUI_USDC: 'POOL-SECRET-7' },
    });
    d.remove();
  });

  it('reports basic_text on Linux as not protected by a keyring', async () => {
    const d = tempDir();
    expect((await SafeStorageSecretStore.open(safe('basic_text'), d.dir, 'linux')).protection()).toBe('plain-text');
    expect((await SafeStorageSecretStore.open(safe('basic_text'), d.dir, 'darwin')).protection()).toBe('os-keyring');
    d.remove();
  });
});

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

describe('permissions', async () => {
  const { permissionAllowed } = await import('../../src/main/shell/window-manager');
  it('are denied but clipboard writes from our own page', () => {
    const ours = ['app://tidewatch'];
    expect(permissionAllowed('clipboard-sanitized-write', 'app://tidewatch/index.html', ours)).toBe(true);
    for (const p of ['media', 'geolocation', 'notifications', 'openExternal', 'clipboard-read'])
      expect(permissionAllowed(p, 'app://tidewatch/', ours)).toBe(false);
    expect(permissionAllowed('clipboard-sanitized-write', 'https://evil.example/', ours)).toBe(false);
  });
});

describe('window bounds', async () => {
  const { loadWindowState, saveWindowState } = await import('../../src/main/shell/window-state');
  it('are restored when they still overlap a display, and dropped when that display is gone', () => {
    const d = tempDir();
    const file = join(d.dir, 'w.json');
    saveWindowState(file, { bounds: { x: 100, y: 80, width: 1200, height: 800 }, maximized: false });
    expect(loadWindowState(file, [{ x: 0, y: 0, width: 1920, height: 1080 }]).bounds).toEqual({
      x: 100,
      y: 80,
      width: 1200,
      height: 800,
    });
    saveWindowState(file, { bounds: { x: 3000, y: 80, width: 1200, height: 800 }, maximized: true });
    expect(loadWindowState(file, [{ x: 0, y: 0, width: 1920, height: 1080 }])).toEqual({ maximized: true });
    expect(loadWindowState(join(d.dir, 'missing.json'), [])).toEqual({});
    d.remove();
  });
});

describe('the desktop command line', async () => {
  const { demoSpeed } = await import('../../src/main/shell/application');
  it('takes --speed like serve and sim, as --speed=N or --speed N', () => {
    expect(demoSpeed(['electron', 'out/main/index.js', '--speed=600'])).toBe(600);
    expect(demoSpeed(['electron', '--speed', '60', '--hidden'])).toBe(60);
    expect(demoSpeed(['electron'])).toBe(1);
    expect(demoSpeed(['electron', '--speed=fast'])).toBe(1);
    expect(demoSpeed(['electron', '--speed=-3'])).toBe(1);
  });
});

describe('navigation guards', async () => {
  const { guardNavigation, isOwnPage, mayOpenExternally, originOf } = await import('../../src/main/shell/navigation');
  const { permissionAllowed } = await import('../../src/main/shell/window-manager');
  const ours = ['app://tidewatch', 'http://localhost:5173'];

  it('compare parsed origins, never prefixes', () => {
    expect(originOf('app://tidewatch/index.html#/alerts')).toBe('app://tidewatch');
    expect(isOwnPage('app://tidewatch/index.html', ours)).toBe(true);
    expect(isOwnPage('http://localhost:5173/#/margin', ours)).toBe(true);
    for (const evil of [
      'http://localhost:5173@evil.example/',
      'http://localhost:51730/',
      'app://tidewatch.evil.example/',
      'app://tidewatch@evil/',
      'https://tidewatch/',
      'javascript:alert(1)',
      'file:///etc/passwd',
      'not a url',
    ]) {
      expect(isOwnPage(evil, ours), evil).toBe(false);
      expect(permissionAllowed('clipboard-sanitized-write', evil, ours), evil).toBe(false);
      expect(isTrustedSender({ url: evil, parent: null }, ours), evil).toBe(false);
    }
  });

  it('open only allowed https hosts in the system browser', () => {
    expect(mayOpenExternally('https://suiscan.xyz/mainnet/tx/abc')).toBe(true);
    expect(mayOpenExternally('https://docs.sui.io/')).toBe(true);
    for (const url of [
      'http://suiscan.xyz/',
      'https://evil.example/',
      'https://suiscan.xyz.evil.example/',
      'https://user:pw@suiscan.xyz/',
      'javascript:alert(1)',
      'file:///etc/passwd',
      'smb://host/share',
    ]) {
      expect(mayOpenExternally(url), url).toBe(false);
    }
  });

  it('stop navigations, redirects and frame navigations elsewhere, deny new windows and webviews', () => {
    const handlers = new Map<string, (...a: any[]) => void>();
    let openHandler: ((d: { url: string }) => { action: 'deny' }) | undefined;
    const wc = {
      on: (event: string, l: (...a: any[]) => void) => handlers.set(event, l),
      setWindowOpenHandler: (h: any) => (openHandler = h),
    };
    const opened: string[] = [];
    const logged: string[] = [];
    guardNavigation(
      wc as never,
      ours,
      (u) => opened.push(u),
      (l) => logged.push(l),
    );
    const event = () => ({
      prevented: false,
      preventDefault() {
        this.prevented = true;
      },
    });
    const nav = (name: string, url: string): boolean => {
      const e = { ...event(), url };
      if (name === 'will-frame-navigate') handlers.get(name)!(e);
      else handlers.get(name)!(e, url);
      return e.prevented;
    };
    expect(nav('will-navigate', 'app://tidewatch/index.html#/portfolio')).toBe(false);
    expect(nav('will-navigate', 'http://localhost:5173@evil.example/')).toBe(true);
    expect(nav('will-navigate', 'https://suiscan.xyz/tx/1')).toBe(true);
    expect(opened).toEqual(['https://suiscan.xyz/tx/1']);
    expect(nav('will-redirect', 'https://evil.example/')).toBe(true);
    expect(nav('will-redirect', 'app://tidewatch/index.html')).toBe(false);
    expect(nav('will-frame-navigate', 'https://evil.example/frame')).toBe(true);
    const webview = event();
    handlers.get('will-attach-webview')!(webview);
    expect(webview.prevented).toBe(true);
    expect(openHandler!({ url: 'https://evil.example/' })).toEqual({ action: 'deny' });
    expect(openHandler!({ url: 'https://docs.sui.io/x' })).toEqual({ action: 'deny' });
    expect(opened).toEqual(['https://suiscan.xyz/tx/1', 'https://docs.sui.io/x']);
    expect(logged.join('\n')).toContain('blocked navigation to http://evil.example');
  });
});

describe('one Content-Security-Policy', () => {
  it('has no unsafe-inline, and the page meta tag matches what the shells send', async () => {
    const { CSP } = await import('../../src/shared/csp');
    expect(CSP).not.toContain('unsafe');
    const html = readFileSync(join(__dirname, '../../src/renderer/index.html'), 'utf8');
    const meta = /content="([^"]+)"/.exec(html)![1]!;
    // The meta tag cannot carry frame-ancestors (headers only); everything else is the same.
    expect(meta).toBe(CSP.replace(" frame-ancestors 'none';", ''));
  });
});

describe('Electron fuses', () => {
  it('are flipped at package time (electron-builder.yml electronFuses)', () => {
    const yml = readFileSync(join(__dirname, '../../electron-builder.yml'), 'utf8');
    const fuses = Object.fromEntries(
      [...yml.matchAll(/^ {2}(\w+): (true|false)$/gm)].map((m) => [m[1], m[2] === 'true']),
    );
    expect(fuses).toMatchObject({
      runAsNode: false,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableCookieEncryption: true,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
      grantFileProtocolExtraPrivileges: false,
    });
  });
});
