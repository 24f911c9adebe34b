/**
 * Which input line first gave a key, for the whole-book checks of `ferry push accounts
 * --validate-only` over millions of keys: each key is kept as a 64-bit hash and a line number in
 * typed arrays (open addressing, linear probing), 12 bytes a slot, instead of a Map of strings
 * (≈ 100 bytes a key, and a heap the garbage collector walks). A hash says only "maybe the same":
 * the caller confirms each hit by reading the other line again, so a collision costs one read and
 * never reports a conflict that is not there.
 */
/** Slots filled before the table grows: linear probing stays short below it. */
const MAX_LOAD = 0.7;
const GROWTH = 1.6;

export class LineTable {
  #capacity: number;
  #high: Uint32Array;
  #low: Uint32Array;
  /** The line of each slot; 0 is an empty slot (lines are numbered from 1). */
  #line: Uint32Array;
  #size = 0;

  /** `expected`: about how many keys it will hold (it grows past that). */
  constructor(expected: number) {
    this.#capacity = Math.max(1024, Math.ceil(expected / MAX_LOAD));
    this.#high = new Uint32Array(this.#capacity);
    this.#low = new Uint32Array(this.#capacity);
    this.#line = new Uint32Array(this.#capacity);
  }

  get size() {
    return this.#size;
  }

  /** Bytes held by the table. */
  get bytes() {
    return this.#capacity * 12;
  }

  /**
   * The first line holding the same key as `line`, or 0 when none does, in which case `line` is
   * recorded for it. `same(other)` confirms a hash hit by comparing the lines themselves; a hit it
   * does not confirm (a collision) is passed over, and so is a hit on `line` itself (another of
   * its keys, with the same hash).
   */
  firstLineOf(hash: [number, number], line: number, same: (other: number) => boolean): number {
    const [high, low] = hash;
    let i = this.#home(high);
    for (;;) {
      const other = this.#line[i];
      if (other === 0) break;
      if (this.#high[i] === high && this.#low[i] === low && other !== line && same(other)) return other;
      if (++i === this.#capacity) i = 0;
    }
    this.#high[i] = high;
    this.#low[i] = low;
    this.#line[i] = line;
    if (++this.#size > this.#capacity * MAX_LOAD) this.#grow();
    return 0;
  }

  /** The home slot of a hash: its high half scaled to the capacity (any capacity, not only powers of 2). */
  #home(high: number): number {
    return Math.floor((high / 4294967296) * this.#capacity);
  }

  #grow(): void {
    const high = this.#high;
    const low = this.#low;
    const line = this.#line;
    this.#capacity = Math.ceil(this.#capacity * GROWTH);
    this.#high = new Uint32Array(this.#capacity);
    this.#low = new Uint32Array(this.#capacity);
    this.#line = new Uint32Array(this.#capacity);
    for (let j = 0; j < line.length; j++) {
      if (line[j] === 0) continue;
      let i = this.#home(high[j]);
      while (this.#line[i] !== 0) if (++i === this.#capacity) i = 0;
      this.#high[i] = high[j];
      this.#low[i] = low[j];
      this.#line[i] = line[j];
    }
  }
}
