import {
  DEFAULT_HEARTBEAT_MS,
  DEFAULT_MARGIN_OWNERS,
  DEFAULT_SEED,
  PLAN_NAMES,
  PLANS,
  billLine,
  startSim,
  World,
  type Bill,
  type PlanName,
} from '../sim';
import { CORE_LOCALE, countText } from '../shared/format';
import { intOption, numberOption, parse, untilSignal, UsageError } from './args';

/** How often `--bill-log` (or `--plan`) prints the keys' bills. */
const BILL_LOG_MS = 60_000;

/** Each plan's limits, for the usage: "free 10 req/s, 1 stream, 250,000 credits a month". */
const PLAN_HELP = PLAN_NAMES.map((name) => {
  const p = PLANS[name];
  const streams = `${p.streams} ${p.streams === 1 ? 'stream' : 'streams'}`;
  return `${name} ${p.requestsPerSecond} req/s, ${streams}, ${countText(p.monthlyCredits, CORE_LOCALE)} credits a month`;
});

export const SIM_USAGE = `tidewatch sim: the Demo network, a reference implementation of the chain data service

  tidewatch sim --port 0 --api-key KEY [--stream-key KEY] [--pool-stream-key POOL=KEY]
                [--seed N] [--speed N] [--host 127.0.0.1]
                [--plan ${PLAN_NAMES.join('|')}] [--bill-log] [--no-retry-after] [--pool-resume]
                [--rate-limit N] [--max-streams N] [--heartbeat-ms N] [--retention N] [--anchor-ms MS]
                [--margin-owners N]
  tidewatch sim --describe [--seed N] [--margin-owners N]

  --port N          port to listen on; 0 picks a free one (default 0)
  --api-key KEY     key accepted in the api-key query parameter; repeat for several (default: demo)
  --stream-key KEY  streams take this key (repeat for several) and refuse the api-keys, as the
                    real service's streams do; REST takes only the api-keys (default: streams
                    take the api-keys)
  --pool-stream-key POOL=KEY
                    one pool's stream takes this key instead (repeatable)
  --seed N          seed of the synthetic chain (default ${DEFAULT_SEED})
  --speed N         market activity per second, as a multiple of real time (default 1)
  --host H          address to bind (default 127.0.0.1)
  --plan NAME       enforce a plan of the real service per key, answering 429 beyond it
                    (default: no limits), and log the keys' bills every minute (as --bill-log):
${PLAN_HELP.map((line) => `                      ${line}`).join('\n')}
  --bill-log        log every key's bill (credits, as the real service would charge them) every
                    minute, also without --plan; GET /__sim/credits?api-key=KEY answers it any time
  --no-retry-after  429s without a Retry-After header (the real service documents none)
  --pool-resume     pool streams resume after last-id (or Last-Event-ID) by replaying the pool's
                    retained trades, as the real service documents (default: off, as in the
                    service contract)
  --rate-limit N    requests per second per key before 429 (default: none, or the plan's)
  --max-streams N   streams open at once per key before 429 (default: none)
  --heartbeat-ms N  interval of ': ping' comments on streams (default ${DEFAULT_HEARTBEAT_MS})
  --retention N     margin stream events kept for last-id=0 (default 10000)
  --anchor-ms MS    wall time (UNIX ms) the synthetic history ends at (default: now); a sim
                    restarted with the same seed and anchor serves the same chain and event ids
  --margin-owners N owners of margin managers (default ${DEFAULT_MARGIN_OWNERS}): a desk of many wallets,
                    each with about as many loans (100 owners hold about 1,100 loans); another
                    number makes another chain of the same seed
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
    'bill-log': { type: 'boolean' },
    'no-retry-after': { type: 'boolean' },
    'pool-resume': { type: 'boolean' },
    'max-streams': { type: 'string' },
    'heartbeat-ms': { type: 'string' },
    retention: { type: 'string' },
    'anchor-ms': { type: 'string' },
    'margin-owners': { type: 'string' },
    describe: { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  });
  if (o.help) {
    console.log(SIM_USAGE);
    return 0;
  }
  const seed = intOption('seed', o.seed, 0, 2 ** 32 - 1) ?? DEFAULT_SEED;
  const marginOwners = intOption('margin-owners', o['margin-owners'], 1, 10_000);
  if (o.describe) {
    console.log(JSON.stringify(new World({ seed, marginOwners }).describe()));
    return 0;
  }
  if (o.plan !== undefined && !(PLAN_NAMES as string[]).includes(o.plan))
    throw new UsageError(`--plan must be one of ${PLAN_NAMES.join(', ')} (got "${o.plan}")`);
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
    marginOwners,
  });
  console.log(`Tidewatch demo network listening on ${sim.url}`);
  // Quiet unless asked: a plan is about what the usage costs, so it logs the bills too.
  const billLog =
    o['bill-log'] === true || o.plan !== undefined ? setInterval(() => logBills(sim.bills()), BILL_LOG_MS) : undefined;
  const signal = await stopped;
  clearInterval(billLog);
  console.error(`tidewatch sim: ${signal}, stopping`);
  await sim.close();
  return 0;
}

/** One line per key with a bill above zero (an open stream's heartbeats alone make one). */
function logBills(bills: Bill[]): void {
  for (const b of bills) if (b.total > 0) console.log(`tidewatch sim: ${billLine(b)}`);
}
