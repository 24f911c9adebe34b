/**
 * Ledger transactions (`current_statement_transactions[]`, `historical_statement_transactions[]`,
 * also inside `ledgers[]`), polymorphic on `type`. Amounts are in pounds as decimal strings.
 */
import { type Static, Type } from '@sinclair/typebox';
import * as S from '../../../validation/schema-builders.ts';
import { CREDIT_REASONS } from '../../../vocabulary/credit-reasons.ts';
import {
  CHARGE_REASONS,
  PAYMENT_REASONS,
  PAYMENT_TYPES,
  REPAYMENT_PAYMENT_TYPES,
  REPAYMENT_REASONS,
} from '../../../vocabulary/transaction-enums.ts';

const TaxItemSchema = S.Obj({
  amount: S.Decimal(10, 10, { description: 'Tax amount in pounds.' }),
  params: S.Opt(S.FreeObject()),
  rate: S.Decimal(15, 5),
  tax_type: S.NonBlankText(),
  unit_type: S.Choice(['PROPORTION', 'CURRENCY_PER_KWH'] as const),
  value_taxed: S.Decimal(15, 5),
});

const LineItemSchema = S.Obj({
  end_date: S.CalendarDate({ description: 'Inclusive; not before start_date.' }),
  external_rate_identifier: S.Opt(S.Text()),
  net_amount: S.Decimal(10, 10, { description: 'price_per_unit × number_of_units, in pounds.' }),
  number_of_units: S.Decimal(12, 4),
  params: S.Opt(S.FreeObject()),
  price_per_unit: S.Opt(S.Decimal(8, 7)),
  rate_band: S.Opt(
    S.Text({
      description: 'Exactly one of rate_band, rate_specification_code, time_series_specification_code.',
    }),
  ),
  rate_specification_code: S.Opt(S.Text()),
  start_date: S.CalendarDate({ description: 'Inclusive.' }),
  time_series_specification_code: S.Opt(S.Text()),
  units: S.Opt(S.List(S.Decimal(12, 4), { description: 'Metered line items only: exactly two values.' })),
});

/** Fields every transaction type carries. `reference` is accepted on all types (docs/product.md, Errors). */
const transactionFields = {
  amount: S.Decimal(10, 10, {
    description: 'Pounds. Payments and credits add to the balance; charges and repayments subtract.',
  }),
  billing_document_identifier: S.Opt(S.Text({ description: 'Historical statement transactions only.' })),
  display_note: S.Opt(S.Text()),
  note: S.Opt(S.Text()),
  reference: S.Opt(S.Text()),
  to_prepay_meter_serial_number: S.Opt(
    S.Text({ description: 'Vend to a prepay meter; must match a meter with prepay_details.' }),
  ),
  transaction_date: S.CalendarDate({ description: 'Not in the future.' }),
  // Indexed with the account (decision 0048): an identifier has a length a B-tree entry holds.
  transaction_id: S.NonBlankText({
    maxLength: 128,
    description: 'Unique across all transactions of the payload. At most 128 characters.',
  }),
};

const CreditSchema = S.Obj({
  type: Type.Literal('CREDIT'),
  ...transactionFields,
  reason: S.Choice(CREDIT_REASONS),
});

const ChargeSchema = S.Obj({
  type: Type.Literal('CHARGE'),
  ...transactionFields,
  reason: S.Choice(CHARGE_REASONS),
  tax_items: S.Opt(S.List(TaxItemSchema, { description: 'Omitted means no tax.' })),
});

const PaymentSchema = S.Obj({
  type: Type.Literal('PAYMENT'),
  ...transactionFields,
  payment_type: S.Opt(S.Choice(PAYMENT_TYPES)),
  reason: S.Opt(S.Choice(PAYMENT_REASONS)),
});

const RepaymentSchema = S.Obj({
  type: Type.Literal('REPAYMENT'),
  ...transactionFields,
  payment_type: S.Opt(S.Choice(REPAYMENT_PAYMENT_TYPES)),
  reason: S.Opt(S.Choice(REPAYMENT_REASONS)),
});

const SupplyChargeSchema = S.Obj({
  type: Type.Literal('SUPPLY_CHARGE'),
  ...transactionFields,
  line_items: S.List(LineItemSchema, { description: 'Their net amounts plus tax make up the amount.' }),
  product_code: S.NonBlankText({ format: 'product-code' }),
  supply_point_identifier: S.Opt(
    S.Text({ description: 'Required when a line item uses rate_specification_code.' }),
  ),
  tax_items: S.Opt(S.List(TaxItemSchema)),
});

export const TransactionSchema = S.TaggedUnion('type', [
  CreditSchema,
  ChargeSchema,
  PaymentSchema,
  RepaymentSchema,
  SupplyChargeSchema,
]);

export type Transaction = Static<typeof TransactionSchema>;
export type SupplyChargeTransaction = Static<typeof SupplyChargeSchema>;
export type LineItem = Static<typeof LineItemSchema>;
