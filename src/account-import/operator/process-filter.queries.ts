/**
 * The operator's process filter (supplier, state, latest error code) as SQL, shared by the
 * lists and exports and by the bulk actions, and the supplier codes an answer lists when the
 * filter names a supplier that does not exist.
 */
import { type Queryable, type Sql, sql } from '../../infra/db/db.ts';
import type { ImportProcessStatus } from '../../vocabulary/import-process-states.ts';

/** The operator's process filter: every part optional, the parts given must all hold. */
export interface ProcessFilter {
  supplier?: string;
  status?: ImportProcessStatus;
  error_code?: string;
}

const FILTER_PARTS = [
  ['supplier', 'p.import_supplier'],
  ['status', 'p.status'],
  ['error_code', "(p.latest_error->>'code')"],
] as const;

/**
 * One statement per combination of filter parts (eight per shape), so each is a plain
 * `col = $n` the planner matches to an index (migration 0010) instead of `$n IS NULL OR ...`.
 * The SQL is made of the fixed fragments above; values are always parameters.
 */
export function filteredQueries(name: string, build: (where: string, next: number) => string) {
  const cache = new Map<string, Sql>();
  return (filter: ProcessFilter): { query: Sql; params: unknown[] } => {
    const used = FILTER_PARTS.filter(([key]) => filter[key] !== undefined);
    const key = used.map(([k]) => k).join('+') || 'all';
    let query = cache.get(key);
    if (!query) {
      const where = used.map(([, column], i) => `${column} = $${i + 1}`);
      query = sql(`${name}_${key}`, build(where.length ? `${where.join(' AND ')} AND` : '', used.length + 1));
      cache.set(key, query);
    }
    return { query, params: used.map(([k]) => filter[k]) };
  };
}

const selectSupplierCodes = sql(
  'selectImportSupplierCodes',
  'SELECT code FROM import_suppliers ORDER BY code LIMIT $1',
);

/** The first `limit` supplier codes, for an answer that lists the allowed ones. */
export async function supplierCodes(db: Queryable, limit: number): Promise<string[]> {
  return (await db.query<{ code: string }>(selectSupplierCodes, [limit])).rows.map((r) => r.code);
}
