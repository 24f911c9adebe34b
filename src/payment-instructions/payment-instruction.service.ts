import { findImportedAccount, lockImportedAccount } from '../accounts/imported-account.ts';
import { badRequest } from '../http/errors.ts';
import type { FollowUpDeps } from '../http/follow-up.ts';
import { withTransientRetry } from '../infra/db/db.ts';
import type { PaymentInstructionType, PaymentVendorName } from '../infra/vendors/payment-vendor.ts';
import {
  findActiveInstructionOfType,
  findInstructionByReference,
  insertPaymentInstruction,
} from './payment-instructions.queries.ts';

export interface PaymentInstructionRequest {
  import_supplier: string;
  external_account_number: string;
  vendor: PaymentVendorName;
  reference: string;
  type: PaymentInstructionType;
}

export interface PaymentInstructionCreated {
  service_account_number: string;
  reference: string;
}

/**
 * Attaches a vendor's payment instruction to an imported account (interface 4.4).
 *
 * 1. The account must exist (404 `not_found`) before any vendor is asked.
 * 2. The vendor is asked outside any transaction: no row lock is held across an HTTP call.
 *    VendorRejection (400, its code) and VendorUnavailable (500 `vendor_unavailable`) propagate
 *    to the error handler as they are.
 * 3. With the account row locked: the same vendor reference already stored → the same answer
 *    (idempotent, no second row); another active instruction of the same type → 400
 *    `account_has_active_instruction`; otherwise the instruction is stored.
 */
export async function createPaymentInstruction(
  deps: Pick<FollowUpDeps, 'db' | 'paymentVendors'>,
  body: PaymentInstructionRequest,
): Promise<PaymentInstructionCreated> {
  const { db, paymentVendors } = deps;
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
          throw badRequest(
            'account_has_active_instruction',
            `The account already has an active ${instruction.type} instruction (${active.vendor} ${active.reference}).`,
          );
        }
      }
      await insertPaymentInstruction(tx, account.id, instruction);
      return created;
    }),
  );
}
