/**
 * What a check thread answers of a body it reads itself (V2 validate's `DeferredBody`, see
 * validate-account.ts): the verdict, the suppliers the body names and its identifiers.
 */
import { suppliersNamedIn } from '../auth/suppliers-named.ts';
import { readPlainJsonObject } from '../vocabulary/plain-json.ts';
import {
  accountOf,
  check,
  referenceIsCurrent,
  type Stale,
  type ThreadTask,
  type Verdict,
} from './account-checks.ts';
import { type ReservationRequest, reservationRequestOf } from './payload/unique-identifiers.ts';

/** What a thread answers of a body it read itself: the verdict, and what validate asks next. */
export interface BodyVerdict extends Verdict {
  /** The suppliers the body names, for the key's scope. */
  suppliers: string[];
  /** Its identifiers, for the conflicts with other accounts and processes. */
  reservation: ReservationRequest;
}

/**
 * Runs in a check thread: an unread body's verdict (a `DeferredBody`'s text), when the text is
 * plain enough to read here (vocabulary/plain-json.ts); `unread` leaves it to the event loop.
 */
export function bodyVerdictInThread(task: ThreadTask): BodyVerdict | { unread: true } | Stale {
  if (!referenceIsCurrent(task)) return { stale: true };
  const body = readPlainJsonObject(task.text);
  if (body === undefined) return { unread: true };
  const { errors, code } = check(body, task.clock);
  return {
    errors,
    code,
    suppliers: suppliersNamedIn(body),
    reservation: reservationRequestOf(accountOf(body)),
  };
}
