import { Type } from '@sinclair/typebox';
import { StringEnum } from '../http/schemas.ts';

export const TRANSACTION_TYPES = ['CHARGE', 'CREDIT', 'PAYMENT', 'REPAYMENT', 'SUPPLY_CHARGE'] as const;
export type TransactionType = (typeof TRANSACTION_TYPES)[number];

const Amount = (description: string) =>
  Type.Union([Type.Number(), Type.String({ maxLength: 32 })], { description });
const CalendarDate = (description?: string) => Type.String({ format: 'date', description });
const Text = (maxLength = 512, description?: string) => Type.String({ maxLength, description });

export const LineItemSchema = Type.Object(
  {
    rate_band: Type.Optional(Text(100, 'For example CONSUMPTION_STANDARD.')),
    start_date: CalendarDate('Inclusive.'),
    end_date: CalendarDate('Inclusive; not before start_date.'),
    number_of_units: Amount('Units consumed.'),
    net_amount: Amount('Pounds; at most 2 decimal places.'),
    price_per_unit: Type.Optional(Amount('Pounds per unit.')),
    units: Type.Optional(Type.Array(Type.Number(), { maxItems: 100 })),
  },
  { additionalProperties: false },
);

export const TaxItemSchema = Type.Object(
  {
    amount: Amount('Pounds; at most 2 decimal places.'),
    tax_type: Text(50, 'For example VAT.'),
    value_taxed: Amount('Pounds the tax was charged on.'),
    rate: Amount('For example 0.05.'),
    unit_type: Text(50, 'For example PROPORTION.'),
  },
  { additionalProperties: false },
);

/**
 * One transaction, structurally: every field any type may carry. Which fields a given type
 * needs or may carry is checked afterwards (transaction-rules.ts), so the errors can name them.
 */
export const TransactionItemSchema = Type.Object(
  {
    transaction_id: Type.String({ minLength: 1, maxLength: 100, description: 'Unique on the account.' }),
    transaction_date: CalendarDate('YYYY-MM-DD; not in the future.'),
    amount: Amount(
      'Pounds, a JSON number or decimal string with at most 2 decimal places; returned as a string.',
    ),
    type: StringEnum(TRANSACTION_TYPES),
    reason: Type.Optional(
      Text(100, 'Required on CHARGE, CREDIT, PAYMENT and REPAYMENT; absent on SUPPLY_CHARGE.'),
    ),
    display_note: Type.Optional(Text(2000, 'Shown to the customer.')),
    note: Type.Optional(Text(2000, 'Internal.')),
    reference: Type.Optional(Text(255)),
    payment_type: Type.Optional(Text(100, 'PAYMENT and REPAYMENT only.')),
    to_prepay_meter_serial_number: Type.Optional(Text(50)),
    product_code: Type.Optional(Text(100, 'SUPPLY_CHARGE only (required there).')),
    line_items: Type.Optional(
      Type.Array(LineItemSchema, { maxItems: 1000, description: 'SUPPLY_CHARGE only (required there).' }),
    ),
    tax_items: Type.Optional(
      Type.Array(TaxItemSchema, { maxItems: 100, description: 'CHARGE and SUPPLY_CHARGE.' }),
    ),
  },
  { additionalProperties: false },
);
