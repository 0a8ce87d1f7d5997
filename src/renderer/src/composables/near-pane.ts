import { onBeforeUnmount, shallowRef } from 'vue';
import { OVERSCAN_PX } from './visible-rows';

/**
 * Which of many tall items (a desk's wallet cards) are far from the pane that scrolls them, so a
 * view renders those as a placeholder of their height: a valuation then re-renders, styles and
 * lays out the cards near the window only, not a hundred (docs/performance.md, the desk). The
 * browser tells (one IntersectionObserver on the scrolling pane, `OVERSCAN_PX` beyond it); an
 * item it has not told of yet counts as near, so nothing is hidden before it is known to be out
 * of sight, and where the browser has no observer nothing is ever far.
 */
export interface NearPane {
  /** The ref function of item `key`'s element (stable per key). */
  observe(key: string): (el: unknown) => void;
  /** Whether item `key` is rendered in full (it is near, not yet told of, or `active` is false). */
  shows(key: string): boolean;
  /** The height of `key`'s placeholder: the item's own when last rendered in full, else `estimate`. */
  heightOf(key: string, estimate: number): number;
}

/** The nearest ancestor that scrolls vertically (the app's content pane); null: the window. */
function scrollingAncestor(el: Element): Element | null {
  for (let p = el.parentElement; p; p = p.parentElement) {
    const y = getComputedStyle(p).overflowY;
    if (y === 'auto' || y === 'scroll') return p;
  }
  return null;
}

export function useNearPane(active: () => boolean): NearPane {
  const far = shallowRef(new Set<string>());
  const heights = new Map<string, number>();
  const refs = new Map<string, (el: unknown) => void>();
  const elements = new Map<string, Element>();
  const keys = new WeakMap<Element, string>();
  let io: IntersectionObserver | undefined;

  function told(entries: IntersectionObserverEntry[]): void {
    let next: Set<string> | undefined;
    for (const e of entries) {
      const key = keys.get(e.target);
      if (key === undefined) continue;
      const isFar = far.value.has(key);
      if (e.isIntersecting && isFar) (next ??= new Set(far.value)).delete(key);
      else if (!e.isIntersecting && !isFar) {
        // Its height in full, as it leaves: its placeholder keeps the page's length.
        if (e.boundingClientRect.height > 0) heights.set(key, e.boundingClientRect.height);
        (next ??= new Set(far.value)).add(key);
      }
    }
    if (next) far.value = next;
  }

  function observer(el: Element): IntersectionObserver | undefined {
    if (typeof IntersectionObserver === 'undefined') return undefined;
    io ??= new IntersectionObserver(told, { root: scrollingAncestor(el), rootMargin: `${OVERSCAN_PX}px 0px` });
    return io;
  }

  function observe(key: string): (el: unknown) => void {
    let ref = refs.get(key);
    if (!ref) {
      ref = (el: unknown) => {
        const before = elements.get(key);
        if (before === el) return;
        if (before) io?.unobserve(before);
        if (el instanceof Element) {
          elements.set(key, el);
          keys.set(el, key);
          observer(el)?.observe(el);
        } else {
          elements.delete(key);
          refs.delete(key);
          heights.delete(key);
          if (far.value.has(key)) {
            const next = new Set(far.value);
            next.delete(key);
            far.value = next;
          }
        }
      };
      refs.set(key, ref);
    }
    return ref;
  }

  onBeforeUnmount(() => io?.disconnect());
  return {
    observe,
    shows: (key) => !active() || !far.value.has(key),
    heightOf: (key, estimate) => heights.get(key) ?? estimate,
  };
}
