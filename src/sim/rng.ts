/**
 * A seeded pseudo-random generator (sfc32, seeded through splitmix32) so the synthetic chain is
 * the same for the same seed on every machine. Math.random is never used in the sim.
 */
export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seed: number) {
    let s = seed >>> 0;
    const next = (): number => {
      s = (s + 0x9e3779b9) >>> 0;
      let z = s;
      z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
      z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
      return (z ^ (z >>> 16)) >>> 0;
    };
    this.a = next();
    this.b = next();
    this.c = next();
    this.d = next();
    for (let i = 0; i < 12; i++) this.u32();
  }

  /** An independent generator derived from this one and a label (stable across code changes elsewhere). */
  fork(label: string): Rng {
    let h = 2166136261;
    for (let i = 0; i < label.length; i++) h = Math.imul(h ^ label.charCodeAt(i), 16777619);
    return new Rng((this.u32() ^ h) >>> 0);
  }

  /** A generator in the same state, drawing the same numbers from here on. */
  clone(): Rng {
    const r = Object.create(Rng.prototype) as Rng;
    r.a = this.a;
    r.b = this.b;
    r.c = this.c;
    r.d = this.d;
    return r;
  }

  u32(): number {
    const t = (((this.a + this.b) >>> 0) + this.d) >>> 0;
    this.d = (this.d + 1) >>> 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) >>> 0;
    this.c = ((this.c << 21) | (this.c >>> 11)) >>> 0;
    this.c = (this.c + t) >>> 0;
    return t;
  }

  /** Uniform in [0, 1). */
  next(): number {
    return this.u32() / 4294967296;
  }

  /** Integer in [min, max], both inclusive. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  range(min: number, max: number): number {
    return min + this.next() * (max - min);
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('pick from an empty list');
    return items[Math.floor(this.next() * items.length)] as T;
  }

  /** Standard normal (Box-Muller). */
  normal(): number {
    const u = 1 - this.next();
    const v = this.next();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  }

  logNormal(median: number, sigma: number): number {
    return median * Math.exp(sigma * this.normal());
  }

  /** Exponential waiting time with the given mean. */
  exp(mean: number): number {
    return -Math.log(1 - this.next()) * mean;
  }

  hex(bytes: number): string {
    let out = '';
    for (let i = 0; i < bytes; i++) out += (this.u32() & 0xff).toString(16).padStart(2, '0');
    return out;
  }
}

const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

/** 0x + 64 hex digits: the shape of every address and object id on chain. */
export function objectId(rng: Rng): string {
  return `0x${rng.hex(32)}`;
}

/** Little-endian base-58 digits of a digest being made (one module-wide buffer: digests are made one at a time). */
const DIGITS = new Uint8Array(48);

/**
 * A transaction digest: base58 of 32 bytes (43 or 44 characters). Base58 by long division of the
 * bytes in 58s, in small integers: the BigInt of 256 bits it was divided as before allocated at
 * every step, which made digests a noticeable part of a Demo world's start (docs/operations.md,
 * The Demo network, has the figures); the digits are the same.
 */
export function txDigest(rng: Rng): string {
  let len = 0;
  // The number the bytes spell, most significant first, times 256 plus the next byte, in base 58.
  for (let i = 0; i < 32; i++) {
    let carry = rng.u32() & 0xff;
    for (let j = 0; j < len; j++) {
      carry += DIGITS[j]! << 8;
      DIGITS[j] = carry % 58;
      carry = (carry / 58) | 0;
    }
    while (carry > 0) {
      DIGITS[len++] = carry % 58;
      carry = (carry / 58) | 0;
    }
  }
  let out = '';
  for (let k = len - 1; k >= 0; k--) out += BASE58[DIGITS[k]!];
  return out.padStart(43, '1');
}
