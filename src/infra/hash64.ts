/**
 * A fast 64-bit hash of a string for in-memory sets that only need "maybe the same": the book
 * checks of `ferry push` and the service's filter of reserved identifiers. Not for anything an
 * attacker could exploit (no secret seed); callers confirm every hit.
 */

/** A 64-bit hash of a string as two 32-bit halves: MurmurHash3's mixing over UTF-16 units, two seeds. */
export function hash64(text: string): [number, number] {
  return [murmur32(text, 0x9747b28c), murmur32(text, 0x1b873593)];
}

function murmur32(text: string, seed: number): number {
  let h = seed | 0;
  const n = text.length;
  let i = 0;
  for (; i + 1 < n; i += 2) {
    let k = text.charCodeAt(i) | (text.charCodeAt(i + 1) << 16);
    k = Math.imul(k, 0xcc9e2d51);
    k = (k << 15) | (k >>> 17);
    h ^= Math.imul(k, 0x1b873593);
    h = (h << 13) | (h >>> 19);
    h = (Math.imul(h, 5) + 0xe6546b64) | 0;
  }
  if (i < n) {
    let k = Math.imul(text.charCodeAt(i), 0xcc9e2d51);
    k = (k << 15) | (k >>> 17);
    h ^= Math.imul(k, 0x1b873593);
  }
  h ^= n;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}
