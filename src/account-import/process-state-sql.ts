/**
 * The state table (vocabulary/import-process-states.ts) as SQL. Every statement that writes
 * import_processes.status takes its SET, its WHERE on the from-states and the INSERT of its
 * events from here, so the table is the only place that says which state may follow which and
 * which event says so (test/account-import/process-state-sql.test.ts fails on a status written
 * by hand anywhere else in src/).
 */
import {
  IMPORT_PROCESS_TRANSITIONS,
  type ImportProcessEvent,
  type ImportProcessStatus,
  type ImportProcessTrigger,
  type StartTrigger,
} from '../vocabulary/import-process-states.ts';

/**
 * A state or event name of the state table as an SQL literal. These are fixed upper-case
 * words, never input; anything else is refused when the query module loads.
 */
export function sqlWord(word: ImportProcessStatus | ImportProcessEvent): string {
  if (!/^[A-Z_]+$/.test(word)) throw new Error(`not a state or event name: ${word}`);
  return `'${word}'`;
}

/** The states as an SQL list, for `status IN (...)`. */
export const sqlStates = (states: readonly ImportProcessStatus[]): string => states.map(sqlWord).join(', ');

/** How a statement says when its transition happened and what the event carries. */
export interface TransitionSqlOptions {
  /** When: an SQL timestamptz expression (`now()`, `$3::timestamptz`). */
  at: string;
  /** The event's data: an SQL jsonb expression (a constant or a parameter); NULL when left out. */
  data?: string;
  /** The alias of import_processes in the statement, for the from-states (`p.status IN (...)`). */
  alias?: string;
}

/**
 * One trigger, or one of two chosen by a boolean column of the process (`is_dry_run`), for a
 * statement that moves some processes one way and some the other; both must start from the
 * same states, so that one WHERE serves both.
 */
export type TriggerChoice =
  | ImportProcessTrigger
  | { column: string; ifTrue: ImportProcessTrigger; ifFalse: ImportProcessTrigger };

export interface TransitionSql {
  /** For `UPDATE import_processes SET ...`: the new status, latest_event and modified_at. */
  readonly set: string;
  /** For the UPDATE's WHERE (or the claim's locking SELECT): status among the trigger's from-states. */
  readonly from: string;
  /**
   * `INSERT INTO import_process_events ...`, one event per row of `moved`: the name of a CTE
   * (or table expression) of the processes the UPDATE moved, with their `id` (and the choice's
   * column).
   */
  events(moved: string): string;
}

const IDENTIFIER = /^[a-z_][a-z0-9_]*$/;

function identifier(name: string): string {
  if (!IDENTIFIER.test(name)) throw new Error(`not a column or alias name: ${name}`);
  return name;
}

/** A trigger's target and event as SQL: a literal, or a CASE on the choice's column. */
function pick(choice: TriggerChoice, column: (trigger: ImportProcessTrigger) => string, prefix = ''): string {
  if (typeof choice === 'string') return column(choice);
  return `CASE WHEN ${prefix}${identifier(choice.column)} THEN ${column(choice.ifTrue)} ELSE ${column(choice.ifFalse)} END`;
}

function fromStates(choice: TriggerChoice): readonly ImportProcessStatus[] {
  if (typeof choice === 'string') return IMPORT_PROCESS_TRANSITIONS[choice].from;
  const one: readonly ImportProcessStatus[] = IMPORT_PROCESS_TRANSITIONS[choice.ifTrue].from;
  const other: readonly ImportProcessStatus[] = IMPORT_PROCESS_TRANSITIONS[choice.ifFalse].from;
  if (one.length !== other.length || one.some((s) => !other.includes(s))) {
    throw new Error(
      `${choice.ifTrue} and ${choice.ifFalse} start from different states: one statement cannot move both`,
    );
  }
  return one;
}

const latestEvent = (event: string, at: string, data: string) =>
  `jsonb_build_object('event', ${event}, 'occurred_at', to_jsonb(${at}), 'data', ${data})`;

const INSERT_EVENTS = 'INSERT INTO import_process_events (import_process_id, event, occurred_at, data)';

/** The SQL of `trigger` moving processes that exist: see TransitionSql. */
export function transitionSql(trigger: TriggerChoice, opts: TransitionSqlOptions): TransitionSql {
  const data = opts.data ?? 'NULL';
  const to = (t: ImportProcessTrigger) => sqlWord(IMPORT_PROCESS_TRANSITIONS[t].to);
  const event = (t: ImportProcessTrigger) => sqlWord(IMPORT_PROCESS_TRANSITIONS[t].event);
  const alias = opts.alias === undefined ? '' : `${identifier(opts.alias)}.`;
  return {
    set: `status = ${pick(trigger, to)}, latest_event = ${latestEvent(pick(trigger, event), opts.at, data)}, modified_at = ${opts.at}`,
    from: `${alias}status IN (${sqlStates(fromStates(trigger))})`,
    events: (moved) =>
      `${INSERT_EVENTS}
     SELECT m.id, ${pick(trigger, event, 'm.')}, ${opts.at}, ${data} FROM ${identifier(moved)} m`,
  };
}

/** The SQL of a new process, started by `trigger` (INSERT INTO import_processes). */
export interface StartSql {
  /** For the INSERT's column list: `status, latest_event`. */
  readonly columns: string;
  /** Their values, in that order. */
  readonly values: string;
  /**
   * The INSERT of the events, one per row of `created`: a CTE of the inserted processes that
   * returns their `id` and `latest_event` (whose time the event repeats).
   */
  events(created: string): string;
}

/** The SQL of a new process that `trigger` (one that may start a process) starts, at `at`. */
export function startSql(trigger: StartTrigger, opts: { at: string }): StartSql {
  const { to, event } = IMPORT_PROCESS_TRANSITIONS[trigger];
  return {
    columns: 'status, latest_event',
    values: `${sqlWord(to)}, ${latestEvent(sqlWord(event), opts.at, 'NULL')}`,
    events: (created) =>
      `${INSERT_EVENTS}
     SELECT c.id, ${sqlWord(event)}, (c.latest_event->>'occurred_at')::timestamptz, NULL FROM ${identifier(created)} c`,
  };
}
