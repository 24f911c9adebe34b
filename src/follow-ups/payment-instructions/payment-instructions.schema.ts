import type { Static } from '@sinclair/typebox';
import { PaymentInstructionSchema } from '../../accounts/payload/payments/payments.schema.ts';
import { PAYMENT_INSTRUCTION_TYPES, PAYMENT_VENDOR_NAMES } from '../../infra/vendors/payment-vendor.ts';
import { Bool, Choice, NonBlankText, Nullable, Obj, Opt } from '../../validation/schema-builders.ts';

// The account payload's own definitions: `ledger_code` has its `ledger-code` format (a format
// check only, answering `ledger_code_does_not_exist`: we hold no ledger registry).
const { ledger_code, valid_from } = PaymentInstructionSchema.properties;

/** The reference's LegacyPaymentInstruction, with our vendors and types (docs/product.md, Payment vendors). */
export const PaymentInstructionBody = Obj({
  import_supplier: NonBlankText({ maxLength: 64, description: 'Import supplier code.' }),
  external_account_number: NonBlankText({ maxLength: 128 }),
  vendor: Choice(PAYMENT_VENDOR_NAMES, { description: 'The payment vendor holding the instruction.' }),
  reference: NonBlankText({
    maxLength: 512,
    description:
      "The vendor's id, e.g. a GoCardless mandate or a Stripe payment method; the vendor says whether it exists.",
  }),
  type: Choice(PAYMENT_INSTRUCTION_TYPES, { description: 'Kind of instruction.' }),
  ledger_code,
  use_for_scheduled_payments: Opt(
    Nullable(Bool({ description: "Whether it pays the account's payment schedule." })),
  ),
  valid_from,
});

export const PAYMENT_INSTRUCTION_EXAMPLE = {
  import_supplier: 'TENTACLE_ENERGY',
  external_account_number: 'EXTERNAL-1234',
  vendor: 'GOCARDLESS',
  reference: 'MD000SIMACTIVE',
  type: 'DIRECT_DEBIT',
};

export type PaymentInstructionRequest = Static<typeof PaymentInstructionBody>;
