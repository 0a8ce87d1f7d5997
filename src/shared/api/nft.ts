import * as v from 'valibot';
import { IdString, Num } from './primitives';
import { PageSchema } from './page';

/** `attributes` inside decoded_fields: `{ contents: [{ key, value }] }`. */
export const AttributesSchema = v.looseObject({
  contents: v.array(v.looseObject({ key: v.string(), value: v.string() })),
});

/**
 * Decoded on-chain fields. Beyond `id`, name, description, image_url and attributes the
 * schema is collection specific, so unknown keys are kept, not stripped.
 */
export const DecodedFieldsSchema = v.looseObject({
  id: v.optional(v.looseObject({ id: v.string() })),
  name: v.optional(v.unknown()),
  description: v.optional(v.unknown()),
  image_url: v.optional(v.unknown()),
  attributes: v.optional(AttributesSchema),
});

export const DecodedDisplaySchema = v.looseObject({
  name: v.optional(v.nullable(v.string())),
  image_url: v.optional(v.nullable(v.string())),
  description: v.optional(v.nullable(v.string())),
});

/** Kiosk object nested in an NFT item (Address NFTs, Collection Snapshot). */
export const KioskInItemSchema = v.object({
  object_id: v.string(),
  owner_cap_object_id: v.string(),
  owner: v.string(),
  personal_cap_object_id: v.nullable(v.string()),
  checkpoint_id: IdString,
  created_at: v.string(),
  updated_at: v.string(),
});

/** Kiosk object of the Kiosk NFTs response: checkpoint_id is a number on the wire, a string once parsed. */
export const KioskSchema = v.object({
  object_id: v.string(),
  owner: v.string(),
  owner_cap_object_id: v.nullable(v.string()),
  personal_cap_object_id: v.nullable(v.string()),
  checkpoint_id: IdString,
  created_at: v.string(),
  updated_at: v.string(),
});

export const NftObjectSchema = v.object({
  object_id: v.string(),
  object_type: v.string(),
  owner_dynamic_field_object_id: v.nullish(v.string()),
  kiosk_object_id: v.nullable(v.string()),
  owner: v.nullable(v.string()),
  checkpoint_id: IdString,
  decoded_fields: DecodedFieldsSchema,
  decoded_display: v.nullish(DecodedDisplaySchema),
  created_at: v.string(),
  updated_at: v.string(),
  kiosk: v.optional(v.nullable(KioskInItemSchema)),
  /** MIST as a decimal string, on some Kiosk-listed NFTs (docs/service.md, Kiosk listing prices). */
  listed_value: v.optional(v.nullable(v.union([v.string(), v.pipe(Num, v.transform(String))]))),
});

export const HolderSchema = v.object({ owner: v.string(), count: Num });

export const NftPageSchema = PageSchema(NftObjectSchema);
export const HolderPageSchema = PageSchema(HolderSchema);

/** Kiosk NFTs (docs/service.md, NFT endpoints): the envelope plus the Kiosk itself. */
export const KioskNftsPageSchema = v.object({
  kiosk: KioskSchema,
  items: v.array(NftObjectSchema),
  isLastPage: v.boolean(),
  currentPage: v.number(),
  perPage: v.number(),
});

export type Attributes = v.InferOutput<typeof AttributesSchema>;
export type KioskInItem = v.InferOutput<typeof KioskInItemSchema>;
export type Kiosk = v.InferOutput<typeof KioskSchema>;
export type NftObject = v.InferOutput<typeof NftObjectSchema>;
export type Holder = v.InferOutput<typeof HolderSchema>;
export type KioskNftsPage = v.InferOutput<typeof KioskNftsPageSchema>;
