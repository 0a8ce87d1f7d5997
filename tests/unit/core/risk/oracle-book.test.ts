import { describe, expect, it } from 'vitest';
import { OracleBook } from '../../../../src/main/core/risk/oracle-book';
import type { UsdPrice } from '../../../../src/shared/portfolio';

const DEEP = '0xdee::deep::DEEP';
const at = (usd: number, ms: number): UsdPrice => ({ symbol: 'DEEP', usd, source: 'exchange', at: ms });

/** DEEP's valuation when its oracle price was learnt at `oracle` with the exchange at `exchangeThen`, and the exchange is at `exchangeNow` since. */
function valued(oracle: number, exchangeThen: number, exchangeNow: number): number {
  const book = new OracleBook();
  book.noteRecord(DEEP, oracle, 1_000, exchangeThen);
  return book.price(DEEP, 'DEEP', at(exchangeNow, 61_000), 61_000)!.usd;
}

describe('an oracle price between two reads of the records', () => {
  it('moves with the exchange, the basis as it was learnt, while the exchange moves away from the oracle', () => {
    expect(valued(1.001, 1, 0.98)).toBeCloseTo(0.98098, 9);
    // Learnt 12 % under an exchange that then rose 5 %: still 12 % under it.
    expect(valued(0.88, 1, 1.05)).toBeCloseTo(0.924, 9);
  });

  it('does not count a jump twice: an exchange falling to an oracle that fell before it leaves the oracle where it was', () => {
    // A cascade: the oracle fell 12 % and was learnt so while the book still traded at $1.00;
    // the book then fell to meet it. Moved by the whole fall again it read $0.7744, 12 % under
    // both, and 25 longs the service held at 1.250 read liquidatable (issue 40's review).
    expect(valued(0.88, 1, 0.88)).toBeCloseTo(0.88, 9);
    // Half way: the oracle is still where it was learnt.
    expect(valued(0.88, 1, 0.94)).toBeCloseTo(0.88, 9);
    // Past it: the move beyond the gap is new, and the two agree.
    expect(valued(0.88, 1, 0.8)).toBeCloseTo(0.8, 9);
    // The same upward: an oracle learnt 10 % over the book, the book rising to it and 2 % past.
    expect(valued(1.1, 1, 1.1)).toBeCloseTo(1.1, 9);
    expect(valued(1.1, 1, 1.122)).toBeCloseTo(1.122, 9);
    // A basis of 0.1 % closes the same way: the book rising 2 % reads 2 % up, not 2.1 %.
    expect(valued(1.001, 1, 1.02)).toBeCloseTo(1.02, 9);
  });
});
