import { computed, type ComputedRef } from 'vue';
import { useRoute, useRouter, type Router } from 'vue-router';

/** A view of the sidebar. */
export type ViewName = 'portfolio' | 'wallet' | 'collection' | 'markets' | 'margin' | 'events' | 'alerts' | 'settings';
/** Where a link goes: a view, or a page reached by links only (`#/manager/<id>`). */
export type PageName = ViewName | 'manager';

export interface RouteDef {
  name: ViewName;
  label: string;
  key: string;
}

/** The views, in sidebar order; `key` is the keyboard shortcut (Alt + key). The routes are in ./routes.ts. */
export const VIEWS: RouteDef[] = [
  { name: 'portfolio', label: 'Portfolio', key: '1' },
  { name: 'wallet', label: 'Wallet', key: '2' },
  { name: 'collection', label: 'Collection', key: '3' },
  { name: 'markets', label: 'Markets', key: '4' },
  { name: 'margin', label: 'Margin', key: '5' },
  { name: 'events', label: 'Live events', key: '6' },
  { name: 'alerts', label: 'Alerts', key: '7' },
  { name: 'settings', label: 'Settings', key: '8' },
];

declare module 'vue-router' {
  interface RouteMeta {
    /** The view a route shows when it is not the route's own name: an unknown address shows the Portfolio. */
    view?: ViewName;
  }
}

/** The path of a view or page with its one parameter at most, URI-encoded whole: `/manager/0x…`. */
export function pathOf(name: PageName, param?: string): string {
  return `/${name}${param ? `/${encodeURIComponent(param)}` : ''}`;
}

/** Each router's hrefs by path, as `router.resolve` gave them: one per page a view links (thousands at most). */
const resolved = new WeakMap<Router, Map<string, string>>();

/** Links between views (`hrefOf('manager', id)` is `#/manager/<id>`), and moves to one, through the app's router. */
export function useLinks(): {
  hrefOf: (name: PageName, param?: string) => string;
  navigate: (name: PageName, param?: string) => void;
} {
  const router = useRouter();
  let hrefs = resolved.get(router);
  if (!hrefs) resolved.set(router, (hrefs = new Map()));
  const known = hrefs;
  return {
    // An address resolves to one href for the router's life: every row of a desk asks it on each valuation.
    hrefOf: (name, param) => {
      const path = pathOf(name, param);
      let href = known.get(path);
      if (href === undefined) known.set(path, (href = router.resolve(path).href));
      return href;
    },
    navigate: (name, param) => void router.push(pathOf(name, param)),
  };
}

/** The view the current address shows, for the sidebar. */
export function useCurrentView(): ComputedRef<ViewName | undefined> {
  const route = useRoute();
  return computed(() => route.meta.view ?? (route.name as ViewName | undefined));
}

/** The current address's parameter `name` (`#/markets/<pool>`), decoded; undefined when it has none. */
export function useParam(name: string): ComputedRef<string | undefined> {
  const route = useRoute();
  return computed(() => {
    const value = route.params[name];
    return typeof value === 'string' && value !== '' ? value : undefined;
  });
}
