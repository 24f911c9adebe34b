/** `supply_addresses[].meter_points[]` with `supply_type: GAS`. */
import { type Static, Type } from '@sinclair/typebox';
import * as S from '../../../validation/schema-builders.ts';
import { GasMeterSchema } from '../meters/meters.schema.ts';
import {
  agreementFields,
  BESPOKE_PAYMENT_METHODS,
  MarketParticipantId,
  meterPointFields,
} from './meter-point-parts.schema.ts';
import { GAS_READING_CYCLES, LOCAL_DISTRIBUTION_ZONES } from './meter-points.enums.ts';

const BespokeRateSchema = S.Obj({
  meter_serial_number: S.Opt(S.Text({ maxLength: 32 })),
  payment_method: S.Opt(S.Nullable(S.Choice(BESPOKE_PAYMENT_METHODS))),
  standing_charge: S.Decimal(7, 5, { description: 'Pence per day, excluding VAT.' }),
  unit_rate: S.Decimal(7, 5, { description: 'Pence per kWh, excluding VAT.' }),
});

const AgreementSchema = S.Obj({
  ...agreementFields,
  bespoke_tariff_rates: S.Opt(S.List(BespokeRateSchema, { description: 'Business accounts only.' })),
});

const AnnualQuantitySchema = S.Obj({
  consumption: S.Decimal(8, 2),
  effective_from: S.CalendarDate({ description: 'The day after the previous entry ends.' }),
  effective_to: S.Opt(
    S.Nullable(S.CalendarDate({ description: 'Inclusive; omit on the open-ended entry.' })),
  ),
  source: S.Opt(S.Text({ maxLength: 255 })),
});

export const GasMeterPointSchema = S.Obj({
  supply_type: Type.Literal('GAS'),
  ...meterPointFields,
  agreements: S.Opt(S.List(AgreementSchema, { description: 'Contiguous from the supply start date.' })),
  aq_history: S.Opt(
    S.List(AnnualQuantitySchema, { description: 'Contiguous; at most one open-ended entry.' }),
  ),
  identifier: S.NonBlankText({ format: 'mprn', description: 'The MPRN.' }),
  ldz: S.Opt(S.Choice(LOCAL_DISTRIBUTION_ZONES)),
  mam_to_appoint: S.Opt(S.Nullable(MarketParticipantId(3, 'Meter asset manager to appoint.'))),
  meters: S.Opt(S.List(GasMeterSchema)),
  mpid: S.NonBlankText({ maxLength: 4, format: 'market-participant-id', description: 'Supplier id.' }),
  regular_reading_cycle: S.Opt(S.Choice(GAS_READING_CYCLES)),
  shipper_mpid: S.NonBlankText({ maxLength: 3, format: 'market-participant-id', description: 'Shipper id.' }),
});

export type GasMeterPoint = Static<typeof GasMeterPointSchema>;
