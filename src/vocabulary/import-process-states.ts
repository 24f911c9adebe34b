/**
 * The import-process state machine as one table (docs/product.md, Events): for each trigger (what happens
 * to a process), the states it may happen in, the state it moves the process to, and the event
 * written to say so. Everything that changes a process's state or appends an event reads it
 * from here; a trigger in a state the table does not list is refused.
 */

/** The V2 import process states. */
export const IMPORT_PROCESS_STATUSES = [
  'STAGED',
  'PENDING',
  'IN_PROGRESS',
  'PROCESSED',
  'CANCELLED',
  'DRY_RUN_SUCCEEDED',
  'ERRORED',
  'DRY_RUN_ERRORED',
] as const;
export type ImportProcessStatus = (typeof IMPORT_PROCESS_STATUSES)[number];

/** The event names a transition writes (the process's events and its latest_event). */
export const IMPORT_PROCESS_EVENTS = {
  CREATED: 'EVENT_ACCOUNT_IMPORT_PROCESS_CREATED',
  /** Account data staged by the V1 create-or-update endpoint; no worker takes it. */
  STAGED: 'EVENT_ACCOUNT_IMPORT_PROCESS_STAGED',
  STARTED: 'EVENT_ACCOUNT_IMPORT_PROCESS_STARTED',
  PROCESSED: 'EVENT_ACCOUNT_IMPORT_PROCESS_PROCESSED',
  ERRORED: 'EVENT_ACCOUNT_IMPORT_PROCESS_ERRORED',
  CANCELLED: 'EVENT_ACCOUNT_IMPORT_PROCESS_CANCELLED',
  /** The operator rolled back the process's wave: its account, if any, is deleted. */
  ROLLED_BACK: 'EVENT_ACCOUNT_IMPORT_PROCESS_ROLLED_BACK',
  /** The operator sent a failed process back to the queue. */
  RETRIED: 'EVENT_ACCOUNT_IMPORT_PROCESS_RETRIED',
  DRY_RUN_SUCCEEDED: 'EVENT_ACCOUNT_IMPORT_PROCESS_DRY_RUN_SUCCEEDED',
  DRY_RUN_ERRORED: 'EVENT_ACCOUNT_IMPORT_PROCESS_DRY_RUN_ERRORED',
} as const;
export type ImportProcessEvent = (typeof IMPORT_PROCESS_EVENTS)[keyof typeof IMPORT_PROCESS_EVENTS];

export interface Transition {
  readonly from: readonly ImportProcessStatus[];
  readonly to: ImportProcessStatus;
  readonly event: ImportProcessEvent;
}

/** Waiting for an account: not started, not finished, not withdrawn. */
const OPEN = ['STAGED', 'PENDING', 'ERRORED', 'DRY_RUN_SUCCEEDED', 'DRY_RUN_ERRORED'] as const;
/** Every state a new payload may replace: the open ones and CANCELLED (never IN_PROGRESS or PROCESSED). */
const REPLACEABLE = [...OPEN, 'CANCELLED'] as const;

const E = IMPORT_PROCESS_EVENTS;

export const IMPORT_PROCESS_TRANSITIONS = {
  /** A V2 create request: a new payload, due in its schedule window (a new process starts here). */
  schedule: { from: REPLACEABLE, to: 'PENDING', event: E.CREATED },
  /** A V1 create-or-update request: data kept for the V1 process endpoint (a new process starts here). */
  stage: { from: REPLACEABLE, to: 'STAGED', event: E.STAGED },
  /** A worker claims a due process and leases it. */
  claim: { from: ['PENDING'], to: 'IN_PROGRESS', event: E.STARTED },
  /** The worker's lease ran out: the process is due again. */
  release_lease: { from: ['IN_PROGRESS'], to: 'PENDING', event: E.CREATED },
  /** The worker created the account. */
  create: { from: ['IN_PROGRESS'], to: 'PROCESSED', event: E.PROCESSED },
  /** The worker could not create the account. */
  fail: { from: ['IN_PROGRESS'], to: 'ERRORED', event: E.ERRORED },
  /** The worker's dry run would create the account. */
  dry_run_succeed: { from: ['IN_PROGRESS'], to: 'DRY_RUN_SUCCEEDED', event: E.DRY_RUN_SUCCEEDED },
  /** The worker's dry run would fail. */
  dry_run_fail: { from: ['IN_PROGRESS'], to: 'DRY_RUN_ERRORED', event: E.DRY_RUN_ERRORED },
  /** The schedule window closed before a worker started the process. */
  expire_window: { from: ['PENDING'], to: 'ERRORED', event: E.ERRORED },
  /** The same for a dry run. */
  expire_dry_run_window: { from: ['PENDING'], to: 'DRY_RUN_ERRORED', event: E.DRY_RUN_ERRORED },
  /** The V1 process endpoint created the account within the request. */
  create_in_request: { from: OPEN, to: 'PROCESSED', event: E.PROCESSED },
  /** The V1 process endpoint could not create the account. */
  fail_in_request: { from: OPEN, to: 'ERRORED', event: E.ERRORED },
  /** The operator cancels the process. */
  cancel: { from: OPEN, to: 'CANCELLED', event: E.CANCELLED },
  /** The operator sends a failed process back to the queue. */
  retry: { from: ['ERRORED'], to: 'PENDING', event: E.RETRIED },
  /**
   * The operator rolls back the process's wave (decision 0070): every process of the wave that is
   * not CANCELLED, PROCESSED ones included (their accounts are deleted in the same transaction),
   * and IN_PROGRESS ones, whose worker then finds it no longer holds them and creates nothing.
   */
  rollback: { from: [...OPEN, 'IN_PROGRESS', 'PROCESSED'], to: 'CANCELLED', event: E.ROLLED_BACK },
} as const satisfies Record<string, Transition>;

export type ImportProcessTrigger = keyof typeof IMPORT_PROCESS_TRANSITIONS;
export const IMPORT_PROCESS_TRIGGERS = Object.keys(IMPORT_PROCESS_TRANSITIONS) as ImportProcessTrigger[];

/** The triggers a new process starts with (its first state and event, no state before). */
export const START_TRIGGERS = ['schedule', 'stage'] as const satisfies readonly ImportProcessTrigger[];
export type StartTrigger = (typeof START_TRIGGERS)[number];

/** Where `trigger` takes a process in state `from`, and the event it writes; null when refused. */
export function nextState(
  from: ImportProcessStatus,
  trigger: ImportProcessTrigger,
): { to: ImportProcessStatus; event: ImportProcessEvent } | null {
  const t: Transition = IMPORT_PROCESS_TRANSITIONS[trigger];
  return t.from.includes(from) ? { to: t.to, event: t.event } : null;
}

export const allows = (from: ImportProcessStatus, trigger: ImportProcessTrigger): boolean =>
  nextState(from, trigger) !== null;
