/**
 * Moving import processes by a trigger of the state table, whatever the trigger: the worker's
 * outcomes, re-scheduling and re-staging, the V1 process endpoint, the operator's cancel and
 * retry. The queue's own statements (claim, batch creation, lease and window expiry) are in
 * queue/queue.queries.ts; both take their SQL from process-state-sql.ts.
 */
import { type Queryable, type Sql, sql } from '../infra/db/db.ts';
import { IMPORT_PROCESS_TRIGGERS, type ImportProcessTrigger } from '../vocabulary/import-process-states.ts';
import { transitionSql } from './process-state-sql.ts';

export interface LatestError {
  code: string;
  detail: string;
  domain: string;
}

export interface LatestEvent {
  event: string;
  occurred_at: string;
  data: Record<string, unknown> | null;
}

/** What a transition records beside its state and event name. */
export interface TransitionDetails {
  data?: Record<string, unknown> | null;
  error?: LatestError | null;
  accountId?: string | null;
}

/**
 * One statement per trigger: processes $1 move from the trigger's states to its target at $2,
 * with event data $3, latest error $4 and account $5 (kept when null), their leases cleared,
 * and one event each; the statement counts the events it wrote.
 */
const recordStatements = Object.fromEntries(
  IMPORT_PROCESS_TRIGGERS.map((trigger) => {
    const t = transitionSql(trigger, { at: '$2::timestamptz', data: '$3::jsonb' });
    const statement = sql(
      `recordImportProcessTransitions_${trigger}`,
      `WITH moved AS (
         UPDATE import_processes
            SET ${t.set}, latest_error = $4::jsonb, account_id = coalesce($5::bigint, account_id),
                locked_by = NULL, locked_until = NULL
          WHERE id = ANY($1::bigint[]) AND ${t.from}
         RETURNING id
       )
       ${t.events('moved')}`,
    );
    return [trigger, statement];
  }),
) as Record<ImportProcessTrigger, Sql>;

/**
 * Moves processes as `trigger` does in the state table and appends the event that says so, in
 * one statement however many (call inside a transaction, with the processes' rows locked). A
 * trigger the table refuses in a process's state moves nothing and throws, so the transaction
 * rolls back: callers check `allows` first.
 */
export async function recordTransitions(
  tx: Queryable,
  processIds: string[],
  trigger: ImportProcessTrigger,
  details: TransitionDetails = {},
): Promise<void> {
  if (processIds.length === 0) return;
  const data: Record<string, unknown> | null = details.data ?? (details.error ? { ...details.error } : null);
  const moved = await tx.query(recordStatements[trigger], [
    processIds,
    new Date(),
    data,
    details.error ?? null,
    details.accountId ?? null,
  ]);
  if (moved.rowCount !== processIds.length) {
    throw new Error(
      `import processes ${processIds.join(', ')}: the state table refuses ${trigger} in their state`,
    );
  }
}

/** recordTransitions for one process. */
export const recordTransition = (
  tx: Queryable,
  processId: string,
  trigger: ImportProcessTrigger,
  details: TransitionDetails = {},
): Promise<void> => recordTransitions(tx, [processId], trigger, details);
