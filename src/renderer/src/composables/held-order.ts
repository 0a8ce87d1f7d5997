import { ref, type Ref } from 'vue';

/**
 * The order of a list held while the pointer is on it: the Portfolio's rows follow the risk,
 * which at speed 300 swapped them 5 times in 18 s and slid another manager under the cursor. While
 * held, the items keep the places they had when the pointer came in; an item new since then comes
 * after them, in its own order; once the pointer leaves, the list takes its order again.
 */
export interface HeldOrder {
  /** Whether the order is held now (the pointer is on the list). */
  held: Ref<boolean>;
  /** Hold the order of these lists (each item by its key), as they are now. */
  hold(lists: Iterable<readonly string[]>): void;
  release(): void;
  /** `items` in the held order (unchanged when nothing is held). */
  order<T>(items: readonly T[], keyOf: (t: T) => string): readonly T[];
}

export function useHeldOrder(): HeldOrder {
  const held = ref(false);
  let places = new Map<string, number>();
  return {
    held,
    hold(lists) {
      places = new Map();
      for (const keys of lists) keys.forEach((k, i) => places.set(k, i));
      held.value = true;
    },
    release() {
      places = new Map();
      held.value = false;
    },
    order<T>(items: readonly T[], keyOf: (t: T) => string): readonly T[] {
      if (!held.value) return items;
      const rank = (t: T, i: number): number => places.get(keyOf(t)) ?? places.size + i;
      return items
        .map((t, i) => ({ t, r: rank(t, i) }))
        .sort((a, b) => a.r - b.r)
        .map((x) => x.t);
    },
  };
}
