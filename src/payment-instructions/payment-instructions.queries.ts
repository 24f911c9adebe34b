import { type Queryable, sql } from '../infra/db/db.ts';
import type { VendorInstruction } from '../infra/vendors/payment-vendor.ts';

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
  `INSERT INTO payment_instructions (account_id, vendor, type, reference, status, active, details)
   VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb) RETURNING id`,
);

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
): Promise<void> {
  await tx.query(insertInstruction, [
    accountId,
    instruction.vendor,
    instruction.type,
    instruction.reference,
    instruction.status,
    instruction.active,
    JSON.stringify(instruction.details),
  ]);
}
