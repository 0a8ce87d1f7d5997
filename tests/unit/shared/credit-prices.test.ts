import { describe, expect, it } from 'vitest';
import { ESTIMATED_CREDITS, priceOf } from '../../../src/shared/credit-prices';

describe('the published price list', () => {
  it('prices each endpoint as published, the unpublished margin lists at an estimate', () => {
    expect(priceOf('/nfts/0xabc')).toEqual({ credits: 5, estimated: false });
    expect(priceOf('/nfts/address/0xabc')).toEqual({ credits: 10, estimated: false });
    expect(priceOf('/kiosks/0xk/nfts')).toEqual({ credits: 10, estimated: false });
    expect(priceOf('/nfts/collection/0x2::m::S')).toEqual({ credits: 15, estimated: false });
    expect(priceOf('/nfts/collection/0x2::m::S/holders')).toEqual({ credits: 50, estimated: false });
    expect(priceOf('/dex/get_pools').credits).toBe(5);
    expect(priceOf('/dex/SUI_USDC/trades').credits).toBe(20);
    expect(priceOf('/dex/SUI_USDC/ohlcv/1h').credits).toBe(25);
    expect(priceOf('/dex/SUI_USDC/order-book-depth').credits).toBe(30);
    expect(priceOf('/dex-margin/active-loans/0xo')).toEqual({ credits: ESTIMATED_CREDITS, estimated: true });
  });
});
