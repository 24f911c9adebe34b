/**
 * Scheduling import processes: new ones staged in one statement however many, existing ones
 * re-scheduled (or refused) by the state table, under row locks taken in id order.
 */

import { uniqueIdentifiersOf } from '../../accounts/payload/unique-identifiers.ts';
import { batcher } from '../../infra/batcher.ts';
import { type Db, type Queryable, type Sql, sql, sqlGenericPlan } from '../../infra/db/db.ts';
import { startSql } from '../process-state-sql.ts';
import { noteReserving, type ReservationFilter } from '../reservations/reservation-filter.ts';
import { findConflicts, isReservationTaken } from '../reservations/reservations.queries.ts';
import { rescheduleExisting } from './rescheduling.queries.ts';
import {
  type Candidate,
  profileColumns,
  reservedBy,
  type ScheduleInput,
  type ScheduleOutcome,
} from './schedule-input.ts';

export type { ScheduleInput, ScheduleOutcome } from './schedule-input.ts';

const start = startSql('schedule', { at: 'requested_at' });

/**
 * New processes, each with its CREATED event (at its request's time) and its identifier
 * reservations ($2), in one statement (no transaction needed); the keys returned are those
 * inserted, a process that exists already is left alone. A reservation another process holds
 * fails the statement (a unique violation): nothing of it is kept.
 */
const insertProcesses = sql(
  'insertImportProcesses',
  `WITH staged AS (
     SELECT * FROM json_to_recordset($1::json) AS r(
       import_supplier text, external_account_number text, payload json, is_dry_run boolean,
       schedule_window_start timestamptz, schedule_window_end timestamptz, requested_at timestamptz, wave text,
       mapping_profile text, mapping_profile_version int)
   ), created AS (
     INSERT INTO import_processes
            (import_supplier, external_account_number, payload, is_dry_run,
             schedule_window_start, schedule_window_end, wave, mapping_profile, mapping_profile_version, ${start.columns})
     SELECT import_supplier, external_account_number, payload, is_dry_run,
            schedule_window_start, schedule_window_end, wave, mapping_profile, mapping_profile_version, ${start.values}
       FROM staged
     ON CONFLICT (import_supplier, external_account_number) DO NOTHING
     RETURNING id, import_supplier, external_account_number, latest_event
   ), event AS (
     ${start.events('created')}
   ), reserved AS (
     INSERT INTO identifier_reservations (kind, key, import_process_id, attr)
     SELECT r.kind, r.key, c.id, r.attr
       FROM created c
       JOIN json_to_recordset($2::json) AS r(import_supplier text, external_account_number text, kind text, key text, attr text)
         ON r.import_supplier = c.import_supplier AND r.external_account_number = c.external_account_number
   )
   SELECT import_supplier, external_account_number FROM created`,
);
/**
 * The same for a whole request of the bulk path: always its generic plan (decision 0109), since
 * planning for 1,000 accounts' JSON would copy all of it. Group commit's small batches
 * keep the plain statement, which spares them the setting's round trips.
 */
const insertProcessesAtOnce = sqlGenericPlan('insertImportProcessesAtOnce', insertProcesses.text);

/** A process to insert, and when its request asked for it (its CREATED event's time). */
type NewProcess = Candidate & { requestedAt: string };
const keyOf = (supplier: string, external: string) => `${supplier}\u0000${external}`;

/**
 * What staging a new process came to: inserted, left alone (it exists), or raced (a reservation
 * was taken by another schedule since the check: nothing was written; check again).
 */
export type InsertResult = 'inserted' | 'exists' | 'raced';

/** Inserts the processes that do not exist yet; true for each one inserted. */
async function insertNewProcesses(db: Queryable, items: NewProcess[], statement: Sql): Promise<boolean[]> {
  // Of two items for one process, only the first is offered; the other finds it existing.
  const offered = new Map<string, NewProcess>();
  for (const i of items) {
    const k = keyOf(i.supplier, i.externalAccountNumber);
    if (!offered.has(k)) offered.set(k, i);
  }
  const rows = [...offered.values()].map((i) => ({
    import_supplier: i.supplier,
    external_account_number: i.externalAccountNumber,
    payload: i.payload,
    is_dry_run: i.isDryRun,
    schedule_window_start: i.scheduleWindowStart.toISOString(),
    schedule_window_end: i.scheduleWindowEnd.toISOString(),
    requested_at: i.requestedAt,
    wave: i.wave ?? null,
    ...profileColumns(i),
  }));
  const reservations = [...offered.values()].flatMap((i) =>
    reservedBy(i).map(({ kind, key, attr }) => ({
      import_supplier: i.supplier,
      external_account_number: i.externalAccountNumber,
      kind,
      key,
      attr,
    })),
  );
  noteReserving(reservations);
  const inserted = new Set(
    (
      await db.query<{ import_supplier: string; external_account_number: string }>(statement, [
        JSON.stringify(rows),
        JSON.stringify(reservations),
      ])
    ).rows.map((r) => keyOf(r.import_supplier, r.external_account_number)),
  );
  return items.map((i) => {
    const k = keyOf(i.supplier, i.externalAccountNumber);
    return offered.get(k) === i && inserted.has(k);
  });
}

/** Stages new processes: what came of each (one that exists already is left alone). */
export type InsertNewProcesses = (items: NewProcess[]) => Promise<InsertResult[]>;

const resultOf = (inserted: boolean): InsertResult => (inserted ? 'inserted' : 'exists');

/** Stages new processes in one statement, however many (the bulk endpoint's whole request). */
export const insertAtOnce =
  (db: Queryable): InsertNewProcesses =>
  async (items) => {
    try {
      return (await insertNewProcesses(db, items, insertProcessesAtOnce)).map(resultOf);
    } catch (err) {
      // The statement wrote nothing: every item is checked and offered again.
      if (isReservationTaken(err)) return items.map(() => 'raced');
      throw err;
    }
  };

/**
 * Stages new processes with group commit: concurrent requests share one INSERT (and one
 * commit). A batch that fails for any reason but an unreachable database is retried one item
 * at a time by the batcher, so one item's failure is only its own.
 */
export function processStager(db: Db): InsertNewProcesses {
  const stageOne = batcher(
    async (items: NewProcess[]) =>
      (await insertNewProcesses(db, items, insertProcesses)).map((value) => ({
        status: 'fulfilled' as const,
        value,
      })),
    { maxBatch: 200, maxInFlight: 2 },
  );
  // A batch that raced is tried one item at a time by the batcher: only the item that raced fails.
  return (items) =>
    Promise.all(
      items.map((item) =>
        stageOne(item).then(resultOf, (err) => {
          if (isReservationTaken(err)) return 'raced' as const;
          throw err;
        }),
      ),
    );
}

const requestOf = (input: Candidate) => ({
  supplier: input.supplier,
  external: input.externalAccountNumber,
  identifiers: input.identifiers,
});

/**
 * Of the inputs `indexes` names, those that conflict get their outcome; the others are returned.
 * With `filter`, an input that reserves (not a dry run) and whose identifiers the filter says are
 * certainly free is not looked up: should one have been reserved since the filter's last read, the
 * reservation's primary key refuses the insert, which comes back raced and is checked again here
 * without the filter (decision 0097). A dry run reserves nothing, so it is always looked up.
 */
async function refuseConflicts(
  db: Queryable,
  check: { inputs: Candidate[]; indexes: number[]; filter?: ReservationFilter },
  outcomes: Map<number, ScheduleOutcome>,
): Promise<number[]> {
  const { inputs, indexes, filter } = check;
  if (!indexes.some((i) => inputs[i].identifiers.length > 0)) return indexes;
  const requests = indexes.map((i) => ({ ...requestOf(inputs[i]), dryRun: inputs[i].isDryRun }));
  const conflicts = await findConflicts(db, requests, {
    inOrder: true,
    mayBeHeld: filter && ((r) => (r as (typeof requests)[number]).dryRun || filter.mayHoldAny(r.identifiers)),
  });
  return indexes.filter((i, k) => {
    if (conflicts[k].length === 0) return true;
    outcomes.set(i, { kind: 'conflict', errors: conflicts[k] });
    return false;
  });
}

/** How a schedule stages new processes (default: one statement), and the filter that spares lookups. */
export interface ScheduleHow {
  insertNew?: InsertNewProcesses;
  /** The service's filter of reserved identifiers; without it every identifier is looked up. */
  filter?: ReservationFilter;
}

/** How often new processes are checked and offered again after racing for a reservation. */
const RACE_ATTEMPTS = 4;

/**
 * Stages accounts for creation (docs/product.md, Re-scheduling): a new process is PENDING; an
 * existing PENDING/ERRORED/CANCELLED/DRY_RUN_* one gets the new payload and is PENDING again; an
 * identical repeat of a PENDING one changes nothing. New processes go in through `insertNew`
 * (one statement), existing ones in one transaction: a few statements however many inputs.
 * Several inputs for one process: the last is applied, and each of them gets its outcome.
 */
export async function scheduleImportProcesses(
  db: Db,
  scheduled: ScheduleInput[],
  how: ScheduleHow = {},
): Promise<ScheduleOutcome[]> {
  const insertNew = how.insertNew ?? insertAtOnce(db);
  const inputs = scheduled.map((input) => ({ ...input, identifiers: uniqueIdentifiersOf(input.payload) }));
  const requestedAt = new Date().toISOString();
  const lastOf = new Map<string, number>();
  for (const [i, input] of inputs.entries())
    lastOf.set(keyOf(input.supplier, input.externalAccountNumber), i);
  const applied = [...lastOf.values()].sort((a, b) => a - b);
  const outcomes = new Map<number, ScheduleOutcome>();
  // Conflicts are refused before anything is written: with held identifiers, and between the
  // request's own accounts (the first one wins).
  let offered = await refuseConflicts(db, { inputs, indexes: applied, filter: how.filter }, outcomes);
  const existing: number[] = [];
  for (let attempt = 1; offered.length > 0; attempt++) {
    // The common case, new accounts: one statement.
    const results = await insertNew(offered.map((i) => ({ ...inputs[i], requestedAt })));
    const raced = offered.filter((i, k) => {
      if (results[k] === 'inserted') outcomes.set(i, { kind: 'created' });
      if (results[k] === 'exists') existing.push(i);
      return results[k] === 'raced';
    });
    if (raced.length > 0 && attempt === RACE_ATTEMPTS) throw new Error('identifier reservations kept racing');
    offered = await refuseConflicts(db, { inputs, indexes: raced }, outcomes);
  }
  existing.sort((a, b) => a - b);
  // The processes that exist (processes are never deleted): decided under their row locks. A
  // reservation taken meanwhile rolls that transaction back: checked again, then tried again.
  for (let attempt = 1, offeredAgain = existing; offeredAgain.length > 0; attempt++) {
    try {
      const rescheduled = await rescheduleExisting(
        db,
        offeredAgain.map((i) => inputs[i]),
      );
      for (const [k, i] of offeredAgain.entries()) outcomes.set(i, rescheduled[k]);
      break;
    } catch (err) {
      if (!isReservationTaken(err) || attempt === RACE_ATTEMPTS) throw err;
      offeredAgain = await refuseConflicts(db, { inputs, indexes: offeredAgain }, outcomes);
    }
  }
  return inputs.map((input) => {
    const outcome = outcomes.get(lastOf.get(keyOf(input.supplier, input.externalAccountNumber)) ?? -1);
    if (!outcome) throw new Error('an import process was not scheduled');
    return outcome;
  });
}

/** scheduleImportProcesses for one account. */
export async function scheduleImportProcess(
  db: Db,
  input: ScheduleInput,
  how: ScheduleHow = {},
): Promise<ScheduleOutcome> {
  return (await scheduleImportProcesses(db, [input], how))[0];
}
