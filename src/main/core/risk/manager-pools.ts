import type { ServiceClient } from '../client/service-client';
import type { EventUnits } from './event-amounts';

/** Managers looked up in one go (a Live events page of 200 rows names a handful). */
const MOST_PER_CALL = 8;
/** Requests in any hour, whatever is shown: 10 credits each (estimated), at most 600 credits an hour. */
const MOST_PER_HOUR = 60;
/** A manager the service did not place (no loan, never liquidated) is not asked of again for this long. */
const NOT_FOUND_RETRY_MS = 6 * 3_600_000;

export interface ManagerPoolsDeps {
  client: () => ServiceClient;
  units: EventUnits;
  /** Keep what was learnt (the store's managers table), so it is never asked again. */
  remember: (managers: { id: string; owner: string; dexPoolId: string }[]) => void;
  /** A key, an address, and the monitor open. */
  canRun: () => boolean;
  log: (line: string) => void;
  now?: () => number;
}

/**
 * The exchange pool of a manager whose events name no pool: a deposit or a withdrawal carries only
 * the manager's id, so on a first start (`last-id=$`) a manager created before it has events whose
 * amounts cannot be put in units. The service places a manager through what refers to it: its
 * active loan, or a liquidation of it (each with the manager's details). Asked once per manager,
 * within an hourly cap of requests; what is learnt is stored with the manager.
 */
export class ManagerPoolLookup {
  private readonly notFound = new Map<string, number>();
  private readonly asking = new Map<string, Promise<boolean>>();
  private spent: number[] = [];
  private readonly now: () => number;

  constructor(private readonly d: ManagerPoolsDeps) {
    this.now = d.now ?? Date.now;
  }

  /** Look up the managers not known yet among `ids`; resolves with those learnt now. */
  async learn(ids: Iterable<string>, signal?: AbortSignal): Promise<string[]> {
    if (!this.d.canRun()) return [];
    const now = this.now();
    const wanted = [...new Set(ids)]
      .filter((id) => (this.notFound.get(id) ?? -Infinity) + NOT_FOUND_RETRY_MS <= now)
      .slice(0, MOST_PER_CALL);
    const found = await Promise.all(wanted.map((id) => this.ask(id, signal)));
    return wanted.filter((_, i) => found[i]);
  }

  private ask(id: string, signal?: AbortSignal): Promise<boolean> {
    let pending = this.asking.get(id);
    if (!pending) {
      pending = this.place(id, signal).finally(() => this.asking.delete(id));
      this.asking.set(id, pending);
    }
    return pending;
  }

  private async place(id: string, signal?: AbortSignal): Promise<boolean> {
    try {
      const client = this.d.client();
      const sources = [
        () => client.activeLoans(undefined, { marginManagerId: id, perPage: 1 }, signal),
        () => client.liquidations(undefined, { marginManagerId: id, perPage: 1 }, signal),
      ];
      for (const read of sources) {
        if (!this.spend()) return false;
        const manager = (await read()).items[0]?.margin_manager;
        if (manager?.dex_pool_id && manager.owner) {
          this.d.units.notePool(id, manager.dex_pool_id);
          this.d.remember([{ id, owner: manager.owner, dexPoolId: manager.dex_pool_id }]);
          return true;
        }
      }
      this.notFound.set(id, this.now());
    } catch (err) {
      // The page that asked went away (its call was cancelled): nothing failed, nothing to say.
      if (signal?.aborted) return false;
      // Not placed this time (offline, a refusal): asked again with the next page that shows it.
      this.d.log(`could not look up the pool of manager ${id}: ${err instanceof Error ? err.message : String(err)}`);
    }
    return false;
  }

  /** One request within the hourly cap, or false. */
  private spend(): boolean {
    const now = this.now();
    this.spent = this.spent.filter((t) => now - t < 3_600_000);
    if (this.spent.length >= MOST_PER_HOUR) return false;
    this.spent.push(now);
    return true;
  }
}
