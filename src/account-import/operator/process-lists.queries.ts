/** The operator's process lists and exports: keyset pages of the processes a filter matches. */
import type { MappingProfileRef } from '../../accounts/account-checks.ts';
import type { Queryable } from '../../infra/db/db.ts';
import type { ImportProcessStatus } from '../../vocabulary/import-process-states.ts';
import { wireDatetime } from '../../vocabulary/wire-datetime.ts';
import { filteredQueries, type ProcessFilter } from './process-filter.queries.ts';

/** A process's provenance as one value: {name, version} of its mapping profile, or null. */
export const mappingProfileColumn = `CASE WHEN p.mapping_profile IS NULL THEN NULL
            ELSE jsonb_build_object('name', p.mapping_profile, 'version', p.mapping_profile_version) END AS mapping_profile`;

const listPage = filteredQueries(
  'listImportProcessesByFilter',
  (where, n) =>
    `SELECT p.id, p.import_supplier, p.external_account_number, p.status, p.is_dry_run, p.attempts,
            p.latest_error, a.number AS account_number, p.created_at, p.modified_at, ${mappingProfileColumn}
       FROM import_processes p LEFT JOIN accounts a ON a.id = p.account_id
      WHERE ${where} p.id > $${n}
      ORDER BY p.id
      LIMIT $${n + 1}`,
);

/** A process as the operator's lists and exports show it (no payload: see the process detail). */
export interface ProcessListItem {
  import_supplier: string;
  external_account_number: string;
  status: ImportProcessStatus;
  is_dry_run: boolean;
  attempts: number;
  latest_error: { code: string; detail: string; domain?: string } | null;
  service_account_number: string | null;
  created_at: string;
  modified_at: string;
  /** The mapping profile that built the payload (task_params.mapping_profile); null: none. */
  mapping_profile: MappingProfileRef | null;
}

type ListRow = Omit<ProcessListItem, 'service_account_number' | 'created_at' | 'modified_at'> & {
  id: string;
  account_number: string | null;
  created_at: Date;
  modified_at: Date;
};

const toItem = (r: ListRow): ProcessListItem => ({
  import_supplier: r.import_supplier,
  external_account_number: r.external_account_number,
  status: r.status,
  is_dry_run: r.is_dry_run,
  attempts: r.attempts,
  latest_error: r.latest_error,
  service_account_number: r.account_number,
  created_at: wireDatetime(r.created_at) as string,
  modified_at: wireDatetime(r.modified_at) as string,
  mapping_profile: r.mapping_profile,
});

/**
 * One page of the filtered list after `cursor` (the id of the previous page's last process; '0'
 * from the start), and the cursor of the next page.
 */
export async function listProcessesPage(
  db: Queryable,
  filter: ProcessFilter,
  opts: { cursor: string; limit: number },
): Promise<{ results: ProcessListItem[]; next_cursor: string | null }> {
  const { query, params } = listPage(filter);
  const { rows } = await db.query<ListRow>(query, [...params, opts.cursor, opts.limit]);
  const full = rows.length === opts.limit;
  return { results: rows.map(toItem), next_cursor: full ? String(rows[rows.length - 1].id) : null };
}

export const EXPORT_PAGE_SIZE = 2_000;

/**
 * Every process the filter matches, in id order, one keyset page at a time (decision 0003):
 * memory stays at one page, and nothing is held between pages, so a slow reader blocks no one.
 */
export async function* walkProcesses(
  db: Queryable,
  filter: ProcessFilter,
  pageSize = EXPORT_PAGE_SIZE,
): AsyncGenerator<ProcessListItem> {
  let cursor: string | null = '0';
  while (cursor !== null) {
    const page = await listProcessesPage(db, filter, { cursor, limit: pageSize });
    yield* page.results;
    cursor = page.next_cursor;
  }
}
