import { describe, expect, it, vi } from 'vitest';

// Electron is mocked: these tests run where no Electron binary exists.
vi.mock('electron', () => import('./electron-mock').then((m) => m.electron.module));

const { isTrustedSender } = await import('../../../src/main/shell/sender-check');

describe('navigation guards', async () => {
  const { guardNavigation, isOwnPage, mayOpenExternally, originOf } =
    await import('../../../src/main/shell/navigation');
  const { permissionAllowed } = await import('../../../src/main/shell/window-manager');
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
