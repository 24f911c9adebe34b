/** Objects electricity and gas meter points share: agreements' parts, tax exemptions, smart data. */
import { Type } from '@sinclair/typebox';
import * as S from '../../../validation/schema-builders.ts';
import {
  GRID_SUPPLY_POINT_EQUIVALENTS,
  METERING_AGENTS,
  SALES_CHANNEL_CHARACTERISTICS,
  SMART_REFUSAL_REASONS,
} from './meter-points.enums.ts';

export const MEASUREMENT_CLASSES = ['A', 'B', 'C', 'D', 'E', 'F', 'G'] as const;
export const BESPOKE_PAYMENT_METHODS = ['DD', 'NDD', 'PP', ''] as const;
const PAYMENT_METHOD_CHARACTERISTICS = ['NON_DIRECT_DEBIT', 'PREPAYMENT', 'DIRECT_DEBIT'] as const;

export const TaxExemptionSchema = S.Obj({
  effective_from: S.CalendarDate(),
  effective_to: S.Opt(S.CalendarDate({ description: 'Strictly after effective_from; omit for open-ended.' })),
  rate: S.Decimal(1, 2, { description: 'Proportion exempt: 1.0 is 100%.' }),
});

export const SmartRefusalInterestSchema = S.Obj({
  date: S.CalendarDate(),
  refusal_reason: S.Opt(S.Choice(SMART_REFUSAL_REASONS, { description: 'Not when type is INTERESTED.' })),
  source: S.Opt(S.Choice(['WEBSITE', 'EMAIL', 'OTHER'] as const)),
  type: S.Choice(['NOT_INTERESTED', 'INTERESTED', 'NOT_AT_THE_MOMENT'] as const),
});

export const SmartSiteVisitSchema = S.Obj({
  additional_data: S.Opt(S.AnyJson()),
  appointment_notes: S.Opt(S.Text({ maxLength: 2048 })),
  date: S.CalendarDate(),
  metering_agent: S.Choice(METERING_AGENTS),
  reference_number: S.NonBlankText({ maxLength: 1024 }),
  status: S.Choice(['CANCELLED', 'ABORTED', 'SUCCESSFUL'] as const),
  work_category: S.Choice([
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

const RateOverrideSchema = S.Obj({
  rate_band: S.NonBlankText({ maxLength: 255 }),
  unit_price: S.Decimal(10, 10),
});

const IntermediarySchema = S.Obj({
  external_id: S.Opt(S.Nullable(S.Text({ maxLength: 255 }))),
  portfolio_number: S.NonBlankText({
    format: 'portfolio-number',
    description: '"P-" and 8 capitals or digits.',
  }),
});

const characteristic = <C extends string, V extends readonly string[]>(code: C, values: V) =>
  S.Obj({ code: Type.Literal(code), value: S.Choice(values, { errorCode: 'invalid_characteristic_value' }) });

const ProductCharacteristicSchema = S.TaggedUnion(
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
  agreed_at: S.Opt(S.Nullable(S.DateTime())),
  business_contract_identifier: S.Opt(
    S.Nullable(S.Text({ description: 'One of business.business_contract_identifiers.' })),
  ),
  characteristics: S.Opt(
    S.Nullable(S.List(ProductCharacteristicSchema, { description: 'Each code at most once.' })),
  ),
  effective_from: S.CalendarDate({ description: 'Inclusive; not before the supply start date.' }),
  effective_to: S.Opt(S.Nullable(S.CalendarDate({ description: 'Exclusive; omit for open-ended.' }))),
  intermediary: S.Opt(S.Nullable(IntermediarySchema)),
  rate_overrides: S.Opt(S.Nullable(S.List(RateOverrideSchema))),
  rates_agreed_at: S.Opt(S.Nullable(S.DateTime())),
  tariff_code: S.NonBlankText({ format: 'tariff-code', description: 'Code of an existing tariff.' }),
};

/** Fields both meter point types carry besides meters and agreements. */
export const meterPointFields = {
  ccl_exemptions: S.Opt(S.List(TaxExemptionSchema, { description: 'Business accounts only.' })),
  dr_in_progress: S.Opt(
    S.Nullable(S.Bool({ description: 'A disputed read in progress blocks the import.' })),
  ),
  et_in_progress: S.Opt(
    S.Nullable(S.Bool({ description: 'An erroneous transfer in progress blocks the import.' })),
  ),
  last_billed_to_date: S.Opt(
    S.CalendarDate({ description: 'Inclusive; the supply start date if never billed.' }),
  ),
  smart_refusal_interest: S.Opt(SmartRefusalInterestSchema),
  smart_site_visit: S.Opt(S.List(SmartSiteVisitSchema)),
  supply_end_date: S.Opt(
    S.Nullable(S.CalendarDate({ description: 'A future date (a loss in progress) is rejected.' })),
  ),
  supply_start_date: S.CalendarDate({ description: 'A billable meter point cannot start in the future.' }),
  vat_exemptions: S.Opt(S.List(TaxExemptionSchema, { description: 'Business accounts only.' })),
};

export const MarketParticipantId = (maxLength: number, description: string) =>
  S.Text({ maxLength, format: 'market-participant-id', description });
