/**
 * Meters and their readings (`meter_points[].meters[]`): the fields both meter types carry, the
 * electricity meter with its registers, the gas meter, prepayment details, transfer and
 * historical readings.
 */
import type { Static } from '@sinclair/typebox';
import * as S from '../../../validation/schema-builders.ts';

const READING_TYPES = ['CUSTOMER', 'ESTIMATE', 'ROUTINE', 'SMART', 'REGULAR'] as const;
export const SMART_TYPES = ['NONE', 'SMETS1', 'SMETS1_ENROLLED', 'SMETS2'] as const;

export const TransferReadingSchema = S.Obj({
  reading_date: S.CalendarDate({ description: 'Equals the last billed to date that applies to the meter.' }),
  reading_type: S.Choice(READING_TYPES),
  reading_value: S.Decimal(10, 10),
  register_id: S.Opt(
    S.Text({ maxLength: 32, description: 'Electricity: required, a register of the meter.' }),
  ),
});

export const HistoricalReadingSchema = S.Obj({
  billed: S.Bool({ description: 'Billed readings may not be after the last billed to date.' }),
  reading_date: S.CalendarDate(),
  reading_type: S.Choice(READING_TYPES),
  reading_value: S.Decimal(10, 10),
  register_id: S.Opt(S.Text({ maxLength: 32, description: 'Electricity: a register of the meter.' })),
  validation_status: S.Opt(
    S.Choice(['VALIDATED', 'UNVALIDATED', 'FAILED'] as const, { default: 'VALIDATED' }),
  ),
});

/** Fields both meter types carry. */
export const meterFields = {
  installed_on: S.Opt(S.Nullable(S.CalendarDate())),
  is_prepay: S.Opt(S.Bool({ default: false })),
  meter_serial_number: S.NonBlankText({ maxLength: 32, format: 'meter-serial-number' }),
  reading_history: S.Opt(S.List(HistoricalReadingSchema)),
  removed_on: S.Opt(
    S.Nullable(S.CalendarDate({ description: 'An exchanged meter needs a reading on this date.' })),
  ),
  smart_commissioned_on: S.Opt(
    S.Nullable(S.CalendarDate({ description: 'Smart meters only; not in the future.' })),
  ),
  smart_device_id: S.Opt(
    S.Nullable(
      S.Text({ format: 'smart-device-id', description: 'Smart meters only, like 01-23-45-67-89-AB-CD-EF.' }),
    ),
  ),
  smart_type: S.Opt(S.Choice(SMART_TYPES, { default: 'NONE' })),
  transfer_readings: S.Opt(S.List(TransferReadingSchema)),
};

/** Fields of both prepayment detail objects. */
export const prepayFields = {
  credit_balance: S.Decimal(10, 10, { description: 'Pounds, at the last statement closing.' }),
  debt_balance: S.Decimal(10, 10, { description: 'Pounds.' }),
  transfer_vend_read_date: S.CalendarDate({ description: 'The last billed to date or the day before it.' }),
};

const RegisterSchema = S.Obj({
  is_settlement: S.Opt(
    S.Bool({ description: 'Settlement registers need a transfer reading, an EAC and a last billed date.' }),
  ),
  last_billed_to_date: S.Opt(S.CalendarDate()),
  number_of_digits: S.Int({ minimum: 1, maximum: 15 }),
  register_id: S.NonBlankText({ maxLength: 32, description: 'As in the MTDs, leading zeros kept.' }),
  tpr: S.Opt(S.Text({ format: 'tpr', description: 'Five-digit time pattern regime.' })),
});

export const ElectricityMeterSchema = S.Obj({
  ...meterFields,
  prepay_customer_reference_number: S.Opt(
    S.Text({ maxLength: 20, format: 'electricity-prepay-reference', description: 'Digits; spaces ignored.' }),
  ),
  prepay_details: S.Opt(S.Obj(prepayFields, { description: 'Prepay meters only.' })),
  registers: S.Opt(S.List(RegisterSchema)),
});

const DebtRepaymentOptionsSchema = S.Obj({
  weekly_max: S.Opt(S.Decimal(10, 10, { description: 'Pounds.' })),
  weekly_min: S.Opt(S.Decimal(10, 10, { description: 'Pounds.' })),
});

export const GasMeterSchema = S.Obj({
  ...meterFields,
  gas_number_of_digits: S.Int({ minimum: 1, maximum: 15 }),
  last_billed_to_date: S.Opt(
    S.CalendarDate({ description: 'Here or on the account, unless the meter is off supply.' }),
  ),
  prepay_customer_reference_number: S.Opt(S.Text({ maxLength: 20 })),
  prepay_details: S.Opt(
    S.Obj(
      { ...prepayFields, gas_debt_repayment_options: S.Opt(DebtRepaymentOptionsSchema) },
      { description: 'Prepay meters only.' },
    ),
  ),
  units_of_measure: S.Opt(S.Choice(['SCFH', 'SCMH'] as const, { default: 'SCMH' })),
});

export type ElectricityMeter = Static<typeof ElectricityMeterSchema>;
export type ElectricityRegister = Static<typeof RegisterSchema>;
export type GasMeter = Static<typeof GasMeterSchema>;
