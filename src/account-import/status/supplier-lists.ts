import type { Readable } from 'node:stream';
import { type Db, type Sql, sql } from '../../infra/db/db.ts';
import { wireDatetime } from '../../vocabulary/wire-datetime.ts';
import { textStream } from '../operator/process-exports.ts';
import { sqlWord } from '../process-state-sql.ts';

export type ProcessListKind = 'all' | 'pending' | 'imported';

// Pending: no account and not cancelled. Imported: has an account. All: either.
const CANCELLED = sqlWord('CANCELLED');
const FILTERS: Record<ProcessListKind, string> = {
  all: `(p.account_id IS NOT NULL OR p.status <> ${CANCELLED})`,
  pending: `p.account_id IS NULL AND p.status <> ${CANCELLED}`,
  imported: 'p.account_id IS NOT NULL',
};

const pageQueries = Object.fromEntries(
  Object.entries(FILTERS).map(([kind, filter]) => [
    kind,
    sql(
      `listImportProcesses_${kind}`,
      `SELECT p.id, p.external_account_number, a.number AS account_number, a.created_at AS account_created_at
         FROM import_processes p LEFT JOIN accounts a ON a.id = p.account_id
        WHERE p.import_supplier = $1 AND p.id > $2 AND ${filter}
        ORDER BY p.id
        LIMIT $3`,
    ),
  ]),
) as Record<ProcessListKind, Sql>;

interface ListRow {
  id: string;
  external_account_number: string;
  account_number: string | null;
  account_created_at: Date | null;
}

export const LIST_PAGE_SIZE = 2_000;

/**
 * Walks a supplier's processes in id order, one page at a time (keyset pagination): memory
 * stays at one page whatever the list's length, and no transaction or connection is held
 * between pages, so a slow reader never blocks writers.
 */
export async function* listImportProcesses(
  db: Db,
  supplier: string,
  kind: ProcessListKind,
  pageSize = LIST_PAGE_SIZE,
) {
  let after = '0';
  for (;;) {
    const { rows } = await db.query<ListRow>(pageQueries[kind], [supplier, after, pageSize]);
    for (const r of rows) {
      yield {
        external_account_number: r.external_account_number,
        service_account_number: r.account_number,
        account_created_at: wireDatetime(r.account_created_at),
      };
    }
    if (rows.length < pageSize) return;
    after = rows[rows.length - 1].id;
  }
}

/** The list as a JSON array byte stream; pages are serialised as they arrive. */
export function listAsJsonStream(db: Db, supplier: string, kind: ProcessListKind): Readable {
  return textStream(listImportProcesses(db, supplier, kind), {
    head: '[',
    line: (rec, i) => (i === 0 ? '' : ',') + JSON.stringify(rec),
    tail: ']',
  });
}
