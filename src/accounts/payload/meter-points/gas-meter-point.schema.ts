/** `supply_addresses[].meter_points[]` with `supply_type: GAS`. */
import { type Static, Type } from '@sinclair/typebox';
import { GasMeterSchema } from '../meters/meters.schema.ts';
import {
  CalendarDate,
  Choice,
  Decimal,
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
  meterPointFields,
} from './meter-point-parts.schema.ts';
import { GAS_READING_CYCLES, LOCAL_DISTRIBUTION_ZONES } from './meter-points.enums.ts';

const BespokeRateSchema = Obj({
  meter_serial_number: Opt(Text({ maxLength: 32 })),
  payment_method: Opt(Nullable(Choice(BESPOKE_PAYMENT_METHODS))),
  standing_charge: Decimal(7, 5, { description: 'Pence per day, excluding VAT.' }),
  unit_rate: Decimal(7, 5, { description: 'Pence per kWh, excluding VAT.' }),
});

const AgreementSchema = Obj({
  ...agreementFields,
  bespoke_tariff_rates: Opt(List(BespokeRateSchema, { description: 'Business accounts only.' })),
});

const AnnualQuantitySchema = Obj({
  consumption: Decimal(8, 2),
  effective_from: CalendarDate({ description: 'The day after the previous entry ends.' }),
  effective_to: Opt(Nullable(CalendarDate({ description: 'Inclusive; omit on the open-ended entry.' }))),
  source: Opt(Text({ maxLength: 255 })),
});

export const GasMeterPointSchema = Obj({
  supply_type: Type.Literal('GAS'),
  ...meterPointFields,
  agreements: Opt(List(AgreementSchema, { description: 'Contiguous from the supply start date.' })),
  aq_history: Opt(List(AnnualQuantitySchema, { description: 'Contiguous; at most one open-ended entry.' })),
  identifier: NonBlankText({ format: 'mprn', description: 'The MPRN.' }),
  ldz: Opt(Choice(LOCAL_DISTRIBUTION_ZONES)),
  mam_to_appoint: Opt(Nullable(MarketParticipantId(3, 'Meter asset manager to appoint.'))),
  meters: Opt(List(GasMeterSchema)),
  mpid: NonBlankText({ maxLength: 4, format: 'market-participant-id', description: 'Supplier id.' }),
  regular_reading_cycle: Opt(Choice(GAS_READING_CYCLES)),
  shipper_mpid: NonBlankText({ maxLength: 3, format: 'market-participant-id', description: 'Shipper id.' }),
});

export type GasMeterPoint = Static<typeof GasMeterPointSchema>;
