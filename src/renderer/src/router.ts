import { computed, ref } from 'vue';

export interface RouteDef {
  name: string;
  label: string;
  key: string;
}

/** The views, in sidebar order; `key` is the keyboard shortcut (Alt + key). */
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

/** Pages reached by links, not from the sidebar: `#/manager/<id>`. */
export const PAGES = ['manager'] as const;

function parse(hash: string): { name: string; param: string | undefined } {
  const [name, ...rest] = hash.replace(/^#\/?/, '').split('/');
  const known = VIEWS.some((v) => v.name === name) || (PAGES as readonly string[]).includes(name ?? '');
  return {
    name: known ? name! : 'portfolio',
    param: rest.length > 0 && rest[0] ? decodeURIComponent(rest.join('/')) : undefined,
  };
}

const current = ref(parse(window.location.hash));
window.addEventListener('hashchange', () => {
  current.value = parse(window.location.hash);
});

/** A small hash router: eight views and the manager page, one parameter each at most. */
export function useRoute() {
  return {
    name: computed(() => current.value.name),
    param: computed(() => current.value.param),
  };
}

export function navigate(name: string, param?: string): void {
  window.location.hash = `#/${name}${param ? `/${encodeURIComponent(param)}` : ''}`;
}

export function hrefOf(name: string, param?: string): string {
  return `#/${name}${param ? `/${encodeURIComponent(param)}` : ''}`;
}
