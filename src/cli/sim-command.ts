import { DEFAULT_HEARTBEAT_MS, DEFAULT_SEED, PLANS, startSim, World, type PlanName } from '../sim';
import { intOption, numberOption, parse, untilSignal, UsageError } from './args';

export const SIM_USAGE = `tidewatch sim: the Demo network, a reference implementation of the chain data service

  tidewatch sim --port 0 --api-key KEY [--stream-key KEY] [--pool-stream-key POOL=KEY]
                [--seed N] [--speed N] [--host 127.0.0.1]
                [--plan free|starter|pro|business] [--no-retry-after] [--pool-resume]
                [--rate-limit N] [--max-streams N] [--heartbeat-ms N] [--retention N] [--anchor-ms MS]
  tidewatch sim --describe [--seed N]

  --port N          port to listen on; 0 picks a free one (default 0)
  --api-key KEY     key accepted in the api-key query parameter; repeat for several (default: demo)
  --stream-key KEY  streams take this key (repeat for several) and refuse the api-keys, as the
                    real service's streams do; REST takes only the api-keys (default: streams
                    take the api-keys)
  --pool-stream-key POOL=KEY
                    one pool's stream #21 takes this key instead (repeatable)
  --seed N          seed of the synthetic chain (default ${DEFAULT_SEED})
  --speed N         market activity per second, as a multiple of real time (default 1)
  --host H          address to bind (default 127.0.0.1)
  --plan NAME       the real service's plan limits: free 10 req/s and 1 stream, starter 25 and 3,
                    pro 50 and 10, business 100 and 25 per key; beyond them 429 (default: no limits)
  --no-retry-after  429s without a Retry-After header (the real service documents none)
  --pool-resume     stream #21 resumes after last-id (or Last-Event-ID) by replaying the pool's
                    retained trades, as the real service documents (default: off, as in the spec)
  --rate-limit N    requests per second per key before 429 (default: none, or the plan's)
  --max-streams N   streams open at once per key before 429 (default: none)
  --heartbeat-ms N  interval of ': ping' comments on streams (default ${DEFAULT_HEARTBEAT_MS})
  --retention N     stream #22 events kept for last-id=0 (default 10000)
  --anchor-ms MS    wall time (UNIX ms) the synthetic history ends at (default: now); a sim
                    restarted with the same seed and anchor serves the same chain and event ids
  --describe        print what the API alone cannot discover (wallets, kiosks, collections,
                    pools, margin owners) as one JSON object, and exit`;

export async function simCommand(args: string[]): Promise<number> {
  const o = parse(args, {
    port: { type: 'string' },
    'api-key': { type: 'string', multiple: true },
    'stream-key': { type: 'string', multiple: true },
    'pool-stream-key': { type: 'string', multiple: true },
    seed: { type: 'string' },
    speed: { type: 'string' },
    host: { type: 'string' },
    'rate-limit': { type: 'string' },
    plan: { type: 'string' },
    'no-retry-after': { type: 'boolean' },
    'pool-resume': { type: 'boolean' },
    'max-streams': { type: 'string' },
    'heartbeat-ms': { type: 'string' },
    retention: { type: 'string' },
    'anchor-ms': { type: 'string' },
    describe: { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  });
  if (o.help) {
    console.log(SIM_USAGE);
    return 0;
  }
  const seed = intOption('seed', o.seed, 0, 2 ** 32 - 1) ?? DEFAULT_SEED;
  if (o.describe) {
    console.log(JSON.stringify(new World({ seed }).describe()));
    return 0;
  }
  if (o.plan !== undefined && !(o.plan in PLANS)) throw new UsageError(`--plan must be one of ${Object.keys(PLANS).join(', ')} (got "${o.plan}")`);
  const stopped = untilSignal();
  const apiKeys = o['api-key'] ?? ['demo'];
  if (apiKeys.some((k) => k.length === 0)) throw new UsageError('--api-key must not be empty');
  const poolStreamKeys: Record<string, string[]> = {};
  for (const pair of o['pool-stream-key'] ?? []) {
    const m = /^([A-Za-z0-9_]{1,64})=(\S+)$/.exec(pair);
    if (!m) throw new UsageError(`--pool-stream-key must be POOL=KEY, like SUI_USDC=abc (got "${pair}")`);
    (poolStreamKeys[m[1]!] ??= []).push(m[2]!);
  }
  if ((o['stream-key'] ?? []).some((k) => k.length === 0)) throw new UsageError('--stream-key must not be empty');
  const sim = await startSim({
    seed,
    apiKeys,
    streamKeys: o['stream-key'],
    poolStreamKeys,
    port: intOption('port', o.port, 0, 65_535) ?? 0,
    host: o.host ?? '127.0.0.1',
    speed: numberOption('speed', o.speed, 0.001),
    rateLimit: numberOption('rate-limit', o['rate-limit'], 0.001),
    maxStreams: intOption('max-streams', o['max-streams'], 1, 10_000),
    plan: o.plan as PlanName | undefined,
    retryAfter: !o['no-retry-after'],
    poolResume: o['pool-resume'] === true,
    heartbeatMs: intOption('heartbeat-ms', o['heartbeat-ms'], 10, 3_600_000),
    retention: intOption('retention', o.retention, 1, 10_000_000),
    nowMs: intOption('anchor-ms', o['anchor-ms'], 0, Date.now() + 86_400_000),
  });
  console.log(`Tidewatch demo network listening on ${sim.url}`);
  const signal = await stopped;
  console.error(`tidewatch sim: ${signal}, stopping`);
  await sim.close();
  return 0;
}
