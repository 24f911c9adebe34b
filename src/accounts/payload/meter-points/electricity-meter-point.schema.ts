/** `supply_addresses[].meter_points[]` with `supply_type: ELECTRICITY`. */
import { type Static, Type } from '@sinclair/typebox';
import * as S from '../../../validation/schema-builders.ts';
import { ElectricityMeterSchema } from '../meters/meters.schema.ts';
import {
  agreementFields,
  BESPOKE_PAYMENT_METHODS,
  MarketParticipantId,
  MEASUREMENT_CLASSES,
  meterPointFields,
} from './meter-point-parts.schema.ts';
import { BESPOKE_RATE_TYPES, ELECTRICITY_READING_CYCLES } from './meter-points.enums.ts';

const AgentContractSchema = S.Obj({
  agent_mpid: S.Opt(S.Nullable(S.Text({ minLength: 4, maxLength: 4, format: 'market-participant-id' }))),
  contract_reference: S.Opt(S.Text({ maxLength: 10 })),
  is_amr: S.Opt(S.Bool()),
  is_customer_appointed: S.Opt(S.Bool()),
  service_level_reference: S.Opt(S.Text({ maxLength: 4 })),
  service_reference: S.Opt(S.Text({ maxLength: 4 })),
});

const AgentsSchema = S.Obj(
  {
    da_contract: S.Opt(S.Nullable(AgentContractSchema)),
    dc_contract: S.Opt(S.Nullable(AgentContractSchema)),
    mop_contract: S.Opt(S.Nullable(AgentContractSchema)),
  },
  { description: 'Agent contracts; not together with dc_to_appoint / mop_to_appoint.' },
);

const BespokeRegisterRateSchema = S.Obj({
  rate_type: S.Opt(S.Choice(BESPOKE_RATE_TYPES, { description: 'Required when register_id is absent.' })),
  register_id: S.Opt(S.Text({ maxLength: 32, description: 'Required when rate_type is absent.' })),
  start_time: S.Opt(S.Text({ format: 'time', description: 'Time of day, HH:MM[:SS].' })),
  unit_rate: S.Decimal(7, 5, { description: 'Pence per kWh, excluding VAT.' }),
});

const BespokeRateSchema = S.Obj({
  meter_serial_number: S.Opt(S.Text({ maxLength: 32 })),
  payment_method: S.Opt(S.Nullable(S.Choice(BESPOKE_PAYMENT_METHODS))),
  registers: S.List(BespokeRegisterRateSchema),
  standing_charge: S.Decimal(7, 5, { description: 'Pence per day, excluding VAT.' }),
});

const AgreementSchema = S.Obj({
  ...agreementFields,
  bespoke_tariff_rates: S.Opt(S.List(BespokeRateSchema, { description: 'Business accounts only.' })),
});

const CapacityValueSchema = S.Obj({
  effective_from_date: S.CalendarDate(),
  effective_to_date: S.Opt(S.CalendarDate({ description: 'Inclusive.' })),
  value: S.Decimal(5, 2, { description: 'kVA.' }),
});

const ConfigurationPeriodSchema = S.Obj({
  effective_from_date: S.CalendarDate({ description: 'In the past.' }),
  effective_to_date: S.Opt(S.CalendarDate({ description: 'Omitted on the latest period.' })),
  energisation_status: S.Opt(S.Choice(['E', 'D'] as const)),
  gsp: S.Opt(S.Text({ maxLength: 2 })),
  llf: S.Opt(S.Text({ maxLength: 3 })),
  measurement_class: S.Opt(S.Choice(MEASUREMENT_CLASSES)),
  mtc: S.Opt(S.Int()),
  profile_class: S.Opt(S.Int()),
  ssc: S.Opt(S.Text({ maxLength: 4 })),
});

const AnnualConsumptionSchema = S.Obj({
  consumption: S.Decimal(8, 2, { description: 'kWh.' }),
  effective_from: S.CalendarDate(),
  source: S.Opt(S.Text({ maxLength: 255, description: 'For example D0019.' })),
  tpr: S.NonBlankText({ maxLength: 16, description: 'Matched to the registers’ TPRs.' }),
});

export const ElectricityMeterPointSchema = S.Obj({
  supply_type: Type.Literal('ELECTRICITY'),
  ...meterPointFields,
  agents: S.Opt(S.Nullable(AgentsSchema)),
  agreements: S.Opt(S.List(AgreementSchema, { description: 'Contiguous from the supply start date.' })),
  capacity_values: S.Opt(S.List(CapacityValueSchema)),
  configuration_periods: S.Opt(S.List(ConfigurationPeriodSchema)),
  dc_to_appoint: S.Opt(S.Nullable(MarketParticipantId(4, 'Deprecated: use agents.dc_contract.'))),
  eac_history: S.Opt(S.List(AnnualConsumptionSchema)),
  export_type: S.Opt(S.Choice(['IMPORT_EXPORT', 'EXPORT_ONLY'] as const)),
  identifier: S.NonBlankText({ format: 'mpan', description: 'The 13-digit MPAN core.' }),
  is_deenergised: S.Opt(S.Bool({ default: false })),
  measurement_class: S.Opt(
    S.Choice(MEASUREMENT_CLASSES, { description: 'Required for unmetered supplies.' }),
  ),
  meters: S.Opt(S.List(ElectricityMeterSchema)),
  mop_to_appoint: S.Opt(S.Nullable(MarketParticipantId(4, 'Deprecated: use agents.mop_contract.'))),
  mpid: S.NonBlankText({ maxLength: 4, format: 'market-participant-id', description: 'Supplier MPID.' }),
  profile_class: S.Opt(S.Int()),
  regular_reading_cycle: S.Opt(S.Choice(ELECTRICITY_READING_CYCLES)),
  ssc: S.Opt(S.Text()),
});

export type ElectricityMeterPoint = Static<typeof ElectricityMeterPointSchema>;
