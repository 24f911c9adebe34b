/**
 * Addresses: `billing_address` (the new-style billing address) and `supply_addresses[]`, the
 * premises with their administrators and meter points.
 */
import type { Static } from '@sinclair/typebox';
import * as S from '../../../validation/schema-builders.ts';
import { DECEASED_STATES, MetadataSchema, PhoneNumber } from '../customers/customers.schema.ts';
import { MeterPointSchema } from '../meter-points/meter-points.schema.ts';

const blankableLine = () => S.Opt(S.Text({ maxLength: 512, default: '' }));

export const AddressSchema = S.Obj(
  {
    administrative_area: blankableLine(),
    country: S.NonBlankText({ maxLength: 2, description: 'ISO 3166-1 alpha-2 code, e.g. GB.' }),
    delivery_point_identifier: S.Opt(
      S.Text({
        maxLength: 11,
        format: 'delivery-point-identifier',
        description: 'UPRN: capitals and digits.',
      }),
    ),
    dependent_locality: blankableLine(),
    locality: blankableLine(),
    name: S.Opt(S.Text({ default: '', description: 'Deprecated.' })),
    organization: S.Opt(S.Text({ default: '', description: 'Deprecated.' })),
    postal_code: S.Opt(
      S.Text({ maxLength: 512, default: '', description: 'Validated and normalised for GB.' }),
    ),
    sorting_code: blankableLine(),
    street_address: S.Opt(
      S.Text({ default: '', description: 'Not together with structured_street_address.' }),
    ),
    structured_street_address: S.Opt(
      S.Nullable(S.FreeObject({ description: 'Territory-specific street parts.' })),
    ),
  },
  { description: 'Billing address; not together with billing_address1..5 / billing_postcode.' },
);

const deprecatedLine = () => S.Opt(S.Text({ maxLength: 512, description: 'Deprecated.' }));

const PropertyAdministratorSchema = S.Obj({
  address1: deprecatedLine(),
  address2: deprecatedLine(),
  address3: deprecatedLine(),
  address4: deprecatedLine(),
  address5: deprecatedLine(),
  billing_name: S.Opt(S.Text({ maxLength: 255, default: '' })),
  date_of_birth: S.Opt(S.Nullable(S.CalendarDate())),
  deceased: S.Opt(S.Choice(DECEASED_STATES, { default: '' })),
  effective_from: S.Opt(S.Nullable(S.DateTime({ description: 'Inclusive.' }))),
  effective_to: S.Opt(S.Nullable(S.DateTime({ description: 'Exclusive; not before effective_from.' }))),
  email: S.Opt(S.Nullable(S.Text({ maxLength: 254, format: 'email' }))),
  family_name: S.Opt(S.Text({ maxLength: 255, default: '' })),
  given_name: S.Opt(S.Nullable(S.Text({ maxLength: 255, default: '' }))),
  landline: S.Opt(PhoneNumber('Landline number.')),
  mobile: S.Opt(PhoneNumber('Mobile number.')),
  postcode: S.Opt(S.Text({ maxLength: 10, description: 'Deprecated.' })),
  role: S.Opt(S.Choice(['LANDLORD', 'PROPERTY_DEVELOPER'] as const, { default: 'LANDLORD' })),
  salutation: S.Opt(S.Nullable(S.Text({ maxLength: 128, default: '' }))),
  title: S.Opt(S.Nullable(S.Text({ maxLength: 20, default: '' }))),
});

const addressLine = () => S.Opt(S.Text({ maxLength: 512 }));

export const SupplyAddressSchema = S.Obj({
  customer_at_supply_address_from_date: S.CalendarDate(),
  customer_at_supply_address_to_date: S.Opt(
    S.Nullable(S.CalendarDate({ description: 'Set for a former address, which must be fully billed.' })),
  ),
  is_landlord: S.Opt(S.Bool({ default: false })),
  label: S.Opt(S.Text({ maxLength: 255 })),
  metadata: S.Opt(S.List(MetadataSchema)),
  meter_points: S.List(MeterPointSchema, { description: 'MPxNs unique across the payload.' }),
  primary_place_of_residence_since: S.Opt(S.CalendarDate()),
  property_administrators: S.Opt(S.List(PropertyAdministratorSchema, { description: 'At most one.' })),
  property_external_identifier: S.Opt(
    S.Text({ maxLength: 255, description: 'Unique across supply addresses.' }),
  ),
  supply_address1: S.NonBlankText({ maxLength: 512 }),
  supply_address2: addressLine(),
  supply_address3: addressLine(),
  supply_address4: addressLine(),
  supply_address5: addressLine(),
  supply_delivery_point_identifier: S.Opt(
    S.Text({ maxLength: 11, format: 'delivery-point-identifier', description: 'UPRN: capitals and digits.' }),
  ),
  supply_postcode: S.NonBlankText({
    maxLength: 10,
    format: 'gb-postcode',
    description: 'Normalised to AA9A 9AA form.',
  }),
});

export type SupplyAddress = Static<typeof SupplyAddressSchema>;
