import { createRouter, createWebHashHistory, type Router, type RouteRecordRaw, type RouterHistory } from 'vue-router';
import PortfolioView from './features/portfolio/PortfolioView.vue';

/**
 * Every address of the app, `#/<view>` or `#/<view>/<param>` with the parameter URI-encoded (see
 * `pathOf` in ./router.ts). The Portfolio is where the app opens: it comes with the first script,
 * not a round trip after it; every other view is loaded on its first visit.
 */
export const routes: RouteRecordRaw[] = [
  { path: '/portfolio', name: 'portfolio', component: PortfolioView },
  { path: '/wallet/:owner?', name: 'wallet', component: () => import('./features/wallet/WalletView.vue') },
  {
    path: '/collection/:type?',
    name: 'collection',
    component: () => import('./features/collection/CollectionView.vue'),
  },
  { path: '/markets/:pool?', name: 'markets', component: () => import('./features/markets/MarketsView.vue') },
  { path: '/margin', name: 'margin', component: () => import('./features/margin/MarginView.vue') },
  { path: '/events', name: 'events', component: () => import('./features/events/EventsView.vue') },
  // `#/alerts/<id>` is where a notification's click lands: the Alerts page, on that alert.
  { path: '/alerts/:alertId?', name: 'alerts', component: () => import('./features/alerts/AlertsView.vue') },
  { path: '/settings', name: 'settings', component: () => import('./features/settings/SettingsView.vue') },
  // A page of its own, reached by links (positions, liquidations, alerts), not from the sidebar.
  {
    path: '/manager/:managerId?',
    name: 'manager',
    component: () => import('./features/manager/ManagerView.vue'),
  },
  // Any other address, the empty one included, shows the Portfolio and stays in the address bar as it is.
  { path: '/:unknown(.*)*', name: 'not-found', component: PortfolioView, meta: { view: 'portfolio' } },
];

/**
 * The app's router: hash addresses (`#/markets/SUI_USDC`), which work alike under the desktop
 * app's app:// protocol and in the browser `tidewatch serve` serves. Paths are case-sensitive
 * (`#/Markets` is an unknown address), and no scroll position is set on a move.
 */
export function createAppRouter(history: RouterHistory = createWebHashHistory()): Router {
  const router = createRouter({ history, routes, sensitive: true });
  // vue-router follows the address (a link, Back, `location.hash = …`) only once its first view is
  // shown, and that first view then writes its own address back: a move while the first view
  // loads (the tray opening the window on an alert, a reload on a view not yet loaded) would be
  // lost. Until then, the newest address is followed here.
  // (A failed move is reported by the router itself, as any other.)
  const stop = history.listen((to) => void router.replace(to).catch(() => {}));
  void router.isReady().then(stop, stop);
  return router;
}
