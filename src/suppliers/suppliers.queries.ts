import { type Db, isUniqueViolation, type Queryable, sql } from '../infra/db/db.ts';
import { NotifiedCache, type NotifiedCacheOptions } from '../infra/db/notified-cache.ts';
import { SUPPLIER_EVENTS } from '../vocabulary/event-types.ts';
import { IMPORT_PROCESS_STATUSES, type ImportProcessStatus } from '../vocabulary/import-process-states.ts';

export const SUPPLIER_STATUSES = ['Ongoing', 'Paused', 'Complete'] as const;
export type SupplierStatus = (typeof SUPPLIER_STATUSES)[number];

/**
 * Automatic pause (decision 0068): the worker pauses the supplier when at least `share` of its
 * last `window` finished processes (PROCESSED or ERRORED) ended ERRORED.
 */
export interface PauseWhenErrored {
  window: number;
  share: number;
}

export interface SupplierConfig {
  send_welcome_emails: boolean;
  /**
   * A wave's welcome e-mails wait in the outbox until the wave is approved (decision 0070).
   * Absent: false.
   */
  hold_welcome_emails?: boolean;
  dry_run_only: boolean;
  /** Absent or null: off. */
  pause_when_errored?: PauseWhenErrored | null;
}

export const DEFAULT_SUPPLIER_CONFIG: SupplierConfig = { send_welcome_emails: false, dry_run_only: false };

/** The automatic pause a supplier is in (set by the worker, cleared when the operator resumes it). */
export interface AutomaticPause {
  paused_at: string;
  window: number;
  share: number;
  errored: number;
  top_error_codes: { code: string; count: number }[];
}

export interface Supplier {
  code: string;
  status: SupplierStatus;
  document_root: string;
  config: SupplierConfig;
  automatic_pause: AutomaticPause | null;
  created_at: Date;
  modified_at: Date;
}

export type SupplierWithCounts = Supplier & { import_processes: Record<ImportProcessStatus, number> };

const COLUMNS = 'code, status, document_root, config, automatic_pause, created_at, modified_at';

const insertSupplier = sql(
  'insertSupplier',
  `INSERT INTO import_suppliers (code, status, document_root, config) VALUES ($1, $2, $3, $4) RETURNING ${COLUMNS}`,
);
const selectSupplier = sql('selectSupplier', `SELECT ${COLUMNS} FROM import_suppliers WHERE code = $1`);
const selectSuppliers = sql('selectSuppliers', `SELECT ${COLUMNS} FROM import_suppliers ORDER BY code`);
const updateSupplier = sql(
  'updateSupplier',
  `WITH before AS (
     SELECT code, status FROM import_suppliers WHERE code = $1 FOR UPDATE
   ), updated AS (
     UPDATE import_suppliers s
        SET status = coalesce($2, s.status),
            document_root = coalesce($3, s.document_root),
            config = s.config || coalesce($4::jsonb, '{}'::jsonb),
            -- Any status but Paused ends an automatic pause (the dashboard's banner goes).
            automatic_pause = CASE WHEN $2::text IS NOT NULL AND $2::text <> 'Paused' THEN NULL ELSE s.automatic_pause END,
            modified_at = now()
       FROM before b
      WHERE s.code = b.code
     RETURNING ${COLUMNS.split(', ')
       .map((c) => `s.${c}`)
       .join(', ')}, b.status AS previous_status
   ), event AS (
     -- The feed tells of a status change (events, migration 0019).
     INSERT INTO import_supplier_events (import_supplier, event, occurred_at, data)
     SELECT code, '${SUPPLIER_EVENTS.STATUS_CHANGED}', now(), jsonb_build_object('from', previous_status, 'to', status)
       FROM updated WHERE status <> previous_status
   )
   SELECT ${COLUMNS} FROM updated CROSS JOIN LATERAL (SELECT pg_notify('ferry_supplier_changed', code)) n`,
);
// Roots overlap when one is the other or a folder inside it, compared without case: on a
// case-insensitive file system `Acme` and `acme` are one folder.
const selectOverlappingRoot = sql(
  'selectOverlappingDocumentRoot',
  `SELECT code, document_root FROM import_suppliers
    WHERE code <> $1
      AND (starts_with(lower(document_root) || '/', lower($2) || '/')
           OR starts_with(lower($2) || '/', lower(document_root) || '/'))
    ORDER BY code LIMIT 1`,
);
// Blocks other supplier writes (not reads, nor the foreign-key checks of process inserts) until
// commit, so two suppliers cannot take overlapping roots at the same moment.
const lockSuppliersForRootChange = sql(
  'lockSuppliersForRootChange',
  'LOCK TABLE import_suppliers IN SHARE ROW EXCLUSIVE MODE',
);
const countProcesses = sql(
  'countImportProcessesBySupplier',
  `SELECT import_supplier, status, count(*)::int AS n FROM import_processes
    WHERE $1::text IS NULL OR import_supplier = $1 GROUP BY import_supplier, status`,
);

const withDefaults = (s: Supplier): Supplier => ({
  ...s,
  config: { ...DEFAULT_SUPPLIER_CONFIG, ...s.config },
});

export class SupplierExistsError extends Error {}

/** The document root asked for contains another supplier's root, or lies inside it. */
export class DocumentRootOverlapError extends Error {
  constructor(
    readonly documentRoot: string,
    readonly other: { code: string; document_root: string },
  ) {
    super(`document root ${documentRoot} overlaps ${other.code}'s root ${other.document_root}`);
  }
}

/** The default root of a supplier: its code in lower case. */
export const defaultDocumentRoot = (code: string) => code.toLowerCase();

/** Takes the lock, then refuses a root that overlaps another supplier's. */
async function assertRootIsFree(tx: Queryable, code: string, documentRoot: string): Promise<void> {
  await tx.query(lockSuppliersForRootChange);
  const { rows } = await tx.query<{ code: string; document_root: string }>(selectOverlappingRoot, [
    code,
    documentRoot,
  ]);
  if (rows[0]) throw new DocumentRootOverlapError(documentRoot, rows[0]);
}

export async function createSupplier(
  db: Db,
  input: { code: string; status?: SupplierStatus; document_root?: string; config?: Partial<SupplierConfig> },
): Promise<Supplier> {
  const documentRoot = input.document_root ?? defaultDocumentRoot(input.code);
  try {
    return await db.transaction(async (tx) => {
      await assertRootIsFree(tx, input.code, documentRoot);
      const { rows } = await tx.query<Supplier>(insertSupplier, [
        input.code,
        input.status ?? 'Ongoing',
        documentRoot,
        { ...DEFAULT_SUPPLIER_CONFIG, ...input.config },
      ]);
      return withDefaults(rows[0]);
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw new SupplierExistsError(input.code);
    throw err;
  }
}

export async function findSupplier(q: Queryable, code: string): Promise<Supplier | null> {
  const { rows } = await q.query<Supplier>(selectSupplier, [code]);
  return rows[0] ? withDefaults(rows[0]) : null;
}

/** Every API process listens here and drops the supplier from its cache (see NotifiedCache). */
export const SUPPLIER_CHANGED_CHANNEL = 'ferry_supplier_changed';

/** Suppliers by code, from memory: account validation and scheduling ask for one per request. */
export type SupplierCache = NotifiedCache<Supplier>;

export const openSupplierCache = (db: Db, opts: NotifiedCacheOptions = {}): Promise<SupplierCache> =>
  NotifiedCache.open(db, SUPPLIER_CHANGED_CHANNEL, (code) => findSupplier(db, code), opts);

export async function updateSupplierSettings(
  db: Db,
  code: string,
  patch: { status?: SupplierStatus; document_root?: string; config?: Partial<SupplierConfig> },
): Promise<Supplier | null> {
  return db.transaction(async (tx) => {
    if (patch.document_root !== undefined) await assertRootIsFree(tx, code, patch.document_root);
    const { rows } = await tx.query<Supplier>(updateSupplier, [
      code,
      patch.status ?? null,
      patch.document_root ?? null,
      patch.config ?? null,
    ]);
    return rows[0] ? withDefaults(rows[0]) : null;
  });
}

const zeroCounts = () =>
  Object.fromEntries(IMPORT_PROCESS_STATUSES.map((s) => [s, 0])) as Record<ImportProcessStatus, number>;

/** Suppliers (all, or the one named) with their import processes counted per status. */
export async function listSuppliersWithCounts(
  db: Db,
  code: string | null = null,
): Promise<SupplierWithCounts[]> {
  const suppliers =
    code === null
      ? (await db.query<Supplier>(selectSuppliers)).rows
      : (await db.query<Supplier>(selectSupplier, [code])).rows;
  const counts = await db.query<{ import_supplier: string; status: ImportProcessStatus; n: number }>(
    countProcesses,
    [code],
  );
  const bySupplier = new Map<string, Record<ImportProcessStatus, number>>();
  for (const r of counts.rows) {
    const c = bySupplier.get(r.import_supplier) ?? zeroCounts();
    c[r.status] = r.n;
    bySupplier.set(r.import_supplier, c);
  }
  return suppliers.map((s) => ({
    ...withDefaults(s),
    import_processes: bySupplier.get(s.code) ?? zeroCounts(),
  }));
}
