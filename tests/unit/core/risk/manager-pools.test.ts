import { describe, expect, it } from 'vitest';
import type { ServiceClient } from '../../../../src/main/core/client/service-client';
import { EventUnits } from '../../../../src/main/core/risk/event-amounts';
import { ManagerPoolLookup } from '../../../../src/main/core/risk/manager-pools';
import { Store } from '../../../../src/main/core/store/store';

describe("a manager's pool looked up for Live events", () => {
  it('says nothing when the page that asked went away, and says why when the service failed', async () => {
    const store = Store.openInMemory();
    try {
      // The service answers nothing until the request is cancelled, or fails at once for "0xdown".
      const read = (_owner: unknown, q: { marginManagerId: string }, signal?: AbortSignal): Promise<never> =>
        new Promise((_, reject) => {
          if (q.marginManagerId === '0xdown') reject(new Error('The service is not answering (503).'));
          signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
        });
      const client = { activeLoans: read, liquidations: read } as unknown as ServiceClient;
      const log: string[] = [];
      const lookup = new ManagerPoolLookup({
        client: () => client,
        units: new EventUnits(store.margin, store.cache, () => undefined),
        remember: () => {},
        canRun: () => true,
        log: (line) => log.push(line),
      });
      const page = new AbortController();
      const learning = lookup.learn(['0xa', '0xb'], page.signal);
      page.abort();
      expect(await learning).toEqual([]);
      expect(log).toEqual([]);

      expect(await lookup.learn(['0xdown'])).toEqual([]);
      expect(log).toEqual(['could not look up the pool of manager 0xdown: The service is not answering (503).']);
    } finally {
      store.close();
    }
  });
});
