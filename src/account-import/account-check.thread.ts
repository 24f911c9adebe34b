/**
 * A check thread (account-check-pool.ts): reads each body from its JSON text as the event loop
 * read it (numbers a double cannot keep, kept as sent) and answers the verdict `check` gives it (`verdictOf`).
 */
import { parentPort } from 'node:worker_threads';
import { prepareAccountPayloadValidation } from '../accounts/payload/validate-account-payload.ts';
import { parseKeepingNumbers } from '../vocabulary/exact-numbers.ts';
import { verdictOf } from './account-check.ts';
import type { CheckJob, CheckReply } from './account-check-pool.ts';

prepareAccountPayloadValidation();

parentPort?.on('message', ({ id, text, clock }: CheckJob) => {
  let reply: CheckReply;
  try {
    const kept = parseKeepingNumbers(text, JSON.parse(text));
    if (!('value' in kept)) throw new Error('the body is a bare number');
    reply = { id, verdict: verdictOf(kept.value, clock) };
  } catch (error) {
    // The event loop read this text as a body already, so this does not happen; if it does, the
    // pool checks the body there instead.
    reply = { id, failure: String(error instanceof Error ? error.message : error) };
  }
  parentPort?.postMessage(reply);
});
