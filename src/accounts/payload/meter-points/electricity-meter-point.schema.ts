/** `supply_addresses[].meter_points[]` with `supply_type: ELECTRICITY`. */
import { type Static, Type } from '@sinclair/typebox';
import { ElectricityMeterSchema } from '../meters/meters.schema.ts';
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
import {
  agreementFields,
  BESPOKE_PAYMENT_METHODS,
  MarketParticipantId,
  MEASUREMENT_CLASSES,
  meterPointFields,
} from './meter-point-parts.schema.ts';
import { BESPOKE_RATE_TYPES, ELECTRICITY_READING_CYCLES } from './meter-points.enums.ts';

const AgentContractSchema = Obj({
  agent_mpid: Opt(Nullable(Text({ minLength: 4, maxLength: 4, format: 'market-participant-id' }))),
  contract_reference: Opt(Text({ maxLength: 10 })),
  is_amr: Opt(Bool()),
  is_customer_appointed: Opt(Bool()),
  service_level_reference: Opt(Text({ maxLength: 4 })),
  service_reference: Opt(Text({ maxLength: 4 })),
});

const AgentsSchema = Obj(
  {
    da_contract: Opt(Nullable(AgentContractSchema)),
    dc_contract: Opt(Nullable(AgentContractSchema)),
    mop_contract: Opt(Nullable(AgentContractSchema)),
  },
  { description: 'Agent contracts; not together with dc_to_appoint / mop_to_appoint.' },
);

const BespokeRegisterRateSchema = Obj({
  rate_type: Opt(Choice(BESPOKE_RATE_TYPES, { description: 'Required when register_id is absent.' })),
  register_id: Opt(Text({ maxLength: 32, description: 'Required when rate_type is absent.' })),
  start_time: Opt(Text({ format: 'time', description: 'Time of day, HH:MM[:SS].' })),
  unit_rate: Decimal(7, 5, { description: 'Pence per kWh, excluding VAT.' }),
});

const BespokeRateSchema = Obj({
  meter_serial_number: Opt(Text({ maxLength: 32 })),
  payment_method: Opt(Nullable(Choice(BESPOKE_PAYMENT_METHODS))),
  registers: List(BespokeRegisterRateSchema),
  standing_charge: Decimal(7, 5, { description: 'Pence per day, excluding VAT.' }),
});

const AgreementSchema = Obj({
  ...agreementFields,
  bespoke_tariff_rates: Opt(List(BespokeRateSchema, { description: 'Business accounts only.' })),
});

const CapacityValueSchema = Obj({
  effective_from_date: CalendarDate(),
  effective_to_date: Opt(CalendarDate({ description: 'Inclusive.' })),
  value: Decimal(5, 2, { description: 'kVA.' }),
});

const ConfigurationPeriodSchema = Obj({
  effective_from_date: CalendarDate({ description: 'In the past.' }),
  effective_to_date: Opt(CalendarDate({ description: 'Omitted on the latest period.' })),
  energisation_status: Opt(Choice(['E', 'D'] as const)),
  gsp: Opt(Text({ maxLength: 2 })),
  llf: Opt(Text({ maxLength: 3 })),
  measurement_class: Opt(Choice(MEASUREMENT_CLASSES)),
  mtc: Opt(Int()),
  profile_class: Opt(Int()),
  ssc: Opt(Text({ maxLength: 4 })),
});

const AnnualConsumptionSchema = Obj({
  consumption: Decimal(8, 2, { description: 'kWh.' }),
  effective_from: CalendarDate(),
  source: Opt(Text({ maxLength: 255, description: 'For example D0019.' })),
  tpr: NonBlankText({ maxLength: 16, description: 'Matched to the registers’ TPRs.' }),
});

export const ElectricityMeterPointSchema = Obj({
  supply_type: Type.Literal('ELECTRICITY'),
  ...meterPointFields,
  agents: Opt(Nullable(AgentsSchema)),
  agreements: Opt(List(AgreementSchema, { description: 'Contiguous from the supply start date.' })),
  capacity_values: Opt(List(CapacityValueSchema)),
  configuration_periods: Opt(List(ConfigurationPeriodSchema)),
  dc_to_appoint: Opt(Nullable(MarketParticipantId(4, 'Deprecated: use agents.dc_contract.'))),
  eac_history: Opt(List(AnnualConsumptionSchema)),
  export_type: Opt(Choice(['IMPORT_EXPORT', 'EXPORT_ONLY'] as const)),
  identifier: NonBlankText({ format: 'mpan', description: 'The 13-digit MPAN core.' }),
  is_deenergised: Opt(Bool({ default: false })),
  measurement_class: Opt(Choice(MEASUREMENT_CLASSES, { description: 'Required for unmetered supplies.' })),
  meters: Opt(List(ElectricityMeterSchema)),
  mop_to_appoint: Opt(Nullable(MarketParticipantId(4, 'Deprecated: use agents.mop_contract.'))),
  mpid: NonBlankText({ maxLength: 4, format: 'market-participant-id', description: 'Supplier MPID.' }),
  profile_class: Opt(Int()),
  regular_reading_cycle: Opt(Choice(ELECTRICITY_READING_CYCLES)),
  ssc: Opt(Text()),
});

export type ElectricityMeterPoint = Static<typeof ElectricityMeterPointSchema>;
