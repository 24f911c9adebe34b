import { findImportedAccount, lockImportedAccount } from '../../accounts/imported-account.ts';
import { apiError } from '../../errors/error-catalogue.ts';
import { recordAccountEvent } from '../../events/event-feed.ts';
import { withTransientRetry } from '../../infra/db/db.ts';
import { FOLLOW_UP_EVENTS } from '../../vocabulary/event-types.ts';
import { type FollowUpDeps, followUpBodyChecker, followUpValidationFailed } from '../follow-up.ts';
import {
  findActiveInstructionOfType,
  findInstructionByReference,
  insertPaymentInstruction,
} from './payment-instructions.queries.ts';
import { PaymentInstructionBody, type PaymentInstructionRequest } from './payment-instructions.schema.ts';

export interface PaymentInstructionCreated {
  service_account_number: string;
  reference: string;
}

const checkBody = followUpBodyChecker<PaymentInstructionRequest>(PaymentInstructionBody);

/**
 * Attaches a vendor's payment instruction to an imported account (interface 4.4).
 *
 * 1. The body is checked (400 `validation_error`), then the account must exist (404
 *    `not_found`), before any vendor is asked.
 * 2. The vendor is asked outside any transaction: no row lock is held across an HTTP call. The
 *    vendor alone decides whether a reference exists (no prefix checks here).
 *    VendorRejection (400, its code) and VendorUnavailable (500 `vendor_unavailable`) propagate
 *    to the error handler as they are.
 * 3. With the account row locked: the same vendor reference already stored → the same answer
 *    (idempotent, no second row, the first request's fields kept); another active instruction of
 *    the same type → 400 `account_has_active_instruction`; otherwise the instruction is stored,
 *    with the supplier's own fields (ledger_code, use_for_scheduled_payments, valid_from).
 */
export async function createPaymentInstruction(
  deps: Pick<FollowUpDeps, 'db' | 'paymentVendors'>,
  raw: unknown,
): Promise<PaymentInstructionCreated> {
  const { db, paymentVendors } = deps;
  const { value: body, errors } = checkBody(raw);
  if (errors.length > 0) throw followUpValidationFailed(errors);
  await findImportedAccount(db, body.import_supplier, body.external_account_number);

  const instruction = await paymentVendors.get(body.vendor).fetchInstruction(body.reference, body.type);

  return withTransientRetry(() =>
    db.transaction(async (tx) => {
      const account = await lockImportedAccount(tx, body.import_supplier, body.external_account_number);
      const created = { service_account_number: account.number, reference: instruction.reference };
      if (await findInstructionByReference(tx, account.id, instruction.vendor, instruction.reference)) {
        return created;
      }
      if (instruction.active) {
        const active = await findActiveInstructionOfType(tx, account.id, instruction.type);
        if (active) {
          throw apiError(
            'account_has_active_instruction',
            `The account already has an active ${instruction.type} instruction (${active.vendor} ${active.reference}).`,
          );
        }
      }
      await insertPaymentInstruction(tx, account.id, instruction, {
        ledger_code: body.ledger_code ?? null,
        use_for_scheduled_payments: body.use_for_scheduled_payments ?? null,
        valid_from: body.valid_from ?? null,
      });
      await recordAccountEvent(tx, {
        supplier: account.import_supplier,
        externalAccountNumber: account.external_account_number,
        type: FOLLOW_UP_EVENTS.PAYMENT_INSTRUCTION_ADDED,
        data: { vendor: instruction.vendor, type: instruction.type, reference: instruction.reference },
      });
      return created;
    }),
  );
}
