import { type Queryable, sql } from '../../infra/db/db.ts';
import type { VendorInstruction } from '../../infra/vendors/payment-vendor.ts';

export interface StoredInstruction {
  id: string;
  vendor: string;
  type: string;
  reference: string;
  active: boolean;
}

const selectSameReference = sql(
  'selectPaymentInstructionByReference',
  'SELECT id, vendor, type, reference, active FROM payment_instructions WHERE account_id = $1 AND vendor = $2 AND reference = $3',
);
const selectActiveOfType = sql(
  'selectActivePaymentInstructionOfType',
  'SELECT id, vendor, type, reference, active FROM payment_instructions WHERE account_id = $1 AND type = $2 AND active',
);
const insertInstruction = sql(
  'insertPaymentInstruction',
  `INSERT INTO payment_instructions (account_id, vendor, type, reference, status, active, details,
                                     ledger_code, use_for_scheduled_payments, valid_from)
   VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, $8, $9, $10::date) RETURNING id`,
);

/** What the supplier's request says about the instruction, beside what its vendor says. */
export interface SupplierInstructionFields {
  ledger_code: string | null;
  use_for_scheduled_payments: boolean | null;
  /** `YYYY-MM-DD`. */
  valid_from: string | null;
}

export async function findInstructionByReference(
  tx: Queryable,
  accountId: string,
  vendor: string,
  reference: string,
): Promise<StoredInstruction | undefined> {
  return (await tx.query<StoredInstruction>(selectSameReference, [accountId, vendor, reference])).rows[0];
}

export async function findActiveInstructionOfType(
  tx: Queryable,
  accountId: string,
  type: string,
): Promise<StoredInstruction | undefined> {
  return (await tx.query<StoredInstruction>(selectActiveOfType, [accountId, type])).rows[0];
}

export async function insertPaymentInstruction(
  tx: Queryable,
  accountId: string,
  instruction: VendorInstruction,
  fields: SupplierInstructionFields,
): Promise<void> {
  await tx.query(insertInstruction, [
    accountId,
    instruction.vendor,
    instruction.type,
    instruction.reference,
    instruction.status,
    instruction.active,
    JSON.stringify(instruction.details),
    fields.ledger_code,
    fields.use_for_scheduled_payments,
    fields.valid_from,
  ]);
}
