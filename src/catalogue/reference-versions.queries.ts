/**
 * What every reference upload shares: its version row (number, who, when, counts), the change
 * notification every process listens for, the in-use count of values an upload leaves out, and
 * the streamed reading of an upload's lines (up to 100 MB, past the 5 MiB body limit).
 */

import type { ErrorCode } from '../errors/error-catalogue.ts';
import { apiError } from '../errors/error-catalogue.ts';
import type { Queryable } from '../infra/db/db.ts';
import { sql } from '../infra/db/db.ts';

/** Every process listens here and reloads its reference data (reference-cache.ts). */
export const REFERENCE_CHANGED_CHANNEL = 'ferry_reference_changed';
/** An upload's limit, far past a whole catalogue (5,000 products × 42 tariffs is about 30 MB). */
export const MAX_UPLOAD_BYTES = 100 * 1000 * 1000;
/** Errors answered at most: a file that is wrong throughout says so in the first hundred. */
export const MAX_REPORTED_ERRORS = 100;
/** Values an in-use refusal names (it counts them all). */
const NAMED_IN_USE = 20;

export interface ReferenceVersion {
  registry: string;
  version: number;
  uploaded_by: string;
  uploaded_at: Date;
  counts: Record<string, number>;
}

// Uploads of one registry take turns: the version numbers and the in-use count need the
// previous version settled. The lock is the table's, held to the commit (uploads are rare).
const lockVersions = sql(
  'lockReferenceVersions',
  'LOCK TABLE reference_versions IN SHARE ROW EXCLUSIVE MODE',
);
const selectCurrentVersion = sql(
  'selectCurrentReferenceVersion',
  `SELECT registry, version, uploaded_by, uploaded_at, counts FROM reference_versions
    WHERE registry = $1 ORDER BY version DESC LIMIT 1`,
);
const selectVersion = sql(
  'selectReferenceVersion',
  `SELECT registry, version, uploaded_by, uploaded_at, counts FROM reference_versions
    WHERE registry = $1 AND version = $2`,
);
const selectVersions = sql(
  'selectReferenceVersions',
  `SELECT registry, version, uploaded_by, uploaded_at, counts FROM reference_versions
    WHERE registry = $1 ORDER BY version DESC LIMIT $2`,
);
const selectCurrentVersions = sql(
  'selectCurrentReferenceVersions',
  `SELECT DISTINCT ON (registry) registry, version, uploaded_by, uploaded_at, counts
     FROM reference_versions ORDER BY registry, version DESC`,
);
const insertVersion = sql(
  'insertReferenceVersion',
  `INSERT INTO reference_versions (registry, version, uploaded_by, counts) VALUES ($1, $2, $3, $4)
   RETURNING registry, version, uploaded_by, uploaded_at, counts`,
);
const notifyChanged = sql('notifyReferenceChanged', `SELECT pg_notify('${REFERENCE_CHANGED_CHANNEL}', $1)`);
// Who names a value: the accounts (the payload their process keeps, migration 0029) and the
// processes not CANCELLED. Payloads are JSON text (decision 0103): one that does not hold any of
// the codes $3 as text at all is passed over before it is converted to look inside it. $3 is
// null when a code has a character JSON escapes (then its text need not appear as it is), or
// when there are so many codes that searching the text for each costs more than converting it.
const namesOne = (payload: string) => `
  ($3::text[] IS NULL OR EXISTS (SELECT 1 FROM unnest($3::text[]) AS c(code) WHERE strpos(${payload}::text, c.code) > 0))
  AND EXISTS (SELECT 1 FROM unnest($2::text[]) AS path(p), jsonb_path_query(${payload}::jsonb, path.p::jsonpath) v
               WHERE v #>> '{}' = ANY($1::text[]))`;
const countInUse = sql(
  'countReferenceInUse',
  `SELECT
     (SELECT count(*)::int FROM accounts a JOIN import_processes ap ON ap.id = a.import_process_id
       WHERE ${namesOne('ap.payload')}) AS accounts,
     (SELECT count(*)::int FROM import_processes i
       WHERE i.status <> 'CANCELLED' AND ${namesOne('i.payload')}) AS processes`,
);

/** Codes searched for in a payload's text at most; more, and every payload is converted. */
const MAX_SEARCHED_CODES = 32;
/** A code JSON writes as it is, between quotes (none of its characters escaped). */
const plainInJson = (code: string) => JSON.stringify(code) === `"${code}"`;

/** Takes the registries' lock and answers the current version of `registry` (null: none yet). */
export async function lockCurrentVersion(tx: Queryable, registry: string): Promise<ReferenceVersion | null> {
  await tx.query(lockVersions);
  const { rows } = await tx.query<ReferenceVersion>(selectCurrentVersion, [registry]);
  return rows[0] ?? null;
}

export async function currentVersion(db: Queryable, registry: string): Promise<ReferenceVersion | null> {
  return (await db.query<ReferenceVersion>(selectCurrentVersion, [registry])).rows[0] ?? null;
}

export async function versionOf(db: Queryable, registry: string, version: number) {
  return (await db.query<ReferenceVersion>(selectVersion, [registry, version])).rows[0] ?? null;
}

export async function recentVersions(db: Queryable, registry: string, limit = 20) {
  return (await db.query<ReferenceVersion>(selectVersions, [registry, limit])).rows;
}

/** The current version of every registry ever uploaded, by registry. */
export async function currentVersions(db: Queryable): Promise<Map<string, ReferenceVersion>> {
  const { rows } = await db.query<ReferenceVersion>(selectCurrentVersions);
  return new Map(rows.map((row) => [row.registry, row]));
}

/** Records the new version and tells every process (at the commit). */
export async function recordVersion(
  tx: Queryable,
  version: { registry: string; version: number; by: string; counts: Record<string, number> },
): Promise<ReferenceVersion> {
  const { rows } = await tx.query<ReferenceVersion>(insertVersion, [
    version.registry,
    version.version,
    version.by,
    version.counts,
  ]);
  await tx.query(notifyChanged, [version.registry]);
  return rows[0];
}

export interface InUse {
  accounts: number;
  processes: number;
}

/** How many accounts and processes (not CANCELLED) name one of `codes` at one of `paths`. */
export async function countInUseOf(
  tx: Queryable,
  codes: readonly string[],
  paths: readonly string[],
): Promise<InUse> {
  if (codes.length === 0) return { accounts: 0, processes: 0 };
  const needles = codes.length <= MAX_SEARCHED_CODES && codes.every(plainInJson) ? codes : null;
  const { rows } = await tx.query<InUse>(countInUse, [codes, paths, needles]);
  return rows[0];
}

/** The 409 of an upload that would remove values in use; nothing was stored. */
export function inUseRefusal(
  code: Extract<ErrorCode, 'product_in_use' | 'code_in_use'>,
  inUse: InUse,
  codes: readonly string[],
) {
  const what = code === 'product_in_use' ? 'products or tariffs' : 'values';
  return apiError(
    code,
    `The upload leaves out ${what} that ${inUse.accounts} accounts and ${inUse.processes} processes use; nothing was stored. End-date them instead.`,
    { body: { accounts: inUse.accounts, processes: inUse.processes, codes: codes.slice(0, NAMED_IN_USE) } },
  );
}

/** Thrown inside an upload's transaction to roll a dry run back; carries its answer out. */
export class DryRunAnswer<T> extends Error {
  constructor(readonly answer: T) {
    super('dry run');
  }
}

/** Runs `upload` in a transaction; a dry run's answer is returned after its rollback. */
export async function answerOrDryRun<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (err instanceof DryRunAnswer) return err.answer as T;
    throw err;
  }
}
