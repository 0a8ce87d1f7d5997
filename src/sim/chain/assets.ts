/** Assets and pools of the Demo network, with the decimals and sizes of the real exchange. */
export interface Asset {
  symbol: string;
  name: string;
  type: string;
  decimals: number;
  /** USD price at the start of the synthetic history. */
  usd: number;
  /** Daily volatility of its USD price (a fraction). */
  dailyVol: number;
}

export const ASSETS: Record<string, Asset> = {
  SUI: {
    symbol: 'SUI',
    name: 'Sui',
    type: '0x0000000000000000000000000000000000000000000000000000000000000002::sui::SUI',
    decimals: 9,
    usd: 3.38,
    dailyVol: 0.06,
  },
  USDC: {
    symbol: 'USDC',
    name: 'USDC',
    type: '0xdba34672e30cb065b1f93e3ab55318768fd6fef66c15942c9f7cb846e2f900e7::usdc::USDC',
    decimals: 6,
    usd: 1,
    dailyVol: 0,
  },
  DEEP: {
    symbol: 'DEEP',
    name: 'DeepBook Token',
    type: '0xdeeb7a4662eec9f2f3def03fb937a663dddaa2e215b8078a284d026b7946c270::deep::DEEP',
    decimals: 6,
    usd: 0.171,
    dailyVol: 0.09,
  },
  WAL: {
    symbol: 'WAL',
    name: 'WAL Token',
    type: '0x356a26eb9e012a68958082340d4c4116e7f55615cf27affcff209cf0ae544f59::wal::WAL',
    decimals: 9,
    usd: 0.412,
    dailyVol: 0.08,
  },
  NS: {
    symbol: 'NS',
    name: 'SuiNS Token',
    type: '0x5145494a5f5100e645e4b0aa950fa6b68f614e8c59e17bc5ded3495123a79178::ns::NS',
    decimals: 6,
    usd: 0.105,
    dailyVol: 0.08,
  },
  XBTC: {
    symbol: 'XBTC',
    name: 'xBTC',
    type: '0x876a4b7bce8aeaef60464c11f4026903e9afacab79b9b142686158aa86560b50::xbtc::XBTC',
    decimals: 8,
    usd: 97_250,
    dailyVol: 0.03,
  },
};

export interface PoolSpec {
  name: string;
  base: string;
  quote: string;
  /** Raw units, as Get Pools reports them. */
  tickSize: number;
  lotSize: number;
  minSize: number;
  /** Mean seconds between trades at speed 1. */
  tradeEverySec: number;
  /** Typical trade notional in USD. */
  tradeUsd: number;
  marginEnabled: boolean;
  /** Risk parameters where this pool's differ from the protocol defaults (margin.ts RISK). */
  risk?: Partial<RiskSpec>;
}

export interface RiskSpec {
  minWithdraw: number;
  minBorrow: number;
  liquidation: number;
  targetLiquidation: number;
  liquidatorReward: number;
  poolReward: number;
}

export const POOL_SPECS: PoolSpec[] = [
  {
    name: 'SUI_USDC',
    base: 'SUI',
    quote: 'USDC',
    tickSize: 100,
    lotSize: 100_000_000,
    minSize: 1_000_000_000,
    tradeEverySec: 12,
    tradeUsd: 900,
    marginEnabled: true,
  },
  {
    name: 'DEEP_SUI',
    base: 'DEEP',
    quote: 'SUI',
    tickSize: 10_000_000,
    lotSize: 1_000_000,
    minSize: 10_000_000,
    tradeEverySec: 40,
    tradeUsd: 300,
    marginEnabled: false,
  },
  {
    name: 'DEEP_USDC',
    base: 'DEEP',
    quote: 'USDC',
    tickSize: 10_000,
    lotSize: 1_000_000,
    minSize: 10_000_000,
    tradeEverySec: 25,
    tradeUsd: 400,
    marginEnabled: true,
  },
  {
    name: 'WAL_USDC',
    base: 'WAL',
    quote: 'USDC',
    tickSize: 10,
    lotSize: 100_000_000,
    minSize: 1_000_000_000,
    tradeEverySec: 30,
    tradeUsd: 350,
    marginEnabled: true,
    risk: { minWithdraw: 2.2, minBorrow: 1.35, liquidation: 1.2, targetLiquidation: 1.35, poolReward: 0.05 },
  },
  {
    name: 'NS_SUI',
    base: 'NS',
    quote: 'SUI',
    tickSize: 1_000_000,
    lotSize: 100_000,
    minSize: 1_000_000,
    tradeEverySec: 90,
    tradeUsd: 150,
    marginEnabled: false,
  },
  {
    name: 'XBTC_USDC',
    base: 'XBTC',
    quote: 'USDC',
    tickSize: 1_000_000,
    lotSize: 1_000,
    minSize: 10_000,
    tradeEverySec: 60,
    tradeUsd: 2500,
    marginEnabled: true,
    risk: {
      minWithdraw: 1.8,
      minBorrow: 1.2,
      liquidation: 1.1,
      targetLiquidation: 1.2,
      liquidatorReward: 0.005,
      poolReward: 0.025,
    },
  },
];
