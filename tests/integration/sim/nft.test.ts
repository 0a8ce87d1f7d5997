import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HolderPageSchema, KioskNftsPageSchema, NftPageSchema } from '../../../src/shared/api';
import { startTestSim, type TestSim } from '../../support/sim';

let t: TestSim;
let d: ReturnType<TestSim['sim']['world']['describe']>;

beforeAll(async () => {
  t = await startTestSim();
  d = t.sim.world.describe();
});
afterAll(() => t.close());

const allPages = (path: string, params: Record<string, string | number | string[]> = {}): Promise<any[]> =>
  t.allPages(path, params);

function newestFirst(items: Array<{ updated_at: string; object_id: string }>): boolean {
  return items.every((n, i) => {
    const prev = items[i - 1];
    if (!prev) return true;
    return prev.updated_at > n.updated_at || (prev.updated_at === n.updated_at && prev.object_id < n.object_id);
  });
}

describe('GET /nfts/address/{address} (1)', () => {
  it('pages NFTs held directly and in Kiosks the wallet owns, with the envelope and defaults', async () => {
    const wallet = d.wallets[0]!; // wallets with Kiosks come first
    const r = await t.get(`/nfts/address/${wallet}`);
    expect(r.status).toBe(200);
    const page = v.parse(NftPageSchema, r.body);
    expect(page.currentPage).toBe(0);
    expect(page.perPage).toBe(10);
    const all = await allPages(`/nfts/address/${wallet}`);
    const direct = all.filter((n) => n.kiosk === null);
    const inKiosk = all.filter((n) => n.kiosk !== null);
    expect(direct.length).toBeGreaterThan(0);
    expect(inKiosk.length).toBeGreaterThan(0);
    for (const n of direct) {
      expect(n.owner).toBe(wallet);
      expect(n.kiosk_object_id).toBeNull();
    }
    for (const n of inKiosk) {
      expect(n.owner).toBeNull();
      expect(n.kiosk.owner).toBe(wallet);
      expect(n.kiosk_object_id).toBe(n.kiosk.object_id);
      expect(typeof n.kiosk.owner_cap_object_id).toBe('string');
      expect(typeof n.kiosk.checkpoint_id).toBe('string');
    }
    expect(typeof all[0].checkpoint_id).toBe('string');
    expect(all[0].decoded_fields.id.id).toBe(all[0].object_id);
    expect(newestFirst(all)).toBe(true);
    expect(new Set(all.map((n) => n.object_id)).size).toBe(all.length);
  });

  it('filters by collections, repeated or comma-separated', async () => {
    const wallet = d.wallets[0]!;
    const [a, b] = d.collections;
    const onlyA = await allPages(`/nfts/address/${wallet}`, { collections: a! });
    expect(onlyA.length).toBeGreaterThan(0);
    expect(onlyA.every((n) => n.object_type === a)).toBe(true);
    const repeated = await allPages(`/nfts/address/${wallet}`, { collections: [a!, b!] });
    const comma = await allPages(`/nfts/address/${wallet}`, { collections: `${a},${b}` });
    expect(repeated.map((n) => n.object_id)).toEqual(comma.map((n) => n.object_id));
    expect(repeated.every((n) => n.object_type === a || n.object_type === b)).toBe(true);
    expect(repeated.length).toBeGreaterThanOrEqual(onlyA.length);
  });

  it('answers an empty last page for a wallet without NFTs and past the end', async () => {
    const r = await t.get(`/nfts/address/0x${'0'.repeat(64)}`);
    expect(r.body).toEqual({ items: [], isLastPage: true, currentPage: 0, perPage: 10 });
    const far = await t.get(`/nfts/address/${d.wallets[0]}`, { page: 999 });
    expect(far.body.items).toEqual([]);
    expect(far.body.isLastPage).toBe(true);
  });

  it('rejects bad paging with a 400 naming the parameter', async () => {
    for (const [params, name] of [
      [{ perPage: 0 }, 'perPage'],
      [{ perPage: 51 }, 'perPage'],
      [{ perPage: 'ten' }, 'perPage'],
      [{ page: -1 }, 'page'],
      [{ page: '1.5' }, 'page'],
    ] as const) {
      const r = await t.get(`/nfts/address/${d.wallets[0]}`, params);
      expect(r.status).toBe(400);
      expect(r.body.error.status).toBe(400);
      expect(r.body.error.code).toBe('bad_parameter');
      expect(r.body.error.message).toContain(name);
    }
  });

  it('demands a valid api-key', async () => {
    const none = await t.get(`/nfts/address/${d.wallets[0]}`, {}, null);
    expect(none.status).toBe(401);
    expect(none.body.error.code).toBe('unauthorized');
    const wrong = await t.get(`/nfts/address/${d.wallets[0]}`, {}, 'nope');
    expect(wrong.status).toBe(401);
  });
});

describe('GET /kiosks/{id}/nfts (2)', () => {
  it('returns the Kiosk (number checkpoint) and its NFTs (no kiosk object, owner null)', async () => {
    let seenPersonal = false;
    let seenItems = 0;
    for (const id of d.kiosks) {
      const r = await t.get(`/kiosks/${id}/nfts`, { perPage: 50 });
      expect(r.status).toBe(200);
      v.parse(KioskNftsPageSchema, r.body);
      expect(r.body.kiosk.object_id).toBe(id);
      expect(typeof r.body.kiosk.checkpoint_id).toBe('number');
      if (r.body.kiosk.personal_cap_object_id !== null) {
        seenPersonal = true;
        expect(r.body.kiosk.owner_cap_object_id).toBeNull();
      }
      for (const n of r.body.items) {
        expect('kiosk' in n).toBe(false);
        expect(n.owner).toBeNull();
        expect(n.kiosk_object_id).toBe(id);
        seenItems++;
      }
      expect(newestFirst(r.body.items)).toBe(true);
    }
    expect(seenPersonal).toBe(true);
    expect(seenItems).toBeGreaterThan(0);
  });

  it('carries listed_value (MIST string) on some listed NFTs', async () => {
    const listed: any[] = [];
    for (const id of d.kiosks) listed.push(...(await allPages(`/kiosks/${id}/nfts`)).filter((n) => n.listed_value));
    expect(listed.length).toBeGreaterThan(0);
    for (const n of listed) expect(n.listed_value).toMatch(/^\d+$/);
  });

  it('answers 404 for an unknown Kiosk', async () => {
    const r = await t.get(`/kiosks/0x${'f'.repeat(64)}/nfts`);
    expect(r.status).toBe(404);
    expect(r.body.error.code).toBe('not_found');
    expect(r.body.error.message).toContain('kiosk');
  });
});

describe('GET /nfts/collection/{type} (3) and holders (4)', () => {
  it('accepts the type with :: as given and URL-encoded', async () => {
    const type = d.collections[0]!;
    const plain: any = await fetch(`${t.sim.url}/nfts/collection/${type}?api-key=test-key`).then((r) => r.json());
    const encoded = await fetch(`${t.sim.url}/nfts/collection/${encodeURIComponent(type)}?api-key=test-key`).then((r) =>
      r.json(),
    );
    expect(plain.items.length).toBe(10);
    expect(encoded).toEqual(plain);
    expect(plain.items.every((n: any) => n.object_type === type)).toBe(true);
  });

  it('applies the fields filter: equality, arrays as OR, dot paths with indexes, AND across keys', async () => {
    const type = d.collections[0]!;
    const all = await allPages(`/nfts/collection/${type}`);
    const bg = all[0].decoded_fields.attributes.contents[0];
    const eq = await allPages(`/nfts/collection/${type}`, {
      fields: JSON.stringify({ 'attributes.contents.0.value': bg.value }),
    });
    expect(eq.length).toBe(all.filter((n) => n.decoded_fields.attributes.contents[0].value === bg.value).length);
    expect(eq.length).toBeGreaterThan(0);
    const values = [...new Set(all.map((n) => n.decoded_fields.attributes.contents[0].value))].slice(0, 2);
    const or = await allPages(`/nfts/collection/${type}`, {
      fields: JSON.stringify({ 'attributes.contents.0.value': values }),
    });
    expect(or.length).toBe(all.filter((n) => values.includes(n.decoded_fields.attributes.contents[0].value)).length);
    const second = all[0].decoded_fields.attributes.contents[1];
    const and = await allPages(`/nfts/collection/${type}`, {
      fields: JSON.stringify({ 'attributes.contents.0.value': values, 'attributes.contents.1.value': second.value }),
    });
    expect(and.length).toBeGreaterThan(0);
    expect(
      and.every(
        (n) =>
          values.includes(n.decoded_fields.attributes.contents[0].value) &&
          n.decoded_fields.attributes.contents[1].value === second.value,
      ),
    ).toBe(true);
    const byName = await allPages(`/nfts/collection/${type}`, {
      fields: JSON.stringify({ name: all[3].decoded_fields.name }),
    });
    expect(byName.map((n) => n.object_id)).toEqual([all[3].object_id]);
    const none = await allPages(`/nfts/collection/${type}`, { fields: JSON.stringify({ name: 'no such name' }) });
    expect(none).toEqual([]);
  });

  it('filters top-level collection-specific fields (a decoded string equals a JSON number)', async () => {
    const cards = d.collections[1]!;
    const all = await allPages(`/nfts/collection/${cards}`);
    const level = all[0].decoded_fields.level as string;
    const hits = await allPages(`/nfts/collection/${cards}`, { fields: JSON.stringify({ level: Number(level) }) });
    expect(hits.length).toBe(all.filter((n) => n.decoded_fields.level === level).length);
  });

  it('rejects a fields value that is not a JSON object', async () => {
    for (const fields of ['{not json', '[1,2]', '42', 'null']) {
      const r = await t.get(`/nfts/collection/${d.collections[0]}`, { fields });
      expect(r.status).toBe(400);
      expect(r.body.error.message).toContain('fields');
    }
  });

  it('ranks holders by count, and their counts add up to the collection size', async () => {
    for (const type of d.collections) {
      const holders = await allPages(`/nfts/collection/${type}/holders`);
      v.parse(HolderPageSchema, { items: holders, isLastPage: true, currentPage: 0, perPage: 50 });
      const nfts = await allPages(`/nfts/collection/${type}`);
      expect(holders.reduce((s, h) => s + h.count, 0)).toBe(nfts.length);
      expect(holders.every((h, i) => i === 0 || holders[i - 1].count >= h.count)).toBe(true);
      expect(new Set(holders.map((h) => h.owner)).size).toBe(holders.length);
    }
  });

  it('has at least three collections with attributes and some NFTs without an image', async () => {
    let withAttributes = 0;
    let missingImage = 0;
    for (const type of d.collections) {
      const all = await allPages(`/nfts/collection/${type}`);
      if (all.some((n) => n.decoded_fields.attributes)) withAttributes++;
      missingImage += all.filter((n) => !n.decoded_display.image_url).length;
    }
    expect(withAttributes).toBeGreaterThanOrEqual(3);
    expect(missingImage).toBeGreaterThan(0);
  });
});

describe('GET /nfts/{objectId} (the real service serves it)', () => {
  it('answers one NFT, the same object the lists serve, held directly or in a Kiosk; 404 for an unknown id', async () => {
    const all = await allPages(`/nfts/address/${d.wallets[0]!}`);
    for (const n of [all.find((x) => x.kiosk === null), all.find((x) => x.kiosk !== null)]) {
      const r = await t.get(`/nfts/${n.object_id}`);
      expect(r.status).toBe(200);
      expect(r.body).toEqual(n);
    }
    const missing = await t.get(`/nfts/0x${'9'.repeat(64)}`);
    expect(missing.status).toBe(404);
    expect(JSON.stringify(missing.body)).toMatch(/no NFT with object id/);
  });
});
