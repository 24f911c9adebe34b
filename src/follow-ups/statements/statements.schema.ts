import { type TSchema, Type } from '@sinclair/typebox';
import { IntegerField } from '../../vocabulary/field-types.ts';
import { followUpBody } from '../follow-up.ts';

const CalendarDate = (description: string) =>
  Type.String({ format: 'date', description: `${description} YYYY-MM-DD.` });

/** `null` accepted as well (the reference marks the field nullable): OpenAPI's `nullable`, which Ajv knows. */
const OrNull = <T extends TSchema>(schema: T) =>
  Type.Unsafe<T['static'] | null>({ ...schema, nullable: true });

export const StatementItemSchema = Type.Object(
  {
    bill_period_from_date: CalendarDate('First day of the billed period.'),
    bill_period_to_date: CalendarDate('Last day of the billed period; on or after the first.'),
    statement_id: Type.String({
      minLength: 1,
      maxLength: 128,
      description: "The supplier's statement identifier; a statement already imported is not duplicated.",
    }),
    issued_date: Type.Optional(OrNull(CalendarDate('When the statement was issued.'))),
    number: Type.Optional(Type.String({ maxLength: 128 })),
    gross_amount: Type.Optional(
      OrNull(
        IntegerField({
          minimum: -Number.MAX_SAFE_INTEGER,
          maximum: Number.MAX_SAFE_INTEGER,
          description: 'Gross amount in minor units (pence).',
        }),
      ),
    ),
    statement_path: Type.Optional(
      Type.String({ description: "The PDF, relative to the supplier's document root; it must exist." }),
    ),
  },
  { additionalProperties: false },
);

export const StatementsBodySchema = followUpBody(
  'statements',
  StatementItemSchema,
  'The historical statements, 1 to 1,000.',
);

export interface StatementInput {
  bill_period_from_date: string;
  bill_period_to_date: string;
  statement_id: string;
  issued_date?: string | null;
  number?: string;
  gross_amount?: number | null;
  statement_path?: string;
}

export interface StatementsRequest {
  import_supplier: string;
  external_account_number: string;
  statements: StatementInput[];
}
