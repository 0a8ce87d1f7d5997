import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTRACT_METHODS, type ContractMethod } from '../../../src/shared/contract';
import { MonitorHarness } from '../../support/monitor-harness';
import { MemorySecretStore } from '../../../src/main/core/settings';
import { IpcBridge } from '../../../src/main/shell/ipc-bridge';
import { tempDir, until } from '../../support/monitor';
import { startTestSim, type TestSim } from '../../support/sim';

const KEY = 'K3Y-very-secret-0123456789';
// Streams take keys of their own (the real service's), here one for all and one for a pool.
const STREAM_KEY = 'STR3AM-very-secret-9876543210';
const POOL_KEY = 'P00L-very-secret-5555555555';
// The alert channels' secrets: a bot token, a webhook URL, a signing secret, an SMTP password, the heartbeat URL.
const TG_TOKEN = '123456:TG-very-secret-token-abcdef';
const DISCORD_URL = 'http://127.0.0.1:9/api/webhooks/1/DISCORD-very-secret';
const HOOK_SECRET = 'whsec_SGVsbG8tdmVyeS1zZWNyZXQtaG9vaw==';
const SMTP_PASSWORD = 'SMTP-very-secret-password';
const HEARTBEAT = 'http://127.0.0.1:9/ping/HEARTBEAT-very-secret';
const CHANNEL_SECRETS = [TG_TOKEN, DISCORD_URL, HOOK_SECRET, SMTP_PASSWORD, HEARTBEAT];
const logLines: string[] = [];
let t: TestSim;
let m: MonitorHarness;
const dir = tempDir();
let d: ReturnType<TestSim['sim']['world']['describe']>;

beforeAll(async () => {
  t = await startTestSim({
    apiKeys: [KEY],
    streamKeys: [STREAM_KEY],
    poolStreamKeys: { SUI_USDC: [POOL_KEY] },
    historyDays: 0.3,
  });
  d = t.sim.world.describe();
  m = new MonitorHarness({
    dataDir: dir.dir,
    secrets: new MemorySecretStore(KEY),
    streamSecrets: new MemorySecretStore(JSON.stringify({ all: STREAM_KEY, pools: { SUI_USDC: POOL_KEY } })),
    notifySecrets: new MemorySecretStore(
      JSON.stringify({
        channels: [
          { type: 'discord', url: DISCORD_URL },
          { type: 'webhook', url: 'http://127.0.0.1:9/hook', secret: HOOK_SECRET },
          {
            type: 'email',
            smtp: { host: '127.0.0.1', port: 9, user: 'me', password: SMTP_PASSWORD },
            from: 'tw@example.org',
            to: 'me@example.org',
          },
        ],
      }),
    ),
    log: (line) => logLines.push(line),
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
    await until(
      () => m.store.margin.count() > 0 || m.streams.supervisor.statuses().some((s) => s.state === 'open'),
      15_000,
      'stream',
    );
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
      marginEventsByIds: { ids: ['0-0'] },
      riskHistory: { managerId: '0xabc' },
      poolHealth: {},
      liquidationMap: { pool: 'SUI_USDC' },
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
      updateWatch: { owner: d.marginOwners[1], label: 'desk 2', group: 'watched' },
      removeWatch: { owner: d.marginOwners[1] },
      setThreshold: { managerId: '0xabc', warning: 2, critical: 1.5 },
      clearThreshold: { managerId: '0xabc' },
      acknowledgeAlert: { id: 999_999 },
      snoozeAlert: { id: 999_999, untilMs: 1 },
      acknowledgeAllAlerts: {},
      retryStreams: {},
      demoHints: {},
      creditForecast: {},
      notifyChannels: {},
      saveNotifyChannel: {
        channel: { type: 'telegram', name: 'tg', botToken: TG_TOKEN, chatId: '42', apiRoot: 'http://127.0.0.1:9' },
      },
      removeNotifyChannel: { name: 'nope' }, // the error path
      updateNotifyOptions: { heartbeatUrl: HEARTBEAT },
      notifyTest: {}, // every channel fails (nothing listens on port 9): the words of each failure
    };
    const answers: string[] = [];
    for (const method of CONTRACT_METHODS) {
      const answer = await bridge.invoke({ senderFrame: frame } as never, method, args[method]);
      answers.push(JSON.stringify(answer));
    }
    expect(answers.length).toBe(CONTRACT_METHODS.length);
    expect(answers.some((a) => a.includes('"ok":false'))).toBe(true); // error paths were exercised
    for (const a of answers)
      for (const k of [KEY, STREAM_KEY, POOL_KEY, ...CHANNEL_SECRETS]) expect(a).not.toContain(k);
    for (const line of logLines)
      for (const k of [KEY, STREAM_KEY, POOL_KEY, ...CHANNEL_SECRETS]) expect(line).not.toContain(k);
    // The test reached every channel and said why each failed, in words.
    const tested = JSON.parse(answers[CONTRACT_METHODS.indexOf('notifyTest')]!) as {
      ok: boolean;
      result: { results: Array<{ channel: string; ok: boolean; message: string }> };
    };
    expect(tested.result.results.map((r) => r.channel).sort()).toEqual(['discord', 'email', 'tg', 'webhook']);
    expect(tested.result.results.every((r) => !r.ok && /could not be reached|did not answer/.test(r.message))).toBe(
      true,
    );
    const view = JSON.parse(answers[CONTRACT_METHODS.indexOf('updateNotifyOptions')]!) as {
      result: { heartbeatSet: boolean; channels: Array<{ name: string; secrets: Record<string, boolean> }> };
    };
    expect(view.result.heartbeatSet).toBe(true);
    expect(view.result.channels.find((c) => c.name === 'tg')?.secrets).toEqual({ botToken: true });
    expect(view.result.channels.find((c) => c.name === 'email')?.secrets).toEqual({ 'smtp.password': true });
    expect(answers.find((a) => a.includes('hasApiKey'))).toContain('"hasApiKey":true');
    expect(answers.find((a) => a.includes('hasStreamKey'))).toContain(
      '"hasStreamKey":true,"streamKeyPools":["SUI_USDC"]',
    );
  });
});
