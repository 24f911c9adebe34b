/**
 * Indexes of the items whose key already appeared earlier in the list: the second MPAN, the
 * second meter with a serial, the second transaction with an id. Items without a key (undefined)
 * are never duplicates. Keys go into a Map, never an object, so `__proto__` is just a key.
 */
export function findRepeatedIndexes<T>(
  items: readonly T[],
  keyOf: (item: T) => string | undefined,
): number[] {
  if (items.length < 2) return []; // the common case, without building keys or a Set
  const seen = new Set<string>();
  const repeated: number[] = [];
  items.forEach((item, index) => {
    const key = keyOf(item);
    if (key === undefined) return;
    if (seen.has(key)) repeated.push(index);
    else seen.add(key);
  });
  return repeated;
}

/** Joins the parts of a composite key unambiguously (parts may contain any character). */
export function compositeKey(...parts: ReadonlyArray<string | number | boolean | null | undefined>): string {
  return JSON.stringify(parts);
}
