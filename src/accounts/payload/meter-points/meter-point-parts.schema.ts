/** Objects electricity and gas meter points share: agreements' parts, tax exemptions, smart data. */
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

export const MEASUREMENT_CLASSES = ['A', 'B', 'C', 'D', 'E', 'F', 'G'] as const;
export const BESPOKE_PAYMENT_METHODS = ['DD', 'NDD', 'PP', ''] as const;
const PAYMENT_METHOD_CHARACTERISTICS = ['NON_DIRECT_DEBIT', 'PREPAYMENT', 'DIRECT_DEBIT'] as const;

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

export const MarketParticipantId = (maxLength: number, description: string) =>
  Text({ maxLength, format: 'market-participant-id', description });
