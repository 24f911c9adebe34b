/**
 * The validate endpoint's answer for one account body (V2 validate, and each line of bulk
 * validate): nothing when the body is valid and names a known supplier, else the validation body
 * thrown, identifier conflicts with other accounts and processes included.
 *
 * V2 validate's body comes unread (`DeferredBody`, json-body.ts): a check thread reads its text
 * when it is plain (vocabulary/plain-json.ts) and answers the verdict with the suppliers the body
 * names and its identifiers, so the event loop does not parse the body a thread parses anyway.
 * Any other text is read on the event loop as every body is. Either way the refusals come in the
 * order every other route gives them: the body's own, the query's, the key's supplier scope (403),
 * then the checks; the same answers either way.
 */
import type { FastifyRequest } from 'fastify';
import {
  type AccountCheckPool,
  accountOf,
  addConflicts,
  clockIn,
  supplierNotFound,
  type Verdict,
} from '../../accounts/account-checks.ts';
import type { BodyVerdict } from '../../accounts/body-verdict.ts';
import { type ReservationRequest, reservationRequestOf } from '../../accounts/payload/unique-identifiers.ts';
import { suppliersNamedIn } from '../../auth/suppliers-named.ts';
import { refuseRequestOutsideScope } from '../../auth/token-auth.ts';
import { validationFailed } from '../../errors/error-catalogue.ts';
import type { ErrorItem } from '../../errors/error-items.ts';
import { bodyTextOf, DeferredBody, readQuery } from '../../http/json-body.ts';
import type { SupplierCache } from '../../suppliers/suppliers.queries.ts';

export async function validateAccount(options: {
  suppliers: SupplierCache;
  checks: AccountCheckPool;
  /** The body: read (its text kept for a thread, `bodyTextOf`), or a `DeferredBody`. */
  body: unknown;
  /** The request, whose query and supplier scope an unread body's route applies once it is read. */
  request: FastifyRequest;
  timeZone: string;
  /** What the account would conflict with among other accounts and processes (read-only). */
  conflictsOf?: (request: ReservationRequest) => Promise<ErrorItem[]>;
}): Promise<void> {
  const { suppliers, checks, request, conflictsOf } = options;
  const clock = clockIn(options.timeZone);
  let body = options.body;
  let verdict: Verdict | null = null;
  let conflicts: ErrorItem[] = [];
  // Once the body is read: its query's refusals, then the key's scope over every supplier named.
  const admit = (bodySuppliers: string[]) => {
    readQuery(request);
    refuseRequestOutsideScope(request, bodySuppliers);
  };
  if (body instanceof DeferredBody) {
    const answer = await checks.inThread<BodyVerdict | { unread: true }>(
      'bodyVerdictInThread',
      body.text,
      clock,
    );
    if (answer !== null && !('unread' in answer)) {
      checks.bodiesReadInThreads++;
      admit(answer.suppliers);
      verdict = answer;
      conflicts = (await conflictsOf?.(answer.reservation)) ?? [];
    } else {
      const read = body.read();
      if (!read.ok) throw read.error;
      body = read.value;
      admit(suppliersNamedIn(body));
    }
  }
  if (verdict === null) {
    [verdict, conflicts] = await Promise.all([
      checks.verdict(body, bodyTextOf(body), clock),
      conflictsOf?.(reservationRequestOf(accountOf(body))) ?? [],
    ]);
  }
  if (verdict.code !== null && !(await suppliers.get(verdict.code))) supplierNotFound(verdict);
  addConflicts(verdict.errors, conflicts);
  if (verdict.errors.length > 0) {
    const detail = 'The account data could not be validated.';
    throw validationFailed('account_failed_validation', verdict.errors, detail);
  }
}
