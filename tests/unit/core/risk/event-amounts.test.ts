import { describe, expect, it } from 'vitest';
import type { Pool } from '../../../../src/shared/api';
import {
  amountsInWords,
  amountsOf,
  EventUnits,
  type AmountContext,
} from '../../../../src/main/core/risk/event-amounts';
import { Store } from '../../../../src/main/core/store/store';

const POOL = {
  pool_id: '0xpool',
  pool_name: 'SUI_USDC',
  base_asset_symbol: 'SUI',
  base_asset_decimals: 9,
  quote_asset_symbol: 'USDC',
  quote_asset_decimals: 6,
} as Pool;
const ctx: AmountContext = {
  poolOfManager: (id) => (id === '0xknown' ? POOL : undefined),
  assetOfMarginPool: (id) => (id === '0xmp-usdc' ? { symbol: 'USDC', decimals: 6 } : undefined),
};
const T = 'dex_margin_manager_updates_';

describe('the amounts of a margin stream event', () => {
  it('puts a deposit in its pool assets, leaving out a zero side', () => {
    const e = { valid: true, type: `${T}deposit`, margin_manager_id: '0xknown' };
    expect(amountsOf(e, { base_asset_amount: 0, quote_asset_amount: '2500000' }, ctx)).toEqual([
      { label: '', raw: '2500000', decimals: 6, symbol: 'USDC' },
    ]);
    expect(amountsInWords(amountsOf(e, { base_asset_amount: 1_500_000_000, quote_asset_amount: 0 }, ctx)!)).toBe(
      '1.5000 SUI',
    );
  });

  it('says what a liquidation repaid, in its margin pool asset, and what it left', () => {
    const e = { valid: true, type: `${T}liquidation`, margin_manager_id: '0xknown' };
    const data = {
      margin_pool_id: '0xmp-usdc',
      liquidation_amount: 1_234_500_000,
      remaining_base_asset: 10_000_000_000,
      remaining_quote_asset: 20_000_000,
    };
    expect(amountsInWords(amountsOf(e, data, ctx)!)).toBe('repaid 1,234.50 USDC, left 10.0000 SUI and 20.00 USDC');
    // A side left at zero is not named, unless nothing at all was left.
    expect(amountsInWords(amountsOf(e, { ...data, remaining_quote_asset: 0 }, ctx)!)).toBe(
      'repaid 1,234.50 USDC, left 10.0000 SUI',
    );
    expect(amountsInWords(amountsOf(e, { ...data, remaining_base_asset: '0', remaining_quote_asset: 0 }, ctx)!)).toBe(
      'repaid 1,234.50 USDC, left 0.0000 SUI and 0.00 USDC',
    );
    // The manager's pool not known: only what the margin pool tells.
    expect(amountsOf({ ...e, margin_manager_id: '0xother' }, data, ctx)).toEqual([
      { label: 'repaid', raw: '1234500000', decimals: 6, symbol: 'USDC' },
    ]);
  });

  it('has none for an invalid event, an unknown manager, or amounts that are not numbers', () => {
    const e = { valid: true, type: `${T}withdraw`, margin_manager_id: '0xknown' };
    expect(amountsOf({ ...e, valid: false }, { quote_asset_amount: 1 }, ctx)).toBeUndefined();
    expect(amountsOf({ ...e, margin_manager_id: '0xother' }, { quote_asset_amount: 1 }, ctx)).toBeUndefined();
    expect(amountsOf(e, { quote_asset_amount: '1e6', base_asset_amount: -3 }, ctx)).toBeUndefined();
  });
});

describe("another trader's manager", () => {
  it('is placed in its pool from its stored creation, as a market liquidation needs', () => {
    const store = Store.openInMemory();
    try {
      store.cache.save('pools', [POOL], 0);
      const created = {
        id: '1800000000000-0',
        type: `${T}manager_created`,
        timestamp_ms: 1_800_000_000_000,
        checkpoint_id: 1,
        tx_hash: 'tx',
        margin_manager_id: '0xother',
        data: JSON.stringify({ margin_manager_id: '0xother', dex_pool_id: POOL.pool_id, owner: '0xwhale' }),
        valid: true,
        problem: null,
      };
      store.margin.commit([created]);
      const units = new EventUnits(store.margin, store.cache, () => undefined);
      // Nothing learnt yet: only the lookup in the stored history places it.
      expect(units.poolNameOf('0xother')).toBeUndefined();
      expect(units.poolNamesOf(['0xother', '0xnever'])).toEqual(['SUI_USDC', undefined]);
      expect(units.poolNameOf('0xother')).toBe('SUI_USDC');
    } finally {
      store.close();
    }
  });
});
