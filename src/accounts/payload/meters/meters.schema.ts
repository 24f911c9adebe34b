/**
 * Meters and their readings (`meter_points[].meters[]`): the fields both meter types carry, the
 * electricity meter with its registers, the gas meter, prepayment details, transfer and
 * historical readings.
 */
import type { Static } from '@sinclair/typebox';
import {
  Bool,
  CalendarDate,
  Choice,
  Decimal,
  Int,
  List,
  NonBlankText,
  Nullable,
  Obj,
  Opt,
  Text,
} from '../validation/schema-builders.ts';

const READING_TYPES = ['CUSTOMER', 'ESTIMATE', 'ROUTINE', 'SMART', 'REGULAR'] as const;
export const SMART_TYPES = ['NONE', 'SMETS1', 'SMETS1_ENROLLED', 'SMETS2'] as const;

export const TransferReadingSchema = Obj({
  reading_date: CalendarDate({ description: 'Equals the last billed to date that applies to the meter.' }),
  reading_type: Choice(READING_TYPES),
  reading_value: Decimal(10, 10),
  register_id: Opt(Text({ maxLength: 32, description: 'Electricity: required, a register of the meter.' })),
});

export const HistoricalReadingSchema = Obj({
  billed: Bool({ description: 'Billed readings may not be after the last billed to date.' }),
  reading_date: CalendarDate(),
  reading_type: Choice(READING_TYPES),
  reading_value: Decimal(10, 10),
  register_id: Opt(Text({ maxLength: 32, description: 'Electricity: a register of the meter.' })),
  validation_status: Opt(Choice(['VALIDATED', 'UNVALIDATED', 'FAILED'] as const, { default: 'VALIDATED' })),
});

/** Fields both meter types carry. */
export const meterFields = {
  installed_on: Opt(Nullable(CalendarDate())),
  is_prepay: Opt(Bool({ default: false })),
  meter_serial_number: NonBlankText({ maxLength: 32, format: 'meter-serial-number' }),
  reading_history: Opt(List(HistoricalReadingSchema)),
  removed_on: Opt(
    Nullable(CalendarDate({ description: 'An exchanged meter needs a reading on this date.' })),
  ),
  smart_commissioned_on: Opt(
    Nullable(CalendarDate({ description: 'Smart meters only; not in the future.' })),
  ),
  smart_device_id: Opt(
    Nullable(
      Text({ format: 'smart-device-id', description: 'Smart meters only, like 01-23-45-67-89-AB-CD-EF.' }),
    ),
  ),
  smart_type: Opt(Choice(SMART_TYPES, { default: 'NONE' })),
  transfer_readings: Opt(List(TransferReadingSchema)),
};

/** Fields of both prepayment detail objects. */
export const prepayFields = {
  credit_balance: Decimal(10, 10, { description: 'Pounds, at the last statement closing.' }),
  debt_balance: Decimal(10, 10, { description: 'Pounds.' }),
  transfer_vend_read_date: CalendarDate({ description: 'The last billed to date or the day before it.' }),
};

const RegisterSchema = Obj({
  is_settlement: Opt(
    Bool({ description: 'Settlement registers need a transfer reading, an EAC and a last billed date.' }),
  ),
  last_billed_to_date: Opt(CalendarDate()),
  number_of_digits: Int({ minimum: 1, maximum: 15 }),
  register_id: NonBlankText({ maxLength: 32, description: 'As in the MTDs, leading zeros kept.' }),
  tpr: Opt(Text({ format: 'tpr', description: 'Five-digit time pattern regime.' })),
});

export const ElectricityMeterSchema = Obj({
  ...meterFields,
  prepay_customer_reference_number: Opt(
    Text({ maxLength: 20, format: 'electricity-prepay-reference', description: 'Digits; spaces ignored.' }),
  ),
  prepay_details: Opt(Obj(prepayFields, { description: 'Prepay meters only.' })),
  registers: Opt(List(RegisterSchema)),
});

const DebtRepaymentOptionsSchema = Obj({
  weekly_max: Opt(Decimal(10, 10, { description: 'Pounds.' })),
  weekly_min: Opt(Decimal(10, 10, { description: 'Pounds.' })),
});

export const GasMeterSchema = Obj({
  ...meterFields,
  gas_number_of_digits: Int({ minimum: 1, maximum: 15 }),
  last_billed_to_date: Opt(
    CalendarDate({ description: 'Here or on the account, unless the meter is off supply.' }),
  ),
  prepay_customer_reference_number: Opt(Text({ maxLength: 20 })),
  prepay_details: Opt(
    Obj(
      { ...prepayFields, gas_debt_repayment_options: Opt(DebtRepaymentOptionsSchema) },
      { description: 'Prepay meters only.' },
    ),
  ),
  units_of_measure: Opt(Choice(['SCFH', 'SCMH'] as const, { default: 'SCMH' })),
});

export type ElectricityMeter = Static<typeof ElectricityMeterSchema>;
export type ElectricityRegister = Static<typeof RegisterSchema>;
export type GasMeter = Static<typeof GasMeterSchema>;
