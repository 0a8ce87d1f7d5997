import type { Kiosk, KioskInItem, NftObject } from '../../shared/api';
import { checkpointAt, DAY_MS, isoAt } from '../clock';
import { objectId, type Rng } from '../rng';

interface CollectionSpec {
  module: string;
  struct: string;
  title: string;
  size: number;
  /** Attribute names and their values; rarer values later in each list. */
  attributes: Record<string, string[]>;
  image: (n: number, rng: Rng) => string | null;
  extra: (n: number, rng: Rng) => Record<string, unknown>;
}

const COLLECTIONS: CollectionSpec[] = [
  {
    module: 'tidal_punks',
    struct: 'TidalPunk',
    title: 'Tidal Punk',
    size: 320,
    attributes: {
      Background: ['Sea Foam', 'Deep Blue', 'Coral', 'Sand', 'Storm', 'Aurora'],
      Body: ['Human', 'Merfolk', 'Robot', 'Ghost', 'Kraken'],
      Eyes: ['Calm', 'Squint', 'Laser', 'Wink', 'Goggles', 'Patch', 'Pearl'],
      Headwear: ['None', 'Bandana', 'Captain Hat', 'Diving Helmet', 'Crown', 'Halo', 'Beanie', 'Seaweed'],
    },
    image: (n) => `https://static.tidewatch.example/punks/${n}.png`,
    extra: () => ({}),
  },
  {
    module: 'reef_cards',
    struct: 'ReefCard',
    title: 'Reef Card',
    size: 210,
    attributes: {
      Element: ['Water', 'Coral', 'Sand', 'Abyss'],
      Tier: ['Common', 'Uncommon', 'Rare', 'Epic', 'Legendary'],
    },
    image: (n, rng) => (rng.chance(0.06) ? null : `ipfs://bafybeigdyrzt5reefcards${n.toString(36)}/card.png`),
    extra: (_n, rng) => ({ level: String(rng.int(1, 60)), power: rng.int(10, 999) }),
  },
  {
    module: 'harbor_pass',
    struct: 'HarborPass',
    title: 'Harbor Pass',
    size: 120,
    attributes: {},
    image: (n) => `https://static.tidewatch.example/pass/${n % 3}.svg`,
    extra: (_n, rng) => ({
      tier: rng.pick(['bronze', 'bronze', 'bronze', 'silver', 'silver', 'gold']),
      expires_at_ms: String(Date.UTC(2027, rng.int(0, 11), rng.int(1, 28))),
    }),
  },
  {
    module: 'lighthouse',
    struct: 'Keeper',
    title: 'Lighthouse Keeper',
    size: 90,
    attributes: {
      Lamp: ['Oil', 'Gas', 'Electric', 'Fresnel'],
      Coat: ['Yellow', 'Navy', 'Red'],
      Companion: ['None', 'Gull', 'Cat', 'Parrot'],
    },
    image: (n) => `ipfs://QmKeeperCollection0000000000000000000000000000/${n}.webp`,
    extra: () => ({}),
  },
];

export interface NftWorld {
  wallets: string[];
  collections: string[];
  kiosks: KioskRecord[];
  nfts: NftObject[];
}

export interface KioskRecord {
  item: KioskInItem;
  /** The variant served by Kiosk NFTs (checkpoint_id as a number). */
  own: Omit<Kiosk, 'checkpoint_id'> & { checkpoint_id: number };
}

/** Zipf-like pick: low indexes (whales) far more often. */
function skewedIndex(rng: Rng, n: number): number {
  return Math.min(n - 1, Math.floor(n * rng.next() ** 2.2));
}

export function buildNfts(rng: Rng, nowMs: number): NftWorld {
  const wallets = Array.from({ length: 40 }, () => objectId(rng));
  const kiosks: KioskRecord[] = [];
  // 14 Kiosks on the first ten wallets (so several wallets hold NFTs both ways); three are personal.
  for (let i = 0; i < 14; i++) {
    const owner = wallets[i % 10]!;
    const personal = i % 5 === 2;
    const createdMs = nowMs - rng.int(20, 400) * DAY_MS;
    const updatedMs = createdMs + rng.int(0, 15) * DAY_MS;
    const cp = checkpointAt(updatedMs);
    const ownerCap = objectId(rng);
    const personalCap = personal ? objectId(rng) : null;
    kiosks.push({
      item: {
        object_id: objectId(rng),
        owner_cap_object_id: ownerCap,
        owner,
        personal_cap_object_id: personalCap,
        checkpoint_id: String(cp),
        created_at: isoAt(createdMs),
        updated_at: isoAt(updatedMs),
      },
      own: {
        object_id: '',
        owner,
        // A personal Kiosk's owner cap is wrapped in the personal cap: the Kiosk NFTs variant shows null.
        owner_cap_object_id: personal ? null : ownerCap,
        personal_cap_object_id: personalCap,
        checkpoint_id: cp,
        created_at: isoAt(createdMs),
        updated_at: isoAt(updatedMs),
      },
    });
  }
  for (const k of kiosks) k.own.object_id = k.item.object_id;

  const collections: string[] = [];
  const nfts: NftObject[] = [];
  for (const spec of COLLECTIONS) {
    const pkg = objectId(rng);
    const type = `${pkg}::${spec.module}::${spec.struct}`;
    collections.push(type);
    for (let n = 1; n <= spec.size; n++) {
      const id = objectId(rng);
      const createdMs = nowMs - rng.int(5, 300) * DAY_MS - rng.int(0, DAY_MS);
      const updatedMs = Math.min(nowMs - 60_000, createdMs + rng.int(0, 60) * DAY_MS + rng.int(0, DAY_MS));
      const name = `${spec.title} #${n}`;
      const image = spec.image(n, rng);
      const description = `${spec.title} number ${n} of ${spec.size}.`;
      const contents = Object.entries(spec.attributes).map(([key, values]) => ({
        key,
        value: values[skewedIndex(rng, values.length)]!,
      }));
      const inKiosk = rng.chance(0.3);
      const kiosk = inKiosk ? kiosks[skewedIndex(rng, kiosks.length)]! : null;
      const owner = kiosk ? null : wallets[skewedIndex(rng, wallets.length)]!;
      const decoded_fields: Record<string, unknown> = {
        id: { id },
        name,
        description,
        image_url: image ?? '',
        ...(contents.length > 0 ? { attributes: { contents } } : {}),
        ...spec.extra(n, rng),
      };
      const nft: NftObject = {
        object_id: id,
        object_type: type,
        owner_dynamic_field_object_id: kiosk ? objectId(rng) : id,
        kiosk_object_id: kiosk ? kiosk.item.object_id : null,
        owner,
        checkpoint_id: String(checkpointAt(updatedMs)),
        decoded_fields,
        decoded_display: {
          name,
          description,
          image_url: image,
          project_url: `https://${spec.module.replace('_', '')}.example`,
        },
        created_at: isoAt(createdMs),
        updated_at: isoAt(updatedMs),
        kiosk: kiosk ? kiosk.item : null,
      };
      if (kiosk && kiosk.item.personal_cap_object_id === null && rng.chance(0.35)) {
        nft.listed_value = String(rng.int(2, 400) * 250_000_000);
      }
      nfts.push(nft);
    }
  }
  // Newest `updated_at` first, ties by object_id (docs/service.md, Ordering).
  nfts.sort((a, b) =>
    a.updated_at === b.updated_at ? (a.object_id < b.object_id ? -1 : 1) : a.updated_at < b.updated_at ? 1 : -1,
  );
  return { wallets, collections, kiosks, nfts };
}

/** The wallet that holds an NFT: its owner, or the owner of the Kiosk it is in. */
export function holderOf(nft: NftObject): string {
  return nft.owner ?? nft.kiosk?.owner ?? '';
}
