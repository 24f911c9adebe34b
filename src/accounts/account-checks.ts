/**
 * The account checks: the one entry point from a route (V2 validate, create and bulk; the V1
 * endpoints) to the rules of the account payload. A body is the GB account bare, or wrapped as
 * `{payload, task_params}` (docs/decisions/0027-account-payload-envelope.md); error attrs are
 * relative to the account payload whichever form was sent, task parameter errors sit under
 * `task_params.`. Checking is first the payload's structure (types, required and unknown fields,
 * enums, limits, formats: the validation engine, src/validation/), then the domain rules
 * (payload/run-account-checks.ts). Every error is reported at once. Pure: no I/O, and the input is
 * never modified; the supplier's existence and state are the caller's (`validateAccount` asks).
 *
 * The validate endpoint runs the checks in threads of their own (decision 0049, a Piscina pool):
 * checking an account is pure CPU work (≈ 20 µs alone), several times dearer between the event
 * loop's other work, whose parsing and socket writes evict what the check needs from the
 * processor's caches. A thread reads the body from its JSON text and answers the verdict (errors
 * and supplier code), a few bytes. Nothing depends on the threads: with none configured
 * (CHECK_THREADS=0), no text, or a thread that failed, the check runs on the event loop, with the
 * same answer. Create and bulk check on the event loop: copying an accepted payload back from a
 * thread would cost about what the thread saves.
 */
import { isMainThread, workerData } from 'node:worker_threads';
import { Piscina } from 'piscina';
import { currentReference, currentSnapshot, installSnapshot } from '../catalogue/reference-data.ts';
import { type ErrorItem, item } from '../errors/error-items.ts';
import { localDate } from '../infra/clock.ts';
import { CheckContext } from '../validation/check-context.ts';
import { type StructuralResult, structuralValidator } from '../validation/structural-validator.ts';
import { parseKeepingNumbers } from '../vocabulary/exact-numbers.ts';
import {
  type AccountPayload,
  AccountPayloadSchema,
  type TaskParams,
  TaskParamsSchema,
} from './payload/account-payload.schema.ts';
import { normaliseAccountPayload, withDecimalTexts } from './payload/normalise-account-payload.ts';
import { ACCOUNT_FIELD_FORMATS } from './payload/rules/field-formats.ts';
import { runAccountChecks } from './payload/run-account-checks.ts';

/** When a check runs: today in the service time zone (`YYYY-MM-DD`), and the instant it is handled. */
export interface CheckClock {
  today: string;
  nowMs: number;
}

export function clockIn(timeZone: string): CheckClock {
  const now = new Date();
  return { today: localDate(now, timeZone), nowMs: now.getTime() };
}

/** Task parameters as given; null where the client left the scheduler's default. */
export interface ScheduleTaskParams {
  isDryRun: boolean;
  /** ISO 8601 in UTC; null: start now. */
  scheduleWindowStart: string | null;
  /** ISO 8601 in UTC; null: the start plus four days. */
  scheduleWindowEnd: string | null;
  /** The wave of the supplier's migration; null: none. */
  wave: string | null;
  /** The mapping profile that built the payload from flat files; null: none given. */
  mappingProfile: MappingProfileRef | null;
}

/** A mapping profile's name and version (task_params.mapping_profile): a process's provenance. */
export interface MappingProfileRef {
  name: string;
  version: number;
}

type Result<T> = { ok: true; value: T } | { ok: false; errors: ErrorItem[] };

export type AccountRequestResult =
  | { ok: true; payload: AccountPayload; taskParams: ScheduleTaskParams }
  | { ok: false; errors: ErrorItem[] };

/** What the validate endpoint needs of a check. */
export interface Verdict {
  errors: ErrorItem[];
  /** The supplier code the body names, if it names one. */
  code: string | null;
}

export interface Checked extends Verdict {
  parsed: AccountRequestResult;
}

const checkAccountStructure = structuralValidator(AccountPayloadSchema, ACCOUNT_FIELD_FORMATS);
const checkTaskParamsStructure = structuralValidator(TaskParamsSchema, ACCOUNT_FIELD_FORMATS);

/** The checks of one body, on the event loop: what every account endpoint starts from. */
export function check(body: unknown, clock: CheckClock): Checked {
  const parsed = parseAccountRequest(body, clock);
  const errors = parsed.ok ? [] : [...parsed.errors];
  const code = parsed.ok ? parsed.payload.import_supplier : accountOf(body).import_supplier;
  return { errors, parsed, code: typeof code === 'string' ? code : null };
}

/** `check`'s verdict alone: what the validate endpoint answers from, and all a check thread sends back. */
export function verdictOf(body: unknown, clock: CheckClock): Verdict {
  const { errors, code } = check(body, clock);
  return { errors, code };
}

const ENVELOPE_KEYS = new Set(['payload', 'task_params']);

/** The V2 body, bare or wrapped: the account and its task parameters, or every error at once. */
export function parseAccountRequest(body: unknown, clock: CheckClock): AccountRequestResult {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    const detail = 'Expected a JSON object: the account, or {payload, task_params}.';
    return { ok: false, errors: [item('', 'invalid', detail)] };
  }
  const errors: ErrorItem[] = [];
  let payload: unknown = body;
  let taskParams: unknown;
  // `payload` is never an account field, so its presence alone marks the envelope.
  if (Object.hasOwn(body, 'payload')) {
    const envelope = body as Record<string, unknown>;
    payload = envelope.payload;
    taskParams = envelope.task_params;
    for (const key of Object.keys(envelope)) {
      if (!ENVELOPE_KEYS.has(key))
        errors.push(item(key, 'unknown_field', 'A wrapped request has only payload and task_params.'));
    }
  }
  const account = validateAccountPayload(payload, clock);
  if (!account.ok) errors.push(...account.errors);
  const task = parseTaskParams(taskParams, new Date(clock.nowMs));
  if (!task.ok) errors.push(...task.errors);
  if (!account.ok || !task.ok || errors.length > 0) return { ok: false, errors };
  return { ok: true, payload: account.value, taskParams: task.value };
}

/**
 * The account payload alone: its structure, then the domain rules (`today` says what "in the
 * future" means); the payload normalised (postcodes, company numbers) when it passes.
 */
export function validateAccountPayload(payload: unknown, clock: { today: string }): Result<AccountPayload> {
  const structure = checkAccountStructure(payload);
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload))
    return { ok: false, errors: structure.errors };
  // Decimals sent as JSON numbers become their exact text before any rule reads them.
  const account = withDecimalTexts(
    payload as Record<string, unknown>,
    structure.decimalNumbers,
  ) as AccountPayload;
  const checks = new CheckContext(clock.today, structure.blockedPaths);
  runAccountChecks(account, checks);
  const errors = [...structure.errors, ...checks.errors];
  if (errors.length > 0) return { ok: false, errors };
  return { ok: true, value: normaliseAccountPayload(account) };
}

/** Structure alone, for callers that want it without the domain rules (the field table tests). */
export function checkAccountPayloadStructure(payload: unknown, attrPrefix = ''): StructuralResult {
  return checkAccountStructure(payload, attrPrefix);
}

/** Compiles the validator now (about half a second of code generation) rather than on the first request. */
export function prepareAccountPayloadValidation(): void {
  checkAccountStructure({});
}

const MAX_WINDOW_MS = 4 * 24 * 60 * 60 * 1000;
/** A start stamped "now" by the client reaches us slightly in the past; a minute of slack absorbs that and clock skew. */
const PAST_START_GRACE_MS = 60 * 1000;

/** A wave's name (task_params.wave, the waves API's path). */
export const WAVE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
/** What an invalid_wave item says, wherever a wave is named (task_params, the waves' URLs, the CLI). */
export const WAVE_NAME_DETAIL = 'A wave is 1 to 64 of A-Z a-z 0-9 . _ -, starting with a letter or digit.';

/** Validates `task_params` (absent means all defaults) and the schedule window rules. */
export function parseTaskParams(input: unknown, now: Date): Result<ScheduleTaskParams> {
  if (input === undefined)
    return {
      ok: true,
      value: {
        isDryRun: false,
        scheduleWindowStart: null,
        scheduleWindowEnd: null,
        wave: null,
        mappingProfile: null,
      },
    };
  const structure = checkTaskParamsStructure(input, 'task_params');
  if (structure.errors.length > 0) return { ok: false, errors: structure.errors };
  const params = input as TaskParams;
  const errors: ErrorItem[] = [];
  const start = params.schedule_window_start ? Date.parse(params.schedule_window_start) : null;
  const end = params.schedule_window_end ? Date.parse(params.schedule_window_end) : null;
  if (start !== null && start < now.getTime() - PAST_START_GRACE_MS) {
    const detail = 'The schedule window cannot start in the past.';
    errors.push(item('task_params.schedule_window_start', 'schedule_window_start_in_past', detail));
  }
  if (end !== null && end > now.getTime() + MAX_WINDOW_MS) {
    const detail = 'The schedule window ends at most 4 days from now.';
    errors.push(item('task_params.schedule_window_end', 'schedule_window_end_too_far_in_future', detail));
  }
  const effectiveStart = start ?? now.getTime();
  const effectiveEnd = end ?? effectiveStart + MAX_WINDOW_MS;
  if (effectiveStart >= effectiveEnd) {
    const attr = start !== null ? 'task_params.schedule_window_start' : 'task_params.schedule_window_end';
    errors.push(item(attr, 'schedule_window_start__after_end', 'The schedule window starts before it ends.'));
  }
  const wave = params.wave ?? null;
  if (wave !== null && !WAVE_NAME.test(wave)) {
    errors.push(item('task_params.wave', 'invalid_wave', WAVE_NAME_DETAIL));
  }
  const mappingProfile = params.mapping_profile ?? null;
  // A profile is named as a wave is (the profile check in flat-files holds names to the same rule).
  if (mappingProfile !== null && !WAVE_NAME.test(mappingProfile.name)) {
    const detail =
      'A mapping profile is named by 1 to 64 of A-Z a-z 0-9 . _ -, starting with a letter or digit.';
    errors.push(item('task_params.mapping_profile.name', 'invalid_mapping_profile_name', detail));
  }
  if (errors.length > 0) return { ok: false, errors };
  return {
    ok: true,
    value: {
      wave,
      mappingProfile: mappingProfile && { name: mappingProfile.name, version: mappingProfile.version },
      isDryRun: params.is_dry_run ?? false,
      scheduleWindowStart: start === null ? null : new Date(start).toISOString(),
      scheduleWindowEnd: end === null ? null : new Date(end).toISOString(),
    },
  };
}

/** The account of a V2 body, bare or wrapped as {payload}, whatever its shape (empty when none). */
export function accountOf(body: unknown): Record<string, unknown> {
  if (!body || typeof body !== 'object') return {};
  const b = body as Record<string, unknown>;
  return b.payload && typeof b.payload === 'object' ? (b.payload as Record<string, unknown>) : b;
}

/** Adds identifier conflicts to a body's errors, except at a field that already has an error of its own. */
export function addConflicts(errors: ErrorItem[], conflicts: ErrorItem[]): void {
  const reported = new Set(errors.map((e) => e.attr));
  errors.push(...conflicts.filter((c) => !reported.has(c.attr)));
}

/** Adds `import_supplier_not_found` unless the body's supplier already has an error of its own. */
export function supplierNotFound({ errors, code }: Verdict) {
  if (errors.some((e) => e.attr === 'import_supplier')) return;
  errors.push(
    item('import_supplier', 'import_supplier_not_found', `No import supplier has the code "${code}".`),
  );
}

/**
 * A check thread's task: the body's JSON text, the clock, and the reference data the event loop
 * checks against (its key; its snapshot when the thread said it holds another version).
 */
export interface ThreadTask {
  text: string;
  clock: CheckClock;
  reference: string;
  snapshot?: string;
}

/** A thread's answer: the verdict, or that it holds other reference data than the task names. */
type ThreadAnswer = Verdict | Stale;
export type Stale = { stale: true };

/** Whether a thread holds the reference data `task` names, installing the snapshot sent with it. */
export function referenceIsCurrent({ reference, snapshot }: ThreadTask): boolean {
  if (snapshot !== undefined && currentReference().key !== reference) installSnapshot(snapshot);
  return currentReference().key === reference;
}

/**
 * Runs in a check thread (account-check-thread.ts): reads the body from its text as the
 * event loop read it (numbers a double cannot keep, kept as sent) and answers its verdict.
 */
export function verdictInThread(task: ThreadTask): ThreadAnswer {
  if (!referenceIsCurrent(task)) return { stale: true };
  const { text, clock } = task;
  const kept = parseKeepingNumbers(text, JSON.parse(text));
  // The event loop read this text as a body already, so this does not happen; if it does, the
  // pool checks the body there instead.
  if (!('value' in kept)) throw new Error('the body is a bare number');
  return verdictOf(kept.value, clock);
}

// Under a loader (tsx) a thread loads this module itself, so it names every thread function too.
export { bodyVerdictInThread } from './body-verdict.ts';

const THREAD_MARK = 'ferry-account-checks';
/** Checks handed to a thread before it answers the first of them. */
const TASKS_QUEUED_PER_THREAD = 16;
// A check thread compiles the checks when it starts, not on its first request.
if (!isMainThread && workerData === THREAD_MARK) prepareAccountPayloadValidation();

export class AccountCheckPool {
  #threads: Piscina<ThreadTask, object> | null = null;
  /** Set when a thread failed before any answered: they cannot load, so none is started again. */
  #unusable = false;
  /** Checks a thread answered (the rest ran on the event loop). */
  checksInThreads = 0;
  /** Of them, V2 validate bodies a thread read itself (decision 0110). */
  bodiesReadInThreads = 0;
  /** Set once a thread answered anything: the threads load. */
  #answered = false;
  /** Failures the threads reported outside any check. */
  threadErrors = 0;

  /** `size` threads, started when first needed (or by `start`). */
  constructor(readonly size: number) {}

  /** Starts the threads now, so the first requests do not wait for them to load. */
  start(): Piscina<ThreadTask, object> {
    if (this.#threads) return this.#threads;
    this.#threads = new Piscina<ThreadTask, object>({
      // Built code imported, not required (account-check-thread.ts); TypeScript under tsx is required.
      filename: import.meta.url.endsWith('.js')
        ? new URL('./account-check-thread.js', import.meta.url).href
        : import.meta.url,
      name: 'verdictInThread',
      minThreads: this.size,
      maxThreads: this.size,
      // Idle threads stay (their compiled checks with them) but keep no process alive.
      idleTimeout: Number.POSITIVE_INFINITY,
      // Checks are queued at the threads, not held back until each answers: a thread goes from
      // one check to the next without waiting for the busy event loop to hand it another
      // (with one at a time, validate ran at half the rate on two cores).
      concurrentTasksPerWorker: TASKS_QUEUED_PER_THREAD,
      workerData: THREAD_MARK,
      recordTiming: false, // nothing reads the pool's histograms of wait and run times
    });
    // A thread's failure outside any check (or a late answer to a check that `close` already
    // handed back to the event loop) is no request's failure: with no listener, Piscina would
    // throw it at the process.
    this.#threads.on('error', () => {
      this.threadErrors++;
    });
    return this.#threads;
  }

  /**
   * The verdict of `check(body, clock)`, from a thread when `text` is the JSON text `body` was
   * parsed from; on the event loop otherwise, or when the thread fails.
   */
  async verdict(body: unknown, text: string | undefined, clock: CheckClock): Promise<Verdict> {
    if (text === undefined) return verdictOf(body, clock);
    return (await this.inThread<Verdict>('verdictInThread', text, clock)) ?? verdictOf(body, clock);
  }

  /**
   * Runs thread function `name` (exported by account-check-thread.ts) on `text`; null when no
   * thread can (none configured, none loads, one failed) or its reference data would not match.
   */
  async inThread<A extends object>(name: string, text: string, clock: CheckClock): Promise<A | null> {
    if (this.size === 0 || this.#unusable) return null;
    const threads = this.start();
    try {
      const run = (snapshot?: string) =>
        threads.run({ text, clock, reference: currentReference().key, snapshot }, { name });
      let answer = await run();
      // A thread learns a new catalogue version once, from the snapshot sent with a retried check.
      if ('stale' in answer) answer = await run(currentSnapshot());
      this.#answered = true;
      if ('stale' in answer) return null;
      if (!('unread' in answer)) this.checksInThreads++;
      return answer as A;
    } catch {
      // Threads stopped by `close` are no sign that they cannot load.
      if (!this.#answered && this.#threads === threads) this.#unusable = true;
      return null;
    }
  }

  /** Stops every thread (checks in flight are answered on the event loop); later checks start new ones. */
  async close(): Promise<void> {
    const threads = this.#threads;
    this.#threads = null;
    await threads?.destroy();
  }
}

const shared = new Map<number, AccountCheckPool>();

/** One pool of each size per process: every app built in it (tests build many) shares the threads. */
export function sharedAccountCheckPool(size: number): AccountCheckPool {
  let pool = shared.get(size);
  if (!pool) {
    pool = new AccountCheckPool(size);
    shared.set(size, pool);
  }
  return pool;
}

/** Compiles the checks now on the event loop and in `threads` check threads, before the first request. */
export function prepareAccountChecks(threads: number): void {
  prepareAccountPayloadValidation();
  if (threads > 0) sharedAccountCheckPool(threads).start();
}
