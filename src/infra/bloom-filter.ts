/**
 * A Bloom filter over strings: "certainly not added" or "maybe added", in about 1.2 bytes a key at
 * a 1 % false-positive rate (10 bits and 7 probes a key), where a Set of the same keys would take
 * about 100 bytes each. Keys cannot be removed; a caller whose keys go away rebuilds it.
 */
import { hash64 } from './hash64.ts';

const BITS_PER_KEY = 10;
const PROBES = 7;

export class BloomFilter {
  readonly capacity: number;
  #bits: Uint32Array;
  #size: number;
  #added = 0;

  /** `capacity`: the number of keys up to which false positives stay near 1 %. */
  constructor(capacity: number) {
    this.capacity = Math.max(1024, Math.ceil(capacity));
    this.#size = this.capacity * BITS_PER_KEY;
    this.#bits = new Uint32Array(Math.ceil(this.#size / 32));
  }

  /** How many keys were added (repeats included). */
  get added(): number {
    return this.#added;
  }

  add(key: string): void {
    this.#added++;
    this.#probe(key, (bit) => {
      this.#bits[bit >>> 5] |= 1 << (bit & 31);
      return true;
    });
  }

  /** False only when `key` was certainly never added. */
  mightHave(key: string): boolean {
    return this.#probe(key, (bit) => (this.#bits[bit >>> 5] & (1 << (bit & 31))) !== 0);
  }

  /** Double hashing (Kirsch–Mitzenmacher): probe i is h1 + i·h2, from one 64-bit hash. */
  #probe(key: string, at: (bit: number) => boolean): boolean {
    const [h1, h2] = hash64(key);
    for (let i = 0; i < PROBES; i++) {
      if (!at(((h1 + Math.imul(i, h2 | 1)) >>> 0) % this.#size)) return false;
    }
    return true;
  }
}
