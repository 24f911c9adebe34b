/** `supply_addresses[].meter_points[]`: an electricity or a gas meter point, chosen by `supply_type`. */
import type { Static } from '@sinclair/typebox';
import * as S from '../../../validation/schema-builders.ts';
import { ElectricityMeterPointSchema } from './electricity-meter-point.schema.ts';
import { GasMeterPointSchema } from './gas-meter-point.schema.ts';

export const MeterPointSchema = S.TaggedUnion('supply_type', [
  ElectricityMeterPointSchema,
  GasMeterPointSchema,
]);

export type MeterPoint = Static<typeof MeterPointSchema>;
