/**
 * Addresses: `billing_address` (the new-style billing address) and `supply_addresses[]`, the
 * premises with their administrators and meter points.
 */
import type { Static } from '@sinclair/typebox';
import { DECEASED_STATES, MetadataSchema, PhoneNumber } from '../customers/customers.schema.ts';
import { MeterPointSchema } from '../meter-points/meter-points.schema.ts';
import {
  Bool,
  CalendarDate,
  Choice,
  DateTime,
  FreeObject,
  List,
  NonBlankText,
  Nullable,
  Obj,
  Opt,
  Text,
} from '../validation/schema-builders.ts';

const blankableLine = () => Opt(Text({ maxLength: 512, default: '' }));

export const AddressSchema = Obj(
  {
    administrative_area: blankableLine(),
    country: NonBlankText({ maxLength: 2, description: 'ISO 3166-1 alpha-2 code, e.g. GB.' }),
    delivery_point_identifier: Opt(
      Text({ maxLength: 11, format: 'delivery-point-identifier', description: 'UPRN: capitals and digits.' }),
    ),
    dependent_locality: blankableLine(),
    locality: blankableLine(),
    name: Opt(Text({ default: '', description: 'Deprecated.' })),
    organization: Opt(Text({ default: '', description: 'Deprecated.' })),
    postal_code: Opt(Text({ maxLength: 512, default: '', description: 'Validated and normalised for GB.' })),
    sorting_code: blankableLine(),
    street_address: Opt(Text({ default: '', description: 'Not together with structured_street_address.' })),
    structured_street_address: Opt(Nullable(FreeObject({ description: 'Territory-specific street parts.' }))),
  },
  { description: 'Billing address; not together with billing_address1..5 / billing_postcode.' },
);

const deprecatedLine = () => Opt(Text({ maxLength: 512, description: 'Deprecated.' }));

const PropertyAdministratorSchema = Obj({
  address1: deprecatedLine(),
  address2: deprecatedLine(),
  address3: deprecatedLine(),
  address4: deprecatedLine(),
  address5: deprecatedLine(),
  billing_name: Opt(Text({ maxLength: 255, default: '' })),
  date_of_birth: Opt(Nullable(CalendarDate())),
  deceased: Opt(Choice(DECEASED_STATES, { default: '' })),
  effective_from: Opt(Nullable(DateTime({ description: 'Inclusive.' }))),
  effective_to: Opt(Nullable(DateTime({ description: 'Exclusive; not before effective_from.' }))),
  email: Opt(Nullable(Text({ maxLength: 254, format: 'email' }))),
  family_name: Opt(Text({ maxLength: 255, default: '' })),
  given_name: Opt(Nullable(Text({ maxLength: 255, default: '' }))),
  landline: Opt(PhoneNumber('Landline number.')),
  mobile: Opt(PhoneNumber('Mobile number.')),
  postcode: Opt(Text({ maxLength: 10, description: 'Deprecated.' })),
  role: Opt(Choice(['LANDLORD', 'PROPERTY_DEVELOPER'] as const, { default: 'LANDLORD' })),
  salutation: Opt(Nullable(Text({ maxLength: 128, default: '' }))),
  title: Opt(Nullable(Text({ maxLength: 20, default: '' }))),
});

const addressLine = () => Opt(Text({ maxLength: 512 }));

export const SupplyAddressSchema = Obj({
  customer_at_supply_address_from_date: CalendarDate(),
  customer_at_supply_address_to_date: Opt(
    Nullable(CalendarDate({ description: 'Set for a former address, which must be fully billed.' })),
  ),
  is_landlord: Opt(Bool({ default: false })),
  label: Opt(Text({ maxLength: 255 })),
  metadata: Opt(List(MetadataSchema)),
  meter_points: List(MeterPointSchema, { description: 'MPxNs unique across the payload.' }),
  primary_place_of_residence_since: Opt(CalendarDate()),
  property_administrators: Opt(List(PropertyAdministratorSchema, { description: 'At most one.' })),
  property_external_identifier: Opt(Text({ maxLength: 255, description: 'Unique across supply addresses.' })),
  supply_address1: NonBlankText({ maxLength: 512 }),
  supply_address2: addressLine(),
  supply_address3: addressLine(),
  supply_address4: addressLine(),
  supply_address5: addressLine(),
  supply_delivery_point_identifier: Opt(
    Text({ maxLength: 11, format: 'delivery-point-identifier', description: 'UPRN: capitals and digits.' }),
  ),
  supply_postcode: NonBlankText({
    maxLength: 10,
    format: 'gb-postcode',
    description: 'Normalised to AA9A 9AA form.',
  }),
});

export type SupplyAddress = Static<typeof SupplyAddressSchema>;
