/**
 * Reads the body of the V2 validate and create endpoints: the account payload bare, or wrapped
 * as `{payload, task_params}` (see docs/decisions/0027-account-payload-envelope.md). Error attrs are
 * relative to the account payload whichever form was sent; task parameter errors sit under
 * `task_params.`.
 */
import type { ErrorItem } from '../../errors/error-items.ts';
import { structuralValidator } from '../../validation/structural-validator.ts';
import { type AccountPayload, type TaskParams, TaskParamsSchema } from './account-payload.schema.ts';
import { ACCOUNT_FIELD_FORMATS } from './rules/field-formats.ts';
import { validateAccountPayload } from './validate-account-payload.ts';

export interface AccountRequestContext {
  /** Today in the service time zone, `YYYY-MM-DD`. */
  today: string;
  /** The current instant, for the schedule window rules. */
  now: Date;
}

/** Task parameters as given; null where the client left the scheduler's default. */
export interface ScheduleTaskParams {
  isDryRun: boolean;
  /** ISO 8601 in UTC; null: start now. */
  scheduleWindowStart: string | null;
  /** ISO 8601 in UTC; null: the start plus four days. */
  scheduleWindowEnd: string | null;
}

export type AccountRequestResult =
  | { ok: true; payload: AccountPayload; taskParams: ScheduleTaskParams }
  | { ok: false; errors: ErrorItem[] };

const ENVELOPE_KEYS = new Set(['payload', 'task_params']);
const MAX_WINDOW_MS = 4 * 24 * 60 * 60 * 1000;
/** A start stamped "now" by the client reaches us slightly in the past; a minute of slack absorbs that and clock skew. */
const PAST_START_GRACE_MS = 60 * 1000;

const checkTaskParamsStructure = structuralValidator(TaskParamsSchema, ACCOUNT_FIELD_FORMATS);

export function parseAccountRequest(body: unknown, ctx: AccountRequestContext): AccountRequestResult {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return {
      ok: false,
      errors: [
        {
          attr: '',
          code: 'invalid',
          detail: 'Expected a JSON object: the account, or {payload, task_params}.',
        },
      ],
    };
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
      if (!ENVELOPE_KEYS.has(key)) {
        errors.push({
          attr: key,
          code: 'unknown_field',
          detail: 'A wrapped request has only payload and task_params.',
        });
      }
    }
  }
  const account = validateAccountPayload(payload, ctx);
  if (!account.ok) errors.push(...account.errors);
  const task = parseTaskParams(taskParams, ctx.now);
  if (!task.ok) errors.push(...task.errors);
  if (!account.ok || !task.ok || errors.length > 0) return { ok: false, errors };
  return { ok: true, payload: account.value, taskParams: task.value };
}

type TaskParamsResult = { ok: true; value: ScheduleTaskParams } | { ok: false; errors: ErrorItem[] };

/** Validates `task_params` (absent means all defaults) and the schedule window rules. */
export function parseTaskParams(input: unknown, now: Date): TaskParamsResult {
  if (input === undefined)
    return { ok: true, value: { isDryRun: false, scheduleWindowStart: null, scheduleWindowEnd: null } };
  const structure = checkTaskParamsStructure(input, 'task_params');
  if (structure.errors.length > 0) return { ok: false, errors: structure.errors };
  const params = input as TaskParams;
  const errors: ErrorItem[] = [];
  const start = params.schedule_window_start ? Date.parse(params.schedule_window_start) : null;
  const end = params.schedule_window_end ? Date.parse(params.schedule_window_end) : null;
  if (start !== null && start < now.getTime() - PAST_START_GRACE_MS) {
    errors.push({
      attr: 'task_params.schedule_window_start',
      code: 'schedule_window_start_in_past',
      detail: 'The schedule window cannot start in the past.',
    });
  }
  if (end !== null && end > now.getTime() + MAX_WINDOW_MS) {
    errors.push({
      attr: 'task_params.schedule_window_end',
      code: 'schedule_window_end_too_far_in_future',
      detail: 'The schedule window ends at most 4 days from now.',
    });
  }
  const effectiveStart = start ?? now.getTime();
  const effectiveEnd = end ?? effectiveStart + MAX_WINDOW_MS;
  if (effectiveStart >= effectiveEnd) {
    errors.push({
      attr: start !== null ? 'task_params.schedule_window_start' : 'task_params.schedule_window_end',
      code: 'schedule_window_start__after_end',
      detail: 'The schedule window starts before it ends.',
    });
  }
  if (errors.length > 0) return { ok: false, errors };
  return {
    ok: true,
    value: {
      isDryRun: params.is_dry_run ?? false,
      scheduleWindowStart: start === null ? null : new Date(start).toISOString(),
      scheduleWindowEnd: end === null ? null : new Date(end).toISOString(),
    },
  };
}
