import type { MarginManager } from '../../../shared/api';
import { ESTIMATED_CREDITS } from '../../../shared/credit-prices';
import type { ServiceClient } from '../client/service-client';

/** From this many watched owners on, the protocol-wide list is tried once to learn its size. */
export const TRY_PROTOCOL_WIDE_AT = 10;
const MAX_PAGES = 200;

/**
 * Where the watched owners' margin managers come from (docs/credits.md "What is read"): one
 * request per owner (`/margin-managers/{owner}`, usually one page each), or the protocol-wide
 * list (`/margin-managers`, every manager of every owner) when it takes fewer pages than the
 * owners do. Its size is learnt by reading it: once many owners are watched it is tried, and
 * whichever took fewer pages is used from then on (each page costs the same).
 */
export class RecordsSource {
  /** Pages the protocol-wide list took when last read. */
  private protocolPages: number | undefined;

  /** Whether to read the protocol-wide list for `owners` owners. */
  protocolWide(owners: number): boolean {
    return this.protocolPages === undefined ? owners >= TRY_PROTOCOL_WIDE_AT : this.protocolPages < owners;
  }

  /** Every manager of the protocol, grouped by owner (only the owners asked for are kept). */
  async read(client: ServiceClient, owners: ReadonlySet<string>): Promise<Map<string, MarginManager[]>> {
    const byOwner = new Map<string, MarginManager[]>([...owners].map((o) => [o, []]));
    let pages = 0;
    for (let page = 0; page < MAX_PAGES; page++) {
      const r = await client.marginManagers(undefined, { page, perPage: 50 });
      pages++;
      for (const m of r.items) byOwner.get(m.owner)?.push(m);
      if (r.isLastPage || r.items.length === 0) break;
    }
    this.protocolPages = pages;
    return byOwner;
  }

  /**
   * Credits of one read of `owners` owners' records: a page of managers and one of supplies per
   * owner, or the protocol-wide list's pages and a page of supplies per owner.
   */
  readCredits(owners: number): number {
    const managerPages = this.protocolWide(owners) && this.protocolPages !== undefined ? this.protocolPages : owners;
    return (managerPages + owners) * ESTIMATED_CREDITS;
  }

  /** The service changed: its size is not known any more. */
  reset(): void {
    this.protocolPages = undefined;
  }
}
