import { startSim, type RunningSim, type SimOptions } from '../../src/sim';

export const TEST_KEY = 'test-key';

type Params = Record<string, string | number | string[]>;

export interface TestSim {
  sim: RunningSim;
  /** GET a path with the api-key; returns status, parsed JSON body and headers. */
  get(path: string, params?: Params, key?: string | null): Promise<{ status: number; body: any; headers: Headers }>;
  url(path: string, params?: Params, key?: string | null): string;
  /** Every item of a paginated endpoint, 50 per page; any answer but 200 throws. */
  allPages(path: string, params?: Params): Promise<any[]>;
  close(): Promise<void>;
}

/** A real sim on a random loopback port, as every integration test uses it. */
export async function startTestSim(opts: Partial<SimOptions> = {}): Promise<TestSim> {
  const sim = await startSim({ apiKeys: [TEST_KEY], port: 0, host: '127.0.0.1', ...opts });
  const url = (path: string, params: Params = {}, key: string | null = TEST_KEY): string => {
    const u = new URL(path, sim.url);
    // The path is used as given: a collection type keeps its `::`.
    const search = new URLSearchParams();
    if (key !== null) search.set('api-key', key);
    for (const [k, v] of Object.entries(params)) {
      for (const one of Array.isArray(v) ? v : [v]) search.append(k, String(one));
    }
    return `${sim.url}${u.pathname}?${search.toString()}`;
  };
  const get: TestSim['get'] = async (path, params, key) => {
    const res = await fetch(url(path, params, key));
    const text = await res.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // left as text: the test will say what it got
    }
    return { status: res.status, body, headers: res.headers };
  };
  return {
    sim,
    url,
    get,
    async allPages(path, params = {}) {
      const items: any[] = [];
      for (let page = 0; page < 2000; page++) {
        const r = await get(path, { ...params, page, perPage: 50 });
        if (r.status !== 200) throw new Error(`${path} page ${page}: ${r.status} ${JSON.stringify(r.body)}`);
        items.push(...r.body.items);
        if (r.body.isLastPage) return items;
      }
      throw new Error(`${path}: no last page`);
    },
    close: () => sim.close(),
  };
}

/** The `n` owners with the most margin managers: at a high speed their positions move every few seconds. */
export function busiestOwners(world: { margin: { managers: ReadonlyArray<{ owner: string }> } }, n: number): string[] {
  const counts = new Map<string, number>();
  for (const m of world.margin.managers) counts.set(m.owner, (counts.get(m.owner) ?? 0) + 1);
  return [...counts]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([owner]) => owner);
}
