/**
 * What the data service charges, in credits (the credit meter). From its published price list
 * (surflux.dev/docs/get-started/credits, read 2026-11-23): a fixed price per answered request,
 * and 1 credit per KB streamed. One table, by spec path pattern (`dex` for the exchange:
 * docs/service.md, Words this page uses); update it here when the list changes.
 *
 * The margin endpoints (and the margin pools lists) are not on the published list: they are
 * counted at ESTIMATED_CREDITS and the meter says its figure is an estimate.
 */
export const PRICE_LIST_URL = 'https://surflux.dev/docs/get-started/credits';

export interface Price {
  /** A spec path pattern: `*` stands for one path segment. */
  path: string;
  credits: number;
}

export const PRICES: readonly Price[] = [
  { path: '/nfts/*', credits: 5 },
  { path: '/nfts/address/*', credits: 10 },
  { path: '/kiosks/*/nfts', credits: 10 },
  { path: '/nfts/collection/*', credits: 15 },
  { path: '/nfts/collection/*/holders', credits: 50 },
  { path: '/dex/get_pools', credits: 5 },
  { path: '/dex/*/trades', credits: 20 },
  { path: '/dex/*/ohlcv/*', credits: 25 },
  { path: '/dex/*/order-book-depth', credits: 30 },
];

/** Credits per KB (1,024 bytes) received on a stream. */
export const STREAM_CREDITS_PER_KB = 1;

/** What an unpublished endpoint is counted at (the margin lists): an estimate, said as such. */
export const ESTIMATED_CREDITS = 10;

const compiled = PRICES.map((p) => ({ ...p, segments: p.path.split('/').filter(Boolean) }));

/** The price of one answered request to `specPath`, and whether it is published or an estimate. */
export function priceOf(specPath: string): { credits: number; estimated: boolean } {
  const segments = specPath.split('?')[0]!.split('/').filter(Boolean);
  for (const p of compiled) {
    if (p.segments.length === segments.length && p.segments.every((s, i) => s === '*' || s === segments[i])) {
      return { credits: p.credits, estimated: false };
    }
  }
  return { credits: ESTIMATED_CREDITS, estimated: true };
}

/** The service's plans by name (its published limits; docs/service.md, Plans, rate limits and credits). */
export type PlanName = 'free' | 'builder' | 'scale' | 'pro';

export interface Plan {
  /** The name the service gives it. */
  label: string;
  /** Credits a month; they reset on the billing anniversary and do not roll over. */
  monthlyCredits: number;
  /** Requests per second per key before 429. */
  requestsPerSecond: number;
  /** Streams open at once per key before 429. */
  streams: number;
}

export const PLANS: Readonly<Record<PlanName, Plan>> = {
  free: { label: 'Free', monthlyCredits: 250_000, requestsPerSecond: 10, streams: 1 },
  builder: { label: 'Builder', monthlyCredits: 5_000_000, requestsPerSecond: 25, streams: 3 },
  scale: { label: 'Scale', monthlyCredits: 20_000_000, requestsPerSecond: 50, streams: 10 },
  pro: { label: 'Pro', monthlyCredits: 50_000_000, requestsPerSecond: 100, streams: 25 },
};

export const PLAN_NAMES = Object.keys(PLANS) as PlanName[];

/** A month's credits spread evenly over its days (the share of one day: a 30-day month). */
export const DAYS_PER_MONTH = 30;
