import { describe, expect, it, vi } from 'vitest';
import { AssetBookCache } from '../../../../src/main/core/risk/asset-book';
import type { ServiceClient } from '../../../../src/main/core/client/service-client';

describe('the asset book, loaded in the background', () => {
  it('after a failed load is not asked again for 10 s by what does not wait (every batch, every alert), and at once after a service change', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      let asked = 0;
      const down = async (): Promise<never> => {
        throw new Error('service down');
      };
      // A load asks its four reads together: `pools` counts the loads.
      const client = {
        pools: async () => {
          asked++;
          return down();
        },
        activeSupplies: down,
        marginPools: down,
        registeredDexPools: down,
      } as unknown as ServiceClient;
      const book = new AssetBookCache(
        () => client,
        () => true,
      );
      const settle = (): Promise<void> => new Promise((r) => setImmediate(r));
      expect(book.now()).toBeUndefined();
      await settle();
      for (let i = 0; i < 100; i++) book.now();
      await settle();
      expect(asked).toBe(1);
      // Who waits for it still asks.
      await expect(book.load()).rejects.toThrow('service down');
      expect(asked).toBe(2);
      vi.advanceTimersByTime(10_000);
      book.now();
      await settle();
      expect(asked).toBe(3);
      book.reset();
      book.now();
      await settle();
      expect(asked).toBe(4);
    } finally {
      vi.useRealTimers();
    }
  });
});
