import { describe, expect, it } from 'vitest';
import { parseShocks, shockAssetsError } from '../../../src/cli/risk-command';

describe('tidewatch risk --shock: which assets it takes', () => {
  const known = ['SUI', 'USDC', 'DEEP'];

  it('takes known non-stable assets and ALL, in any case', () => {
    expect(shockAssetsError(parseShocks(['sui=-15%', 'Deep=+5%', 'ALL=-10%', '*=-1%']), known)).toBeNull();
  });

  it('refuses a typo and a stablecoin, saying what it knows and what to do', () => {
    expect(shockAssetsError(parseShocks(['SUI=-15%', 'FOO=-10%']), known)).toBe(
      'Unknown asset FOO in --shock. Known assets: DEEP, SUI (or ALL for every one of them); stablecoins (USDC) never move. Check the spelling and run again.',
    );
    expect(shockAssetsError(parseShocks(['USDC=-10%']), known)).toBe(
      'USDC is a stablecoin: Tidewatch counts it at $1, so a shock never moves it. Shock DEEP, SUI (or ALL for every one of them) instead.',
    );
    // A kept Portfolio with no position knows no asset: only ALL can be asked.
    expect(shockAssetsError(parseShocks(['SUI=-1%']), [])).toBe(
      'Unknown asset SUI in --shock. Tidewatch knows no asset that moves yet: give --watch OWNER to read a wallet now, or shock ALL.',
    );
  });
});
