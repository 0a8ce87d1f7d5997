import type { CreditForecast, Settings } from '../../../src/shared/contract';

/** Settings of a custom network with an API key, on the Free plan. */
export const SETTINGS: Settings = {
  network: 'custom',
  baseUrl: 'https://api.example',
  streamUrl: '',
  naming: 'spec',
  plan: 'free',
  requestsPerSecond: 10,
  concurrency: 4,
  streamBudget: 1,
  recordsRefreshSec: 10_800,
  warningRatio: 1.2,
  criticalRatio: 1.15,
  nearLiquidationPct: 3,
  interestAlertDays: 30,
  rateAlertPct: 30,
  dustDebtUsd: 50,
  alertCooldownSec: 900,
  groupRules: { mine: 'alert', watched: 'info' },
  digestAt: null,
  digestZone: null,
  digestChannels: [],
  largeLiquidationUsd: null,
  monthlyCreditBudget: null,
  ipfsGateway: 'https://ipfs.io',
  privacyMode: false,
  alertSound: true,
  startAtLogin: false,
  hasApiKey: true,
  keyProtection: 'os-keyring',
  hasStreamKey: false,
  streamKeyPools: [],
};

/** The same on the Demo network, without an API key. */
export const DEMO_SETTINGS: Settings = { ...SETTINGS, network: 'demo', baseUrl: '', hasApiKey: false };

/** A forecast on the Free plan: 6,874 credits a day, no pool stream open. */
export const FORECAST: CreditForecast = {
  perDay: 6_874,
  lines: [
    { what: 'Margin stream (always open: the liquidation alarm)', perDay: 50, detail: 'assumed until measured' },
    { what: 'SUI price', perDay: 5_760, detail: 'every 5 min, 20 credits a read' },
    {
      what: 'Margin records (loans, deposits, supplies)',
      perDay: 1_064,
      detail: 'every 3.0 h, 40 credits a read (2 wallets)',
    },
  ],
  plan: 'free',
  planLabel: 'Free',
  planMonthlyCredits: 250_000,
  shareOfPlanDay: 6_874 / (250_000 / 30),
  budget: 250_000,
  shareOfBudgetDay: 6_874 / (250_000 / 30),
  poolStreams: [],
  reads: {
    prices: [{ symbol: 'SUI', everyMs: 300_000, slowed: false, why: 'far from liquidation', readAt: null }],
    recordsEveryMs: 10_800_000,
    recordsSlowed: false,
    pace: 1,
    budgetNote: null,
  },
  preview: false,
  demo: null,
};
