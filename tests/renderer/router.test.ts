// @vitest-environment happy-dom
import { mount } from '@vue/test-utils';
import { describe, expect, it, vi } from 'vitest';
import { createApp, defineComponent, h, nextTick } from 'vue';
import { pathOf, useCurrentView, useLinks, useParam } from '../../src/renderer/src/router';
import { createAppRouter } from '../../src/renderer/src/routes';
import { routerAt } from './support/router';

describe('the routes', () => {
  it('gives each view and the manager page its address, with one parameter at most', async () => {
    const cases: Array<[string, string, Record<string, string>]> = [
      ['/portfolio', 'portfolio', {}],
      ['/wallet', 'wallet', { owner: '' }],
      ['/wallet/0xabc', 'wallet', { owner: '0xabc' }],
      ['/collection/0x2%3A%3Akiosk%3A%3AKiosk', 'collection', { type: '0x2::kiosk::Kiosk' }],
      ['/collection/0x2::kiosk::Kiosk', 'collection', { type: '0x2::kiosk::Kiosk' }],
      ['/markets', 'markets', { pool: '' }],
      ['/markets/SUI_USDC', 'markets', { pool: 'SUI_USDC' }],
      ['/margin', 'margin', {}],
      ['/events', 'events', {}],
      ['/alerts/12', 'alerts', { alertId: '12' }],
      ['/settings', 'settings', {}],
      ['/manager/0x61d3', 'manager', { managerId: '0x61d3' }],
    ];
    for (const [path, name, params] of cases) {
      const route = (await routerAt(path)).currentRoute.value;
      expect([path, route.name, route.params]).toEqual([path, name, params]);
    }
  });

  it('shows the Portfolio for any other address (the empty one too), and keeps the address as it is', async () => {
    for (const path of ['/', '/nope', '/Markets', '/settings/extra', '/markets/SUI_USDC/extra']) {
      const route = (await routerAt(path)).currentRoute.value;
      expect([route.fullPath, route.name, route.meta.view]).toEqual([path, 'not-found', 'portfolio']);
    }
  });
});

/** Links, the current view and the pool of the address, as a view reads them. */
const Probe = defineComponent({
  setup() {
    const { hrefOf, navigate } = useLinks();
    const view = useCurrentView();
    const pool = useParam('pool');
    return () =>
      h('div', [
        h('a', { id: 'manager', href: hrefOf('manager', '0xab') }),
        h('a', { id: 'collection', href: hrefOf('collection', '0x2::coin::Coin<0x2::sui::SUI>') }),
        h('a', { id: 'alerts', href: hrefOf('alerts') }),
        h('p', { id: 'view' }, String(view.value)),
        h('p', { id: 'pool' }, String(pool.value)),
        h('button', { onClick: () => navigate('markets', 'DEEP_USDC') }),
      ]);
  },
});

describe('links and the current view', () => {
  it('writes the addresses as ever (`#/<view>/<param>`, the parameter URI-encoded), and moves to one', async () => {
    const router = await routerAt('/nope');
    const w = mount(Probe, { global: { plugins: [router] } });
    expect(w.get('#manager').attributes('href')).toBe('#/manager/0xab');
    expect(w.get('#collection').attributes('href')).toBe(
      `#/collection/${encodeURIComponent('0x2::coin::Coin<0x2::sui::SUI>')}`,
    );
    expect(w.get('#alerts').attributes('href')).toBe('#/alerts');
    expect([w.get('#view').text(), w.get('#pool').text()]).toEqual(['portfolio', 'undefined']);
    await w.get('button').trigger('click');
    // The Markets view loads first: the move is done then.
    await vi.waitFor(() => expect(router.currentRoute.value.fullPath).toBe('/markets/DEEP_USDC'));
    await nextTick();
    expect([w.get('#view').text(), w.get('#pool').text()]).toEqual(['markets', 'DEEP_USDC']);
    w.unmount();
  });

  it('gives the same links on the hash history of the app', () => {
    const router = createAppRouter();
    expect(router.resolve(pathOf('manager', '0xab')).href).toBe('#/manager/0xab');
    expect(router.resolve(pathOf('collection', 'a::b')).href).toBe('#/collection/a%3A%3Ab');
    router.options.history.destroy();
  });
});

describe('the address changed while the first view loads', () => {
  it('is followed (the tray opening the window on an alert), not overwritten by the first view', async () => {
    window.history.replaceState(null, '', '#/settings');
    const router = createAppRouter();
    const app = createApp(Probe).use(router);
    app.mount(document.createElement('div'));
    // The first view (Settings) is still loading when the address changes, as `location.hash = …` does it.
    window.history.pushState(null, '', '#/alerts/3');
    window.dispatchEvent(new PopStateEvent('popstate', { state: null }));
    await router.isReady();
    await new Promise((r) => setTimeout(r, 0));
    expect(router.currentRoute.value.fullPath).toBe('/alerts/3');
    expect(window.location.hash).toBe('#/alerts/3');
    app.unmount();
    router.options.history.destroy();
    window.history.replaceState(null, '', '#');
  });
});
