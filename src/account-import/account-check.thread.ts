/**
 * A check thread (account-check-pool.ts): reads each body from its JSON text as the event loop
 * read it (numbers a double cannot keep, kept as sent) and answers what `check` answers for it.
 */
import { parentPort } from 'node:worker_threads';
import type { AccountPayload } from '../accounts/payload/account-payload.schema.ts';
import { prepareAccountPayloadValidation } from '../accounts/payload/validate-account-payload.ts';
import { parseKeepingNumbers } from '../vocabulary/exact-numbers.ts';
import { check } from './account-check.ts';
import type { CheckJob, CheckReply } from './account-check-pool.ts';

prepareAccountPayloadValidation();

/** What stands for an accepted payload the caller does not read. */
const EMPTY = {} as AccountPayload;

parentPort?.on('message', ({ id, text, clock, keepPayload }: CheckJob) => {
  let reply: CheckReply;
  try {
    const kept = parseKeepingNumbers(text, JSON.parse(text));
    if (!('value' in kept)) throw new Error('the body is a bare number');
    const checked = check(kept.value, clock);
    if (checked.parsed.ok && !keepPayload) checked.parsed = { ...checked.parsed, payload: EMPTY };
    reply = { id, checked };
  } catch (error) {
    // The event loop read this text as a body already, so this does not happen; if it does, the
    // pool checks the body there instead.
    reply = { id, failure: String(error instanceof Error ? error.message : error) };
  }
  parentPort?.postMessage(reply);
});
