/**
 * Which bucket each row of a parent file went to, by its key, in typed arrays: 1.5 million
 * accounts have some 6 million premises, meter points and meters, which a Map of their key
 * strings would hold in over half a gigabyte. A key is kept as a 64-bit hash (two FNV-1a hashes);
 * two keys sharing one can only send a child row to the wrong bucket, where it finds no parent and
 * is reported as an orphan — never attached to the wrong account (decision 0089).
 */

/** Two 32-bit FNV-1a hashes of `text`, with different offsets. */
export function hash64(text: string): [number, number] {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ 0x5bd1e995;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x01000193) ^ (b >>> 15);
  }
  return [a >>> 0, b >>> 0 || 1];
}

export class KeyIndex {
  private hi: Uint32Array;
  private lo: Uint32Array;
  private bucket: Int32Array;
  private line: Uint32Array;
  size = 0;

  constructor(capacity = 1 << 12) {
    this.hi = new Uint32Array(capacity);
    this.lo = new Uint32Array(capacity);
    this.bucket = new Int32Array(capacity);
    this.line = new Uint32Array(capacity);
  }

  private slot(hi: number, lo: number): number {
    const mask = this.lo.length - 1;
    let i = (hi ^ Math.imul(lo, 0x9e3779b1)) & mask;
    while (this.lo[i] !== 0 && (this.lo[i] !== lo || this.hi[i] !== hi)) i = (i + 1) & mask;
    return i;
  }

  /** Records `key` in `bucket`; returns the line that recorded it first, or 0 when it is new. */
  add(key: string, bucket: number, line: number): number {
    const [hi, lo] = hash64(key);
    const i = this.slot(hi, lo);
    if (this.lo[i] !== 0) return this.line[i];
    this.hi[i] = hi;
    this.lo[i] = lo;
    this.bucket[i] = bucket;
    this.line[i] = line;
    if (++this.size * 2 > this.lo.length) this.grow();
    return 0;
  }

  /** The bucket of `key`, or -1 when no row has it. */
  bucketOf(key: string): number {
    const [hi, lo] = hash64(key);
    const i = this.slot(hi, lo);
    return this.lo[i] === 0 ? -1 : this.bucket[i];
  }

  private grow() {
    const { hi, lo, bucket, line } = this;
    const capacity = lo.length * 2;
    this.hi = new Uint32Array(capacity);
    this.lo = new Uint32Array(capacity);
    this.bucket = new Int32Array(capacity);
    this.line = new Uint32Array(capacity);
    for (let j = 0; j < lo.length; j++) {
      if (lo[j] === 0) continue;
      const i = this.slot(hi[j], lo[j]);
      this.hi[i] = hi[j];
      this.lo[i] = lo[j];
      this.bucket[i] = bucket[j];
      this.line[i] = line[j];
    }
  }
}
