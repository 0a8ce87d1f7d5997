import type { ActiveSupply, MarginManager } from '../../../shared/api';
import { recordsReadCredits, type ProtocolPages } from '../budget/cost-model';
import type { ServiceClient } from '../client/service-client';

/** From this many watched owners on, the protocol-wide lists are tried once to learn their size. */
export const TRY_PROTOCOL_WIDE_AT = 10;
const MAX_PAGES = 200;
const PER_PAGE = 50;

/** The two lists a read of the records takes: the managers (with loans and deposits) and the supplies. */
export type RecordsList = keyof ProtocolPages;

/**
 * Where the watched owners' margin records come from (docs/credits.md "What is read"): one
 * request per owner and list (`/margin-managers/{owner}`, `/active-supplies/{owner}`, usually one
 * page each), or a list's protocol-wide form (`/margin-managers`: every manager of every owner;
 * `/active-supplies`: every supply) when it takes fewer pages than the owners do. A list's size is
 * learnt by reading it: once many owners are watched it is tried, and whichever took fewer pages
 * is used from then on, for each list on its own (each page costs the same). A protocol-wide
 * supply without its supplier cap cannot be given to an owner: then the supplies are read per
 * owner for good.
 */
export class RecordsSource {
  /** Pages each protocol-wide list took when last read (Infinity: not usable). */
  private readonly pages: { -readonly [K in RecordsList]?: number } = {};

  /** Whether to read `list` protocol-wide for `owners` owners. */
  protocolWide(owners: number, list: RecordsList = 'managers'): boolean {
    const pages = this.pages[list];
    return pages === undefined ? owners >= TRY_PROTOCOL_WIDE_AT : pages < owners;
  }

  /** Every manager of the protocol, grouped by owner (only the owners asked for are kept). */
  async read(client: ServiceClient, owners: ReadonlySet<string>): Promise<Map<string, MarginManager[]>> {
    const byOwner = new Map<string, MarginManager[]>([...owners].map((o) => [o, []]));
    let pages = 0;
    for (let page = 0; page < MAX_PAGES; page++) {
      const r = await client.marginManagers(undefined, { page, perPage: PER_PAGE });
      pages++;
      for (const m of r.items) byOwner.get(m.owner)?.push(m);
      if (r.isLastPage || r.items.length === 0) break;
    }
    this.pages.managers = pages;
    return byOwner;
  }

  /**
   * Every supply of the protocol, grouped by its supplier cap's owner (only the owners asked for
   * are kept); undefined when a supply came without its cap (the service may leave it out), so
   * the owners' own lists are read instead.
   */
  async readSupplies(
    client: ServiceClient,
    owners: ReadonlySet<string>,
  ): Promise<Map<string, ActiveSupply[]> | undefined> {
    const byOwner = new Map<string, ActiveSupply[]>([...owners].map((o) => [o, []]));
    let pages = 0;
    for (let page = 0; page < MAX_PAGES; page++) {
      const r = await client.activeSupplies(undefined, { page, perPage: PER_PAGE });
      pages++;
      for (const s of r.items) {
        if (!s.supplier_cap) {
          this.pages.supplies = Infinity;
          return undefined;
        }
        byOwner.get(s.supplier_cap.owner)?.push(s);
      }
      if (r.isLastPage || r.items.length === 0) break;
    }
    this.pages.supplies = pages;
    return byOwner;
  }

  /**
   * Credits of one read of `owners` owners' records, each list the way it is read: a page per
   * owner, or the protocol-wide list's pages where they are known to be fewer.
   */
  readCredits(owners: number): number {
    const known = (list: RecordsList): number | undefined =>
      this.protocolWide(owners, list) ? this.pages[list] : undefined;
    return recordsReadCredits(owners, { managers: known('managers'), supplies: known('supplies') });
  }

  /** The service changed: the lists' sizes are not known any more. */
  reset(): void {
    delete this.pages.managers;
    delete this.pages.supplies;
  }
}
