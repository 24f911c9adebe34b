/**
 * Re-scheduling processes that exist (docs/product.md, Re-scheduling): each locked in id order and
 * decided by the state table; the replaced ones get their new payload, reservations and event.
 */
import type { Db } from '../../infra/db/db.ts';
import { sql } from '../../infra/db/db.ts';
import {
  allows,
  IMPORT_PROCESS_TRANSITIONS,
  type ImportProcessStatus,
} from '../../vocabulary/import-process-states.ts';
import { recordTransitions } from '../process-transitions.queries.ts';
import { replaceReservations } from '../reservations/reservations.queries.ts';
import {
  type Candidate,
  profileColumns,
  reservedBy,
  type ScheduleInput,
  type ScheduleOutcome,
} from './schedule-input.ts';

// The processes asked for, locked in id order (two requests never wait for each other in a cycle),
// each compared with what its request would write.
const lockProcesses = sql(
  'lockImportProcessesForSchedule',
  `SELECT k.i, p.id, p.status, p.payload::jsonb = k.payload::jsonb AS same_payload, p.is_dry_run, a.number AS account_number,
          p.wave IS NOT DISTINCT FROM k.wave
            AND p.mapping_profile IS NOT DISTINCT FROM k.mapping_profile
            AND p.mapping_profile_version IS NOT DISTINCT FROM k.mapping_profile_version AS same_wave,
          CASE WHEN k.explicit_window
               THEN p.schedule_window_start = k.schedule_window_start AND p.schedule_window_end = k.schedule_window_end
               ELSE p.schedule_window_start <= now() AND p.schedule_window_end > now() END AS same_window
     FROM json_to_recordset($1::json) AS k(
            i int, import_supplier text, external_account_number text, payload json, explicit_window boolean,
            schedule_window_start timestamptz, schedule_window_end timestamptz, wave text,
            mapping_profile text, mapping_profile_version int)
     JOIN import_processes p
       ON p.import_supplier = k.import_supplier AND p.external_account_number = k.external_account_number
     LEFT JOIN accounts a ON a.id = p.account_id
    ORDER BY p.id
      FOR UPDATE OF p`,
);
const replacePayloads = sql(
  'replaceImportProcessPayloads',
  `UPDATE import_processes p
      SET payload = k.payload, is_dry_run = k.is_dry_run, schedule_window_start = k.schedule_window_start,
          schedule_window_end = k.schedule_window_end, wave = k.wave, mapping_profile = k.mapping_profile,
          mapping_profile_version = k.mapping_profile_version, attempts = 0
     FROM json_to_recordset($1::json) AS k(
            id bigint, payload json, is_dry_run boolean,
            schedule_window_start timestamptz, schedule_window_end timestamptz, wave text,
            mapping_profile text, mapping_profile_version int)
    WHERE p.id = k.id`,
);

interface LockedProcess {
  i: number;
  id: string;
  status: ImportProcessStatus;
  same_payload: boolean;
  same_window: boolean;
  /** The same wave and the same mapping profile: the task parameters that name the process's origin. */
  same_wave: boolean;
  is_dry_run: boolean;
  account_number: string | null;
}

/**
 * Re-schedules processes that exist (docs/product.md, Re-scheduling), in one transaction of
 * four statements however many: each locked, decided by the state table, the replaced ones given
 * their new payload and moved by the `schedule` trigger together.
 */
export async function rescheduleExisting(db: Db, inputs: Candidate[]): Promise<ScheduleOutcome[]> {
  const keys = inputs.map((input, i) => ({
    i,
    import_supplier: input.supplier,
    external_account_number: input.externalAccountNumber,
    payload: input.payload,
    explicit_window: input.explicitWindow,
    schedule_window_start: input.scheduleWindowStart.toISOString(),
    schedule_window_end: input.scheduleWindowEnd.toISOString(),
    wave: input.wave ?? null,
    ...profileColumns(input),
  }));
  return db.transaction(async (tx) => {
    const locked = (await tx.query<LockedProcess>(lockProcesses, [JSON.stringify(keys)])).rows;
    const outcomes: (ScheduleOutcome | undefined)[] = inputs.map(() => undefined);
    const replaced: { id: string; input: Candidate }[] = [];
    for (const existing of locked) {
      const input = inputs[existing.i];
      outcomes[existing.i] = decideReschedule(existing, input);
      if (outcomes[existing.i]?.kind === 'rescheduled') replaced.push({ id: existing.id, input });
    }
    if (outcomes.includes(undefined)) throw new Error('an import process to re-schedule was not found');
    if (replaced.length > 0) {
      await tx.query(replacePayloads, [
        JSON.stringify(
          replaced.map(({ id, input }) => ({
            id,
            payload: input.payload,
            is_dry_run: input.isDryRun,
            schedule_window_start: input.scheduleWindowStart.toISOString(),
            schedule_window_end: input.scheduleWindowEnd.toISOString(),
            wave: input.wave ?? null,
            ...profileColumns(input),
          })),
        ),
      ]);
      await replaceReservations(
        tx,
        replaced.map(({ id, input }) => ({ processId: id, identifiers: reservedBy(input) })),
      );
      await recordTransitions(
        tx,
        replaced.map((r) => r.id),
        'schedule',
      );
    }
    return outcomes as ScheduleOutcome[];
  });
}

/** What scheduling does to a process that exists, by the state table. */
function decideReschedule(existing: LockedProcess, input: ScheduleInput): ScheduleOutcome {
  if (existing.account_number !== null)
    return { kind: 'already_imported', accountNumber: existing.account_number };
  // Without an account, only IN_PROGRESS is a state the table does not re-schedule from.
  if (!allows(existing.status, 'schedule')) return { kind: 'in_progress' };
  // A repeat changes nothing only when it would leave the process exactly as it is, window included
  // (docs/product.md, Re-scheduling: the task parameters are replaced; without a window it is due at once).
  const sameTask = existing.is_dry_run === input.isDryRun && existing.same_window && existing.same_wave;
  const alreadyThere = existing.status === IMPORT_PROCESS_TRANSITIONS.schedule.to;
  return alreadyThere && sameTask && existing.same_payload ? { kind: 'unchanged' } : { kind: 'rescheduled' };
}
