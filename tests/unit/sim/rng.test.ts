import { describe, expect, it } from 'vitest';
import { Rng, txDigest } from '../../../src/sim/rng';

describe('transaction digests', () => {
  /** Base58 of the 32 bytes as one BigInt: what the digests were made with before. */
  function bigIntDigest(rng: Rng): string {
    const alphabet = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
    let n = 0n;
    for (let i = 0; i < 32; i++) n = (n << 8n) | BigInt(rng.u32() & 0xff);
    let out = '';
    while (n > 0n) {
      out = alphabet[Number(n % 58n)] + out;
      n /= 58n;
    }
    return out.padStart(43, '1');
  }

  it('are the base58 of 32 bytes, digit for digit, so a seed still makes the same world', () => {
    for (let seed = 0; seed < 2_000; seed++) expect(txDigest(new Rng(seed))).toBe(bigIntDigest(new Rng(seed)));
    // Leading zero bytes (a small number) pad with '1', as before.
    const zeros = { u32: () => 0 } as unknown as Rng;
    expect(txDigest(zeros)).toBe('1'.repeat(43));
  });
});
