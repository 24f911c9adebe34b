import { check, clockIn, supplierNotFound } from '../../accounts/account-checks.ts';
import { type ApiError, answerOf, apiError, RawBodyError } from '../../errors/error-catalogue.ts';
import { item } from '../../errors/error-items.ts';
import type { Db } from '../../infra/db/db.ts';
import type { Supplier, SupplierCache } from '../../suppliers/suppliers.queries.ts';
import { LAST_INSTANT } from '../../vocabulary/calendar-date.ts';
import type { EventProcess } from '../process-event-log.ts';
import {
  type ScheduleHow,
  type ScheduleInput,
  type ScheduleOutcome,
  scheduleImportProcess,
  scheduleImportProcesses,
} from './scheduling.queries.ts';

const FOUR_DAYS_MS = 4 * 24 * 60 * 60 * 1000;

const NOT_ONGOING = { Paused: 'paused', Complete: 'complete' } as const;

/** Creation and staging need the supplier's migration to be going on (docs/product.md, Suppliers). */
export function refuseUnlessOngoing(supplier: Supplier) {
  if (supplier.status === 'Ongoing') return;
  const state = NOT_ONGOING[supplier.status];
  throw apiError(`import_supplier_${state}`, `Migration for import supplier ${supplier.code} is ${state}.`, {
    body: { domain: 'import_process' },
  });
}

/**
 * What scheduling `body` would stage, after the checks of the create endpoint: the payload
 * rules, the supplier known and Ongoing. Throws the endpoint's answer when a check fails.
 */
async function scheduleInputOf(
  suppliers: SupplierCache,
  body: unknown,
  timeZone: string,
): Promise<ScheduleInput> {
  const checked = check(body, clockIn(timeZone));
  // A pause takes effect at once: the cache hears of every change (SupplierCache).
  const supplier = checked.code === null ? null : await suppliers.get(checked.code);
  if (checked.code !== null && !supplier) supplierNotFound(checked);
  const { errors, parsed } = checked;
  // The process is keyed by it, so creation needs it even though validation alone does not.
  if (parsed.ok && !parsed.payload.external_account_number) {
    errors.push(
      item(
        'external_account_number',
        'required',
        'An account needs its external account number to be scheduled.',
      ),
    );
  }
  if (errors.length > 0 || !parsed.ok || !supplier) {
    throw apiError(
      'import_process_failed_validation',
      'The account data failed validation; call the validate endpoint for the full list of errors.',
      { body: { domain: 'import_process', errors } },
    );
  }
  refuseUnlessOngoing(supplier);
  const start = parsed.taskParams.scheduleWindowStart
    ? new Date(parsed.taskParams.scheduleWindowStart)
    : new Date();
  const end = parsed.taskParams.scheduleWindowEnd
    ? new Date(parsed.taskParams.scheduleWindowEnd)
    : // The default end, four days on, stays within the years a timestamp holds.
      new Date(Math.min(start.getTime() + FOUR_DAYS_MS, LAST_INSTANT));
  const isDryRun = parsed.taskParams.isDryRun || supplier.config.dry_run_only;
  return {
    supplier: supplier.code,
    externalAccountNumber: String(parsed.payload.external_account_number),
    payload: parsed.payload,
    isDryRun,
    scheduleWindowStart: start,
    scheduleWindowEnd: end,
    wave: parsed.taskParams.wave,
    mappingProfile: parsed.taskParams.mappingProfile,
    explicitWindow:
      parsed.taskParams.scheduleWindowStart !== null || parsed.taskParams.scheduleWindowEnd !== null,
  };
}

/** The refusal a scheduling outcome is answered with; null for a 201. */
function refusalOf(outcome: ScheduleOutcome): ApiError | RawBodyError | null {
  if (outcome.kind === 'conflict') {
    return apiError(
      'import_process_failed_validation',
      'An identifier of this account is held by another account or import process; nothing was scheduled.',
      { body: { domain: 'import_process', errors: outcome.errors } },
    );
  }
  if (outcome.kind === 'in_progress') {
    return apiError(
      'account_import_process_in_progress',
      'This account is being created right now; poll its status.',
      { body: { domain: 'import_process' } },
    );
  }
  if (outcome.kind === 'already_imported') {
    // The reference's AlreadyImportedAccount body (the code inside non_field_errors), with our
    // detail and code beside it: every body the create endpoint answers has a top-level code.
    const code = 'account_import_process_already_imported';
    const detail = 'This account has already been imported.';
    return new RawBodyError(code, {
      detail,
      code,
      non_field_errors: { detail, code },
      account_id: outcome.accountNumber,
    });
  }
  return null;
}

/** The process a scheduling outcome wrote a CREATED event for (a new or re-scheduled one), if any. */
const scheduledOf = (input: ScheduleInput, outcome: ScheduleOutcome): EventProcess[] =>
  outcome.kind === 'created' || outcome.kind === 'rescheduled'
    ? [{ supplier: input.supplier, externalAccountNumber: input.externalAccountNumber }]
    : [];

/**
 * POST /v2/data-import/accounts/: validates again, then stages the account for a worker;
 * returns the process scheduled (none when an identical repeat changed nothing).
 */
export async function scheduleAccountCreation(
  db: Db,
  suppliers: SupplierCache,
  how: Required<ScheduleHow>,
  body: unknown,
  timeZone: string,
): Promise<EventProcess[]> {
  const input = await scheduleInputOf(suppliers, body, timeZone);
  const outcome = await scheduleImportProcess(db, input, how);
  const refusal = refusalOf(outcome);
  if (refusal) throw refusal;
  return scheduledOf(input, outcome);
}

/** One account's answer in a bulk request: what the create endpoint would have answered. */
export interface LineAnswer {
  status: number;
  body: unknown;
}

const CREATED: LineAnswer = { status: 201, body: {} };

/** A refusal as the create endpoint answers it; anything else (the database down) fails the request. */
export function lineAnswerOf(error: unknown): LineAnswer {
  const answer = answerOf(error);
  if (!answer) throw error;
  return { status: answer.status, body: answer.body };
}

/**
 * POST /v2/data-import/accounts/bulk/: each body checked as the create endpoint checks it, then
 * every accepted one staged together (scheduleImportProcesses: a few statements for all). One
 * answer per body, in order, and the processes scheduled.
 */
export async function scheduleAccountCreations(
  db: Db,
  suppliers: SupplierCache,
  bodies: unknown[],
  { timeZone, filter }: { timeZone: string; filter?: ScheduleHow['filter'] },
): Promise<{ answers: LineAnswer[]; scheduled: EventProcess[] }> {
  const answers: LineAnswer[] = bodies.map(() => CREATED);
  const accepted: { line: number; input: ScheduleInput }[] = [];
  for (const [line, body] of bodies.entries()) {
    try {
      accepted.push({ line, input: await scheduleInputOf(suppliers, body, timeZone) });
    } catch (error) {
      answers[line] = lineAnswerOf(error);
    }
  }
  const outcomes = await scheduleImportProcesses(
    db,
    accepted.map((a) => a.input),
    { filter },
  );
  const scheduled: EventProcess[] = [];
  accepted.forEach(({ line, input }, k) => {
    const refusal = refusalOf(outcomes[k]);
    if (refusal) answers[line] = lineAnswerOf(refusal);
    else scheduled.push(...scheduledOf(input, outcomes[k]));
  });
  return { answers, scheduled };
}
