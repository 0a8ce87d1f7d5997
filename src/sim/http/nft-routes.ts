import type { NftObject } from '../../shared/api';
import type { World } from '../chain/world';
import { holderOf } from '../chain/nfts';
import { notFound } from './errors';
import { matchesFields, parseFieldsFilter } from './fields-filter';
import { paginate } from './query';
import { route, type Route } from './route';

/** The NFT endpoints (docs/service.md, NFT endpoints). The NFT set is static, so lookups are indexed once. */
export function nftRoutes(world: World): Route[] {
  const { nfts, kiosks } = world.nfts;
  const byHolder = new Map<string, NftObject[]>();
  const byKiosk = new Map<string, NftObject[]>();
  const byCollection = new Map<string, NftObject[]>();
  const push = <K>(map: Map<K, NftObject[]>, key: K, nft: NftObject): void => {
    const list = map.get(key);
    if (list) list.push(nft);
    else map.set(key, [nft]);
  };
  // `nfts` is already in serving order (newest updated_at first), so every index is too.
  for (const nft of nfts) {
    push(byHolder, holderOf(nft), nft);
    push(byCollection, nft.object_type, nft);
    if (nft.kiosk_object_id) push(byKiosk, nft.kiosk_object_id, nft);
  }
  const kioskById = new Map(kiosks.map((k) => [k.item.object_id, k]));
  const holders = new Map<string, Array<{ owner: string; count: number }>>();
  for (const [type, list] of byCollection) {
    const counts = new Map<string, number>();
    for (const nft of list) counts.set(holderOf(nft), (counts.get(holderOf(nft)) ?? 0) + 1);
    holders.set(
      type,
      [...counts]
        .map(([owner, count]) => ({ owner, count }))
        .sort((a, b) => b.count - a.count || (a.owner < b.owner ? -1 : 1)),
    );
  }
  const inCollections = (list: readonly NftObject[], collections: string[]): readonly NftObject[] =>
    collections.length === 0 ? list : list.filter((n) => collections.includes(n.object_type));

  const byId = new Map(nfts.map((n) => [n.object_id, n]));
  return [
    // One NFT by its object id (not in the service contract; the real service serves it and its
    // SDK calls it: docs/service.md, Beyond the service contract).
    route('/nfts/:id', ({ params }) => {
      const nft = byId.get(params['id']!);
      if (!nft) throw notFound(`no NFT with object id ${params['id']}`);
      return nft;
    }),
    route('/nfts/address/:address', ({ params, query }) => {
      const { page, perPage } = query.paging();
      const list = inCollections(byHolder.get(params['address']!) ?? [], query.list('collections'));
      return paginate(list, page, perPage);
    }),
    route('/kiosks/:id/nfts', ({ params, query }) => {
      const { page, perPage } = query.paging();
      const kiosk = kioskById.get(params['id']!);
      if (!kiosk) throw notFound(`kiosk ${params['id']} was not found`);
      const list = inCollections(byKiosk.get(kiosk.item.object_id) ?? [], query.list('collections'));
      const result = paginate(list, page, perPage);
      // Kiosk NFTs items carry no `kiosk` object; owner is null and kiosk_object_id a string.
      const items = result.items.map(({ kiosk: _kiosk, ...rest }) => ({ ...rest, owner: null }));
      return { kiosk: kiosk.own, ...result, items };
    }),
    route('/nfts/collection/:type', ({ params, query }) => {
      const { page, perPage } = query.paging();
      const filter = parseFieldsFilter(query.str('fields'));
      const list = byCollection.get(params['type']!) ?? [];
      const matching = filter.length === 0 ? list : list.filter((n) => matchesFields(n.decoded_fields, filter));
      return paginate(matching, page, perPage);
    }),
    route('/nfts/collection/:type/holders', ({ params, query }) => {
      const { page, perPage } = query.paging();
      return paginate(holders.get(params['type']!) ?? [], page, perPage);
    }),
  ];
}
