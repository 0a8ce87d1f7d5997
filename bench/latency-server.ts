/**
 * The margin stream at a steady background rate with liquidations of one manager mixed in, run as its own
 * process by bench/alert-latency.ts. Each liquidation's send time (the machine's monotonic
 * clock, `process.hrtime`, the same in every process) goes to the parent over IPC
 * right after its bytes are handed to the socket. Every other path answers 404 at once.
 *
 * argv: perSecond liquidationEveryMs owner manager
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { EVENT_TYPES } from '../src/shared/api';

const [perSecond, liquidationEveryMs, owner, manager] = [
  Number(process.argv[2]),
  Number(process.argv[3]),
  process.argv[4]!,
  process.argv[5]!,
];
const now = (): number => Number(process.hrtime.bigint()) / 1e6;
const open = new Set<ServerResponse>();
let seq = 0;
let lastMs = 0;

function frame(type: string, data: Record<string, unknown>): { id: string; text: string } {
  const ms = Date.now();
  seq = ms === lastMs ? seq + 1 : 0;
  lastMs = ms;
  const id = `${ms}-${seq}`;
  const body = {
    type,
    timestamp_ms: ms,
    checkpoint_id: 200_000_000 + ms,
    tx_hash: `bench${id}`,
    data: { ...data, timestamp: ms },
  };
  return { id, text: `id: ${id}\ndata: ${JSON.stringify(body)}\n\n` };
}

const created = frame(EVENT_TYPES.managerCreated, {
  margin_manager_id: manager,
  balance_manager_id: manager,
  dex_pool_id: '0x1',
  owner,
});

const server = createServer((req, res) => {
  if (!req.url?.startsWith('/dex-margin/manager-updates')) {
    res
      .writeHead(404, { 'content-type': 'application/json' })
      .end('{"error":{"code":"not_found","message":"not in this bench"}}');
    return;
  }
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  res.write(created.text);
  open.add(res);
  res.on('close', () => open.delete(res));
});
server.listen(0, '127.0.0.1', () => process.send!({ port: (server.address() as AddressInfo).port }));

// Every millisecond or so: the events due by now at `perSecond`, one write per connection; a
// liquidation of `manager` every `liquidationEveryMs`.
const started = now();
let sent = 0;
let nextLiquidation = started + liquidationEveryMs;
let n = 0;
const tick = (): void => {
  const t = now();
  const due = Math.floor(((t - started) / 1000) * perSecond);
  let text = '';
  const liquidations: string[] = [];
  while (sent < due) {
    sent++;
    if (t >= nextLiquidation && liquidations.length === 0) {
      nextLiquidation += liquidationEveryMs;
      const f = frame(EVENT_TYPES.liquidation, {
        margin_manager_id: manager,
        margin_pool_id: '0x2',
        liquidation_amount: 1_000_000,
        pool_reward: 40_000,
        pool_default: 0,
        risk_ratio: 1_100_000,
        remaining_base_asset: 10,
        remaining_quote_asset: 10,
      });
      liquidations.push(f.id);
      text += f.text;
    } else {
      const m = `0x${(n++ % 5_000).toString(16).padStart(64, '0')}`;
      text += frame(EVENT_TYPES.deposit, {
        margin_manager_id: m,
        base_asset_amount: 0,
        quote_asset_amount: 1_000_000 + n,
      }).text;
    }
  }
  if (text && open.size > 0) {
    for (const res of open) res.write(text);
    const at = now();
    for (const id of liquidations) process.send!({ id, at });
  }
  setTimeout(tick, 1);
};
setTimeout(tick, 1);
process.on('disconnect', () => process.exit(0));
