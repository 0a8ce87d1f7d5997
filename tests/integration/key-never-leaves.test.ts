import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTRACT_METHODS, type ContractMethod } from '../../src/shared/contract';
import { Monitor } from '../../src/main/core/monitor';
import { MemorySecretStore } from '../../src/main/core/settings';
import { IpcBridge } from '../../src/main/shell/ipc-bridge';
import { tempDir, until } from '../support/monitor';
import { startTestSim, type TestSim } from '../support/sim';

const KEY = 'K3Y-very-secret-0123456789';
// Streams take keys of their own (the real service's), here one for all and one for a pool.
const STREAM_KEY = 'STR3AM-very-secret-9876543210';
const POOL_KEY = 'P00L-very-secret-5555555555';
let t: TestSim;
let m: Monitor;
const dir = tempDir();
let d: ReturnType<TestSim['sim']['world']['describe']>;

beforeAll(async () => {
  t = await startTestSim({ apiKeys: [KEY], streamKeys: [STREAM_KEY], poolStreamKeys: { SUI_USDC: [POOL_KEY] }, historyDays: 0.3 });
  d = t.sim.world.describe();
  m = new Monitor({
    dataDir: dir.dir,
    secrets: new MemorySecretStore(KEY),
    streamSecrets: new MemorySecretStore(JSON.stringify({ all: STREAM_KEY, pools: { SUI_USDC: POOL_KEY } })),
    overrides: { network: 'custom', baseUrl: t.sim.url, streamUrl: t.sim.url },
    watch: [d.marginOwners[0]!],
  }).start();
});
afterAll(async () => {
  await m.close();
  await t.close();
  dir.remove();
});

describe('the API key never crosses to the renderer', () => {
  it('appears in no contract answer or error, over the IPC bridge', async () => {
    await until(() => m.store.margin.count() > 0 || m.supervisor.statuses().some((s) => s.state === 'open'), 15_000, 'stream');
    const bridge = new IpcBridge(m, () => ['app://tidewatch']);
    const frame = { url: 'app://tidewatch/index.html', parent: null };
    const now = Math.floor(Date.now() / 1000);
    const args: Record<ContractMethod, unknown> = {
      walletNfts: { owner: d.wallets[0] },
      kiosk: { kioskId: `0x${'e'.repeat(64)}` }, // an unknown Kiosk: the error path
      collection: { type: d.collections[0] },
      holders: { type: d.collections[0] },
      pools: {},
      depth: { pool: 'NOPE' }, // an unknown pool: the error path
      trades: { pool: 'SUI_USDC', from: now - 600, to: now },
      candles: { pool: 'SUI_USDC', timeframe: '1h', from: now - 86_400, to: now },
      supplyReferral: { id: `0x${'1'.repeat(64)}` },
      supplyReferrals: {},
      supplierCap: { id: `0x${'2'.repeat(64)}` },
      nft: { objectId: `0x${'3'.repeat(64)}` }, // an unknown NFT: the error path
      supplierCaps: {},
      marginManagers: { owner: d.marginOwners[0] },
      liquidations: {},
      activeSupplies: {},
      activeLoans: {},
      marginEvents: {},
      riskHistory: { managerId: '0xabc' },
      portfolio: {},
      manager: { managerId: `0x${'3'.repeat(64)}` }, // an unknown manager
      alerts: {},
      settings: {},
      streamStatus: {},
      watchList: {},
      thresholds: {},
      updateSettings: { privacyMode: false },
      setApiKey: { apiKey: KEY },
      setStreamKey: { pool: 'SUI_USDC', streamKey: POOL_KEY },
      addWatch: { owner: d.marginOwners[1] },
      removeWatch: { owner: d.marginOwners[1] },
      setThreshold: { managerId: '0xabc', warning: 2, critical: 1.5 },
      clearThreshold: { managerId: '0xabc' },
      acknowledgeAlert: { id: 999_999 },
      snoozeAlert: { id: 999_999, untilMs: 1 },
      acknowledgeAllAlerts: {},
      retryStreams: {},
      demoHints: {},
      creditForecast: {},
    };
    const answers: string[] = [];
    for (const method of CONTRACT_METHODS) {
      const answer = await bridge.invoke({ senderFrame: frame } as never, method, args[method]);
      answers.push(JSON.stringify(answer));
    }
    expect(answers.length).toBe(CONTRACT_METHODS.length);
    expect(answers.some((a) => a.includes('"ok":false'))).toBe(true); // error paths were exercised
    for (const a of answers) for (const k of [KEY, STREAM_KEY, POOL_KEY]) expect(a).not.toContain(k);
    expect(answers.find((a) => a.includes('hasApiKey'))).toContain('"hasApiKey":true');
    expect(answers.find((a) => a.includes('hasStreamKey'))).toContain('"hasStreamKey":true,"streamKeyPools":["SUI_USDC"]');
  });
});
