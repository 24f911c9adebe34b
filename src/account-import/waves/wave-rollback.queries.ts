/**
 * The SQL of a wave's rollback (decision 0070): which rows belong to the accounts a wave's
 * processes created, counted or deleted table by table, and the processes moved to CANCELLED.
 * Every statement selects the wave's rows in the database (by supplier and wave, through the
 * foreign keys), so a wave of a million accounts sends no list of ids back and forth.
 */
import { type Queryable, sql } from '../../infra/db/db.ts';
import { transitionSql } from '../process-state-sql.ts';

/** A table that holds rows of an account, and the foreign key that ties a row to its parent. */
export interface AccountTable {
  table: string;
  column: string;
  parent: string;
}

/**
 * Every table whose rows belong to an account, directly or through another table, children
 * before their parents (the order they are deleted in). A row is found through the key named
 * here; a table with a second key to the same account (transactions → ledgers, meter points →
 * supply addresses) needs no second path. test/account-import/wave-rollback.test.ts reads the
 * foreign keys from the database's catalog and fails when a table is missing here.
 */
export const ACCOUNT_TABLES: readonly AccountTable[] = [
  { table: 'readings', column: 'meter_id', parent: 'meters' },
  { table: 'registers', column: 'meter_id', parent: 'meters' },
  { table: 'meters', column: 'meter_point_id', parent: 'meter_points' },
  { table: 'agreements', column: 'meter_point_id', parent: 'meter_points' },
  { table: 'meter_points', column: 'account_id', parent: 'accounts' },
  { table: 'supply_addresses', column: 'account_id', parent: 'accounts' },
  { table: 'transactions', column: 'account_id', parent: 'accounts' },
  { table: 'ledgers', column: 'account_id', parent: 'accounts' },
  { table: 'account_customers', column: 'account_id', parent: 'accounts' },
  { table: 'billing_addresses', column: 'account_id', parent: 'accounts' },
  { table: 'notes', column: 'account_id', parent: 'accounts' },
  { table: 'statements', column: 'account_id', parent: 'accounts' },
  { table: 'payment_instructions', column: 'account_id', parent: 'accounts' },
  { table: 'payment_schedules', column: 'account_id', parent: 'accounts' },
  { table: 'account_references', column: 'account_id', parent: 'accounts' },
  { table: 'account_metadata', column: 'account_id', parent: 'accounts' },
  { table: 'email_outbox', column: 'account_id', parent: 'accounts' },
];

/**
 * Tables that refer to an account but outlive the rollback: the process keeps its history and is
 * detached from the account (account_id set to NULL) in the statement that deletes the account.
 */
export const DETACHED_TABLES: readonly AccountTable[] = [
  { table: 'import_processes', column: 'account_id', parent: 'accounts' },
];

/** The tables a rollback deletes from, in order: the account's rows, then the accounts. */
export const ROLLBACK_TABLES = [...ACCOUNT_TABLES.map((t) => t.table), 'accounts'] as const;

const rollback = transitionSql('rollback', { at: '$3::timestamptz', data: '$4::jsonb', alias: 'p' });

/** The wave's processes ($1 supplier, $2 wave) that the rollback moves. */
const WAVE_PROCESSES = `SELECT p.id, p.account_id FROM import_processes p
  WHERE p.import_supplier = $1 AND p.wave = $2 AND ${rollback.from}`;

/** The condition that a row of `table` belongs to an account of the wave (names are ours, never input). */
function belongsToWave(table: string): string {
  if (table === 'accounts') return `id IN (SELECT w.account_id FROM (${WAVE_PROCESSES}) w)`;
  const t = ACCOUNT_TABLES.find((a) => a.table === table);
  if (!t) throw new Error(`${table} is not a table of an account`);
  return `${t.column} IN (SELECT id FROM ${t.parent} WHERE ${belongsToWave(t.parent)})`;
}

/** How many rows of each table, and how many processes, the rollback would take: one snapshot. */
const countWaveRows = sql(
  'countWaveRollbackRows',
  `SELECT (SELECT count(*) FROM (${WAVE_PROCESSES}) w)::int AS processes,
          ${ROLLBACK_TABLES.map((t) => `(SELECT count(*) FROM ${t} WHERE ${belongsToWave(t)})::int AS ${t}`).join(',\n          ')}`,
);

const deleteWaveRows = Object.fromEntries(
  ACCOUNT_TABLES.map(({ table }) => [
    table,
    sql(`deleteWaveRollbackRows_${table}`, `DELETE FROM ${table} WHERE ${belongsToWave(table)}`),
  ]),
);

/**
 * The processes move to CANCELLED with their ROLLED_BACK event (the state table's rollback,
 * whose CANCELLED trigger releases their identifier reservations), detached from their
 * accounts, and the accounts are deleted, in one statement: the foreign key from the processes
 * to the accounts is checked at its end, when both changes are made. $3 when, $4 the event data.
 */
const rollBackProcesses = sql(
  'rollBackWaveProcesses',
  `WITH wave AS (${WAVE_PROCESSES}
   ), moved AS (
     UPDATE import_processes p
        SET ${rollback.set}, account_id = NULL, latest_error = NULL, locked_by = NULL, locked_until = NULL
       FROM wave w WHERE p.id = w.id
     RETURNING p.id
   ), deleted AS (
     DELETE FROM accounts WHERE id IN (SELECT account_id FROM wave) RETURNING id
   ), events AS (
     ${rollback.events('moved')}
   )
   SELECT (SELECT count(*) FROM moved)::int AS processes, (SELECT count(*) FROM deleted)::int AS accounts`,
);

/**
 * Locks the wave's processes (a worker creating one of their accounts finishes first; one that
 * has not started yet then finds the process CANCELLED and creates nothing).
 */
const lockWaveProcesses = sql(
  'lockWaveProcessesForRollback',
  `SELECT count(*)::int AS n FROM (
     SELECT p.id FROM import_processes p WHERE p.import_supplier = $1 AND p.wave = $2 ORDER BY p.id FOR UPDATE
   ) locked`,
);

/**
 * The wave's accounts whose e-mail was sent or is being sent ($3 at most, by external account
 * number), after locking every outbox row of the wave's accounts: a sender skips locked rows
 * (SKIP LOCKED), so none of them starts sending before the rollback commits.
 */
const lockOutboxAndFindSent = sql(
  'lockWaveOutboxForRollback',
  `WITH locked AS (
     SELECT o.account_id, o.status FROM email_outbox o WHERE ${belongsToWave('email_outbox')} FOR UPDATE
   )
   SELECT p.external_account_number, count(*) OVER ()::int AS total
     FROM locked l JOIN import_processes p ON p.account_id = l.account_id
    WHERE l.status IN ('SENT', 'SENDING')
    ORDER BY p.external_account_number
    LIMIT $3`,
);

export type RollbackCounts = { processes: number } & Record<(typeof ROLLBACK_TABLES)[number], number>;

export async function lockRollbackProcesses(tx: Queryable, supplier: string, wave: string): Promise<void> {
  await tx.query(lockWaveProcesses, [supplier, wave]);
}

/** The accounts whose welcome e-mail went out (up to `limit`, and how many in all). */
export async function sentWelcomeEmails(
  tx: Queryable,
  supplier: string,
  wave: string,
  limit: number,
): Promise<{ externalAccountNumbers: string[]; total: number }> {
  const { rows } = await tx.query<{ external_account_number: string; total: number }>(lockOutboxAndFindSent, [
    supplier,
    wave,
    limit,
  ]);
  return { externalAccountNumbers: rows.map((r) => r.external_account_number), total: rows[0]?.total ?? 0 };
}

export async function countRollbackRows(
  q: Queryable,
  supplier: string,
  wave: string,
): Promise<RollbackCounts> {
  return (await q.query<RollbackCounts>(countWaveRows, [supplier, wave])).rows[0];
}

/** Deletes the wave's accounts and their rows, and moves its processes; answers what it changed. */
export async function deleteWaveAccounts(
  tx: Queryable,
  supplier: string,
  wave: string,
  eventData: Record<string, unknown>,
): Promise<RollbackCounts> {
  const counts: Partial<RollbackCounts> = {};
  for (const { table } of ACCOUNT_TABLES) {
    counts[table as keyof RollbackCounts] = (
      await tx.query(deleteWaveRows[table], [supplier, wave])
    ).rowCount;
  }
  const { rows } = await tx.query<{ processes: number; accounts: number }>(rollBackProcesses, [
    supplier,
    wave,
    new Date(),
    eventData,
  ]);
  return { ...counts, processes: rows[0].processes, accounts: rows[0].accounts } as RollbackCounts;
}
