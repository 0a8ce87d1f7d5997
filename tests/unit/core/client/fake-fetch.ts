/** A fetch that answers from a list of canned responses and records the URLs asked. */
export function fakeFetch(answers: Array<() => Response>): { fetch: typeof fetch; urls: string[] } {
  const urls: string[] = [];
  let i = 0;
  const f = (async (input: string | URL | Request) => {
    urls.push(String(input));
    const next = answers[Math.min(i++, answers.length - 1)]!;
    return next();
  }) as typeof fetch;
  return { fetch: f, urls };
}

export const json =
  (status: number, body: unknown, headers: Record<string, string> = {}): (() => Response) =>
  () =>
    new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

export const POOL = {
  pool_id: '0x1',
  pool_name: 'SUI_USDC',
  base_asset_id: 'a',
  base_asset_decimals: 9,
  base_asset_symbol: 'SUI',
  base_asset_name: 'Sui',
  quote_asset_id: 'b',
  quote_asset_decimals: 6,
  quote_asset_symbol: 'USDC',
  quote_asset_name: 'USDC',
  min_size: 1,
  lot_size: 1,
  tick_size: 1,
};
