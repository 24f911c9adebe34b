/**
 * The catalogue and code lists checked again at creation (decision 0091): they may have changed
 * since the account was accepted. A product, tariff or value in use cannot be removed, so this
 * should never refuse; the worker counts it when it does (ferry_worker_catalogue_refusals_total).
 */
import { CheckContext } from '../validation/check-context.ts';
import { AccountCreationError } from './account-creation-error.ts';
import type { AccountPayload } from './payload/account-payload.schema.ts';
import { runReferenceChecks } from './payload/run-account-checks.ts';

export function refuseAgainstReferenceData(inputs: ReadonlyArray<{ payload: unknown; today: string }>): void {
  for (const input of inputs) {
    const ctx = new CheckContext(input.today);
    // The payload passed every check when it was accepted: it has the schema's types.
    runReferenceChecks(input.payload as AccountPayload, ctx);
    const first = ctx.errors[0];
    if (first) {
      throw new AccountCreationError(
        'catalogue_check_failed',
        `The reference data changed since the account was accepted: ${first.code} at ${first.attr}: ${first.detail}`,
      );
    }
  }
}
