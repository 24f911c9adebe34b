/**
 * Ledger transactions (`current_statement_transactions[]`, `historical_statement_transactions[]`,
 * also inside `ledgers[]`), polymorphic on `type`. Amounts are in pounds as decimal strings.
 */
import { type Static, Type } from '@sinclair/typebox';
import { CREDIT_REASONS } from '../../../vocabulary/credit-reasons.ts';
import {
  CHARGE_REASONS,
  PAYMENT_REASONS,
  PAYMENT_TYPES,
  REPAYMENT_PAYMENT_TYPES,
  REPAYMENT_REASONS,
} from '../../../vocabulary/transaction-enums.ts';
import {
  CalendarDate,
  Choice,
  Decimal,
  FreeObject,
  List,
  NonBlankText,
  Obj,
  Opt,
  TaggedUnion,
  Text,
} from '../validation/schema-builders.ts';

const TaxItemSchema = Obj({
  amount: Decimal(10, 10, { description: 'Tax amount in pounds.' }),
  params: Opt(FreeObject()),
  rate: Decimal(15, 5),
  tax_type: NonBlankText(),
  unit_type: Choice(['PROPORTION', 'CURRENCY_PER_KWH'] as const),
  value_taxed: Decimal(15, 5),
});

const LineItemSchema = Obj({
  end_date: CalendarDate({ description: 'Inclusive; not before start_date.' }),
  external_rate_identifier: Opt(Text()),
  net_amount: Decimal(10, 10, { description: 'price_per_unit × number_of_units, in pounds.' }),
  number_of_units: Decimal(12, 4),
  params: Opt(FreeObject()),
  price_per_unit: Opt(Decimal(8, 7)),
  rate_band: Opt(
    Text({
      description: 'Exactly one of rate_band, rate_specification_code, time_series_specification_code.',
    }),
  ),
  rate_specification_code: Opt(Text()),
  start_date: CalendarDate({ description: 'Inclusive.' }),
  time_series_specification_code: Opt(Text()),
  units: Opt(List(Decimal(12, 4), { description: 'Metered line items only: exactly two values.' })),
});

/** Fields every transaction type carries. `reference` is accepted on all types (PRODUCT §6). */
const transactionFields = {
  amount: Decimal(10, 10, {
    description: 'Pounds. Payments and credits add to the balance; charges and repayments subtract.',
  }),
  billing_document_identifier: Opt(Text({ description: 'Historical statement transactions only.' })),
  display_note: Opt(Text()),
  note: Opt(Text()),
  reference: Opt(Text()),
  to_prepay_meter_serial_number: Opt(
    Text({ description: 'Vend to a prepay meter; must match a meter with prepay_details.' }),
  ),
  transaction_date: CalendarDate({ description: 'Not in the future.' }),
  transaction_id: NonBlankText({ description: 'Unique across all transactions of the payload.' }),
};

const CreditSchema = Obj({
  type: Type.Literal('CREDIT'),
  ...transactionFields,
  reason: Choice(CREDIT_REASONS),
});

const ChargeSchema = Obj({
  type: Type.Literal('CHARGE'),
  ...transactionFields,
  reason: Choice(CHARGE_REASONS),
  tax_items: Opt(List(TaxItemSchema, { description: 'Omitted means no tax.' })),
});

const PaymentSchema = Obj({
  type: Type.Literal('PAYMENT'),
  ...transactionFields,
  payment_type: Opt(Choice(PAYMENT_TYPES)),
  reason: Opt(Choice(PAYMENT_REASONS)),
});

const RepaymentSchema = Obj({
  type: Type.Literal('REPAYMENT'),
  ...transactionFields,
  payment_type: Opt(Choice(REPAYMENT_PAYMENT_TYPES)),
  reason: Opt(Choice(REPAYMENT_REASONS)),
});

const SupplyChargeSchema = Obj({
  type: Type.Literal('SUPPLY_CHARGE'),
  ...transactionFields,
  line_items: List(LineItemSchema, { description: 'Their net amounts plus tax make up the amount.' }),
  product_code: NonBlankText({ format: 'product-code' }),
  supply_point_identifier: Opt(
    Text({ description: 'Required when a line item uses rate_specification_code.' }),
  ),
  tax_items: Opt(List(TaxItemSchema)),
});

export const TransactionSchema = TaggedUnion('type', [
  CreditSchema,
  ChargeSchema,
  PaymentSchema,
  RepaymentSchema,
  SupplyChargeSchema,
]);

export type Transaction = Static<typeof TransactionSchema>;
export type SupplyChargeTransaction = Static<typeof SupplyChargeSchema>;
export type LineItem = Static<typeof LineItemSchema>;
