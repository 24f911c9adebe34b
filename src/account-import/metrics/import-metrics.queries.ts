/**
 * The SQL behind /metrics' migration families (docs/decisions/0044-migration-metrics.md). The
 * counts come from import_process_tallies, which triggers on import_processes keep (migration
 * 0011), so a scrape reads a few rows per supplier whatever the number of processes.
 */
import { sql } from '../../infra/db/db.ts';
import { IMPORT_PROCESS_TRANSITIONS as T } from '../../vocabulary/import-process-states.ts';
import { sqlStates } from '../process-state-sql.ts';

export interface TallyRow {
  import_supplier: string;
  status: string;
  error_code: string;
  processes: string;
  entered: string;
}

/** Folded tallies plus the changes not folded yet, in one snapshot; `changes` says how many of those. */
export const readTallies = sql(
  'readImportProcessTallies',
  `SELECT import_supplier, status, error_code, sum(processes)::text AS processes, sum(entered)::text AS entered,
          sum(change)::int AS changes
     FROM (SELECT import_supplier, status, error_code, processes, entered, 0 AS change FROM import_process_tallies
           UNION ALL
           SELECT import_supplier, status, error_code, processes, entered, 1 FROM import_process_tally_changes) t
    GROUP BY 1, 2, 3
    ORDER BY 1, 2, 3`,
);

/**
 * Moves the changes the triggers appended into the tallies, in one statement. Changes appended
 * meanwhile by transactions not yet committed stay for the next fold; upserts go in key order,
 * so two folds at once (two workers) take their row locks in the same order.
 */
export const foldTallyChanges = sql(
  'foldImportProcessTallyChanges',
  `WITH moved AS (
     DELETE FROM import_process_tally_changes RETURNING *
   )
   INSERT INTO import_process_tallies AS t (import_supplier, status, error_code, processes, entered)
   SELECT import_supplier, status, error_code, sum(processes), sum(entered)
     FROM moved GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
   ON CONFLICT (import_supplier, status, error_code)
   DO UPDATE SET processes = t.processes + excluded.processes, entered = t.entered + excluded.entered`,
);

/**
 * Queue lag: how long the process a worker would claim next has been due, in seconds (0 when
 * nothing is due). The claim's own walk (claimPendingProcesses) with LIMIT 1: the first due
 * PENDING process of an Ongoing supplier in the pending index's order.
 */
export const readQueueLag = sql(
  'readImportQueueLag',
  `SELECT coalesce(max(extract(epoch FROM now() - d.schedule_window_start)), 0)::float8 AS seconds
     FROM (SELECT p.schedule_window_start
             FROM import_processes p
             JOIN import_suppliers s ON s.code = p.import_supplier AND s.status = 'Ongoing'
            WHERE p.status IN (${sqlStates(T.claim.from)}) AND p.schedule_window_start <= now()
              AND p.schedule_window_end > now()
            ORDER BY p.schedule_window_start, p.id
            LIMIT 1) d`,
);
