/**
 * Supplier codes a body names: `import_supplier` (or `_code`), bare or wrapped in `payload`. What a
 * key's supplier scope is held to (token-auth.ts); pure, so that a check thread reading a body
 * can say it too.
 */
export function suppliersNamedIn(body: unknown): string[] {
  const named: string[] = [];
  if (isObject(body)) {
    if (typeof body.import_supplier === 'string') named.push(body.import_supplier);
    if (typeof body.import_supplier_code === 'string') named.push(body.import_supplier_code);
    const inner = body.payload;
    if (isObject(inner) && typeof inner.import_supplier === 'string') named.push(inner.import_supplier);
  }
  return named;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
