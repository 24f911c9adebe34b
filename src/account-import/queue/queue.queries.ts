import { sql } from '../../infra/db/db.ts';
import type { PauseWhenErrored } from '../../suppliers/suppliers.queries.ts';
import { IMPORT_PROCESS_TRANSITIONS as T } from '../../vocabulary/import-process-states.ts';
import { sqlWord, transitionSql } from '../process-state-sql.ts';

/** The state a worker holds the processes it claimed in, under its lease. */
const CLAIMED = sqlWord(T.claim.to);

const claim = transitionSql('claim', { at: 'now()', alias: 'p' });

export interface ClaimedProcess {
  id: string;
  import_supplier: string;
  external_account_number: string;
  // biome-ignore lint/suspicious/noExplicitAny: validated payload, stored as JSON
  payload: Record<string, any>;
  is_dry_run: boolean;
  send_welcome_emails: boolean;
  /** The supplier holds welcome e-mails until the wave's approval (decision 0070). */
  hold_welcome_emails: boolean;
  /** The wave the process was scheduled in; null: none. */
  wave: string | null;
  dry_run_only: boolean;
  /** The supplier's automatic pause setting (decision 0068); null when off. */
  pause_when_errored: PauseWhenErrored | null;
}

/**
 * Claims up to $2 due PENDING processes of Ongoing suppliers for worker $1, leasing them for
 * $3 seconds, and records their STARTED events, in one statement.
 * Locking: FOR UPDATE SKIP LOCKED makes concurrent workers take disjoint rows without waiting
 * on each other; the row lock lasts only this statement, after which the lease columns
 * (locked_by, locked_until) say who owns the process. A worker that dies leaves a lease that
 * expires, and releaseExpiredLeases hands the process back.
 */
export const claimPendingProcesses = sql(
  'claimPendingProcesses',
  `WITH due AS (
     SELECT p.id
       FROM import_processes p
       JOIN import_suppliers s ON s.code = p.import_supplier AND s.status = 'Ongoing'
      WHERE ${claim.from} AND p.schedule_window_start <= now() AND p.schedule_window_end > now()
      ORDER BY p.schedule_window_start, p.id
      LIMIT $2
        FOR UPDATE OF p SKIP LOCKED
   ), claimed AS (
     UPDATE import_processes p
        SET ${claim.set}, locked_by = $1, locked_until = now() + make_interval(secs => $3),
            attempts = p.attempts + 1, latest_error = NULL
       FROM due WHERE p.id = due.id
     RETURNING p.id, p.import_supplier, p.external_account_number, p.payload, p.is_dry_run, p.wave
   ), events AS (
     ${claim.events('claimed')}
   )
   SELECT c.*, coalesce((s.config->>'send_welcome_emails')::boolean, false) AS send_welcome_emails,
          coalesce((s.config->>'hold_welcome_emails')::boolean, false) AS hold_welcome_emails,
          coalesce((s.config->>'dry_run_only')::boolean, false) AS dry_run_only,
          nullif(s.config->'pause_when_errored', 'null'::jsonb) AS pause_when_errored
     FROM claimed c JOIN import_suppliers s ON s.code = c.import_supplier`,
);

/** Re-checks, under a row lock, that this worker still holds the lease on the process. */
export const lockOwnedProcess = sql(
  'lockOwnedImportProcess',
  `SELECT id FROM import_processes
    WHERE id = $1 AND status = ${CLAIMED} AND locked_by = $2
      FOR UPDATE`,
);

/** The same for a batch: the ids, of $1, that worker $2 still holds, locked. */
export const lockOwnedProcesses = sql(
  'lockOwnedImportProcesses',
  `SELECT id FROM import_processes
    WHERE id = ANY($1::bigint[]) AND status = ${CLAIMED} AND locked_by = $2
    ORDER BY id
      FOR UPDATE`,
);

const create = transitionSql('create', { at: '$3::timestamptz', alias: 'p' });

/**
 * Processes $1 (ids) now have accounts $2 (ids): created (PROCESSED) at $3, each with its
 * event, in one statement that counts the events (a process no longer IN_PROGRESS moves not).
 */
export const markProcessed = sql(
  'markImportProcessesProcessed',
  `WITH done AS (
     SELECT * FROM unnest($1::bigint[], $2::bigint[]) AS d(id, account_id)
   ), moved AS (
     UPDATE import_processes p
        SET ${create.set}, latest_error = NULL, account_id = done.account_id,
            locked_by = NULL, locked_until = NULL
       FROM done WHERE p.id = done.id AND ${create.from}
     RETURNING p.id
   )
   ${create.events('moved')}`,
);

/**
 * Leaves processes $1, held by worker $2, for a later attempt after a failure that was not
 * about their data (the database unavailable): the lease is cut short to a backoff that
 * doubles with each attempt (about 1 s, 2 s, 4 s, ... at most 60 s, jittered), then
 * releaseExpiredLeases hands them back to PENDING and any worker may claim them again.
 */
export const retryProcessesLater = sql(
  'retryImportProcessesLater',
  `UPDATE import_processes
      SET locked_until = now() + make_interval(secs => least(60, 2 ^ greatest(attempts - 1, 0)) * (0.5 + random() / 2))
    WHERE id = ANY($1::bigint[]) AND status = ${CLAIMED} AND locked_by = $2`,
);

/** A process the queue's maintenance moved (lease released, window expired). */
export interface MaintainedProcess {
  id: string;
  import_supplier: string;
  external_account_number: string;
  is_dry_run?: boolean;
}

const release = transitionSql('release_lease', { at: 'now()', data: `'{"reason": "lease_expired"}'::jsonb` });

/** Hands processes whose worker vanished (lease expired) back to PENDING; returns them. */
export const releaseExpiredLeases = sql(
  'releaseExpiredLeases',
  `WITH expired AS (
     UPDATE import_processes
        SET ${release.set}, locked_by = NULL, locked_until = NULL
      WHERE ${release.from} AND locked_until < now()
     RETURNING id, import_supplier, external_account_number
   ), events AS (
     ${release.events('expired')}
   )
   SELECT id, import_supplier, external_account_number FROM expired`,
);

const WINDOW_EXPIRED = `'{"code": "schedule_window_expired", "detail": "The process was not started before its schedule window ended.", "domain": "account_import"}'::jsonb`;
const expire = transitionSql(
  { column: 'is_dry_run', ifTrue: 'expire_dry_run_window', ifFalse: 'expire_window' },
  { at: 'now()', data: WINDOW_EXPIRED },
);

/**
 * PENDING processes whose schedule window closed before a worker started them end ERRORED
 * (DRY_RUN_ERRORED for a dry run); both expiries start from the same states (the builder
 * checks). Returns them.
 */
export const expireScheduleWindows = sql(
  'expireScheduleWindows',
  `WITH expired AS (
     UPDATE import_processes
        SET ${expire.set}, latest_error = ${WINDOW_EXPIRED}
      WHERE ${expire.from} AND schedule_window_end <= now()
     RETURNING id, import_supplier, external_account_number, is_dry_run
   ), events AS (
     ${expire.events('expired')}
   )
   SELECT id, import_supplier, external_account_number, is_dry_run FROM expired`,
);
