/** Objects electricity and gas meter points share: readings, agreements' parts, exemptions, smart data. */
import { Type } from '@sinclair/typebox';
import {
  AnyJson,
  Bool,
  CalendarDate,
  Choice,
  DateTime,
  Decimal,
  List,
  NonBlankText,
  Nullable,
  Obj,
  Opt,
  TaggedUnion,
  Text,
} from '../validation/schema-builders.ts';
import {
  GRID_SUPPLY_POINT_EQUIVALENTS,
  METERING_AGENTS,
  SALES_CHANNEL_CHARACTERISTICS,
  SMART_REFUSAL_REASONS,
} from './meter-points.enums.ts';

const READING_TYPES = ['CUSTOMER', 'ESTIMATE', 'ROUTINE', 'SMART', 'REGULAR'] as const;
export const SMART_TYPES = ['NONE', 'SMETS1', 'SMETS1_ENROLLED', 'SMETS2'] as const;
export const MEASUREMENT_CLASSES = ['A', 'B', 'C', 'D', 'E', 'F', 'G'] as const;
export const BESPOKE_PAYMENT_METHODS = ['DD', 'NDD', 'PP', ''] as const;
const PAYMENT_METHOD_CHARACTERISTICS = ['NON_DIRECT_DEBIT', 'PREPAYMENT', 'DIRECT_DEBIT'] as const;

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

export const TaxExemptionSchema = Obj({
  effective_from: CalendarDate(),
  effective_to: Opt(CalendarDate({ description: 'Strictly after effective_from; omit for open-ended.' })),
  rate: Decimal(1, 2, { description: 'Proportion exempt: 1.0 is 100%.' }),
});

export const SmartRefusalInterestSchema = Obj({
  date: CalendarDate(),
  refusal_reason: Opt(Choice(SMART_REFUSAL_REASONS, { description: 'Not when type is INTERESTED.' })),
  source: Opt(Choice(['WEBSITE', 'EMAIL', 'OTHER'] as const)),
  type: Choice(['NOT_INTERESTED', 'INTERESTED', 'NOT_AT_THE_MOMENT'] as const),
});

export const SmartSiteVisitSchema = Obj({
  additional_data: Opt(AnyJson()),
  appointment_notes: Opt(Text({ maxLength: 2048 })),
  date: CalendarDate(),
  metering_agent: Choice(METERING_AGENTS),
  reference_number: NonBlankText({ maxLength: 1024 }),
  status: Choice(['CANCELLED', 'ABORTED', 'SUCCESSFUL'] as const),
  work_category: Choice([
    'IHD_INSTALL',
    'NEW_CONNECTION',
    'REMOVE',
    'EXCHANGE',
    'OTHER',
    'MOVE',
    'CONFIRM_METER_DETAILS',
    'ENERGISE',
    'DE_ENERGISE',
    'INVESTIGATE_FAULT',
  ] as const),
});

const RateOverrideSchema = Obj({
  rate_band: NonBlankText({ maxLength: 255 }),
  unit_price: Decimal(10, 10),
});

const IntermediarySchema = Obj({
  external_id: Opt(Nullable(Text({ maxLength: 255 }))),
  portfolio_number: NonBlankText({
    format: 'portfolio-number',
    description: '"P-" and 8 capitals or digits.',
  }),
});

const characteristic = <C extends string, V extends readonly string[]>(code: C, values: V) =>
  Obj({ code: Type.Literal(code), value: Choice(values, { errorCode: 'invalid_characteristic_value' }) });

const ProductCharacteristicSchema = TaggedUnion(
  'code',
  [
    characteristic('sales_channel', SALES_CHANNEL_CHARACTERISTICS),
    characteristic('gbr-electricity.payment-method', PAYMENT_METHOD_CHARACTERISTICS),
    characteristic('gbr-electricity.meter-rate-profile', ['flat_rate', 'multi_rate'] as const),
    characteristic('gbr-gas.meter-point-grid-supply-point-equivalent', GRID_SUPPLY_POINT_EQUIVALENTS),
    characteristic('gbr-gas.payment-method', PAYMENT_METHOD_CHARACTERISTICS),
  ],
  { errorCode: 'characteristic_code_not_found' },
);

/** Fields every agreement (electricity or gas) carries. */
export const agreementFields = {
  agreed_at: Opt(Nullable(DateTime())),
  business_contract_identifier: Opt(
    Nullable(Text({ description: 'One of business.business_contract_identifiers.' })),
  ),
  characteristics: Opt(
    Nullable(List(ProductCharacteristicSchema, { description: 'Each code at most once.' })),
  ),
  effective_from: CalendarDate({ description: 'Inclusive; not before the supply start date.' }),
  effective_to: Opt(Nullable(CalendarDate({ description: 'Exclusive; omit for open-ended.' }))),
  intermediary: Opt(Nullable(IntermediarySchema)),
  rate_overrides: Opt(Nullable(List(RateOverrideSchema))),
  rates_agreed_at: Opt(Nullable(DateTime())),
  tariff_code: NonBlankText({ format: 'tariff-code', description: 'Code of an existing tariff.' }),
};

/** Fields both meter point types carry besides meters and agreements. */
export const meterPointFields = {
  ccl_exemptions: Opt(List(TaxExemptionSchema, { description: 'Business accounts only.' })),
  dr_in_progress: Opt(Nullable(Bool({ description: 'A disputed read in progress blocks the import.' }))),
  et_in_progress: Opt(
    Nullable(Bool({ description: 'An erroneous transfer in progress blocks the import.' })),
  ),
  last_billed_to_date: Opt(
    CalendarDate({ description: 'Inclusive; the supply start date if never billed.' }),
  ),
  smart_refusal_interest: Opt(SmartRefusalInterestSchema),
  smart_site_visit: Opt(List(SmartSiteVisitSchema)),
  supply_end_date: Opt(
    Nullable(CalendarDate({ description: 'A future date (a loss in progress) is rejected.' })),
  ),
  supply_start_date: CalendarDate({ description: 'A billable meter point cannot start in the future.' }),
  vat_exemptions: Opt(List(TaxExemptionSchema, { description: 'Business accounts only.' })),
};

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

export const MarketParticipantId = (maxLength: number, description: string) =>
  Text({ maxLength, format: 'market-participant-id', description });
