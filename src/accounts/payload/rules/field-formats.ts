/**
 * The field formats of the account payload, in one table: each `format` name the schema uses, the
 * rule that checks it (in the subject folder it belongs to, or here when several share it) and
 * the error code a failure gets. Every format accepts the empty string: whether a field may be
 * blank is the schema's `minLength` (code `blank`), so a blank optional field is not also reported
 * as, say, an invalid phone number.
 */
import { FORMAT_CODE_DETAILS, type ItemCode } from '../../../errors/item-codes.ts';
import { isDocumentPath } from '../../../infra/storage/document-path.ts';
import type { FieldFormats, FormatCheck } from '../../../validation/field-formats.ts';
import {
  isCalendarDate,
  isDateOrDateTime,
  isDateTime,
  isTimeOfDay,
} from '../../../vocabulary/calendar-date.ts';
import { isGbPostcode } from '../addresses/gb-postcode.ts';
import { normaliseCompanyNumber } from '../business/company-number.ts';
import { isBlackholeAddress, isEmailAddress, isTestEmailAddress } from '../customers/email-address.ts';
import { isValidPhoneNumber } from '../customers/phone-number.ts';
import { isValidMpan } from '../meter-points/mpan.ts';
import { isValidMprn } from '../meter-points/mprn.ts';
import { isValidMeterSerialNumber } from '../meters/meter-serial-number.ts';
import {
  isDeliveryPointIdentifier,
  isElectricityPrepayReference,
  isMarketParticipantId,
  isPortfolioNumber,
  isPsrIndustryCode,
  isSmartDeviceId,
  isTaxYear,
  isTimePatternRegime,
} from './industry-identifiers.ts';
import { isRegistryCode } from './registry-code.ts';

/**
 * The `format` names the schema uses. The standard names (`date`, `date-time`, `time`, `email`)
 * keep their usual meaning in the OpenAPI document; the others name a GB-industry or registry
 * identifier format.
 */
export type FieldFormat =
  | 'date'
  | 'date-time'
  | 'date-or-date-time'
  | 'time'
  | 'email'
  | 'customer-email'
  | 'billing-email'
  | 'phone-number'
  | 'gb-postcode'
  | 'mpan'
  | 'mprn'
  | 'mpxn'
  | 'meter-serial-number'
  | 'tariff-code'
  | 'product-code'
  | 'ledger-code'
  | 'campaign-slug'
  | 'dunning-path-name'
  | 'reference-namespace'
  | 'contribution-scheme-code'
  | 'market-participant-id'
  | 'tpr'
  | 'psr-industry-code'
  | 'delivery-point-identifier'
  | 'company-number'
  | 'smart-device-id'
  | 'portfolio-number'
  | 'tax-year'
  | 'electricity-prepay-reference'
  | 'document-path';

const rule =
  (isValid: (value: string) => boolean, code: ItemCode): FormatCheck =>
  (value) =>
    value === '' || isValid(value) ? null : code;

/** Dates and times have no blank form: PostgreSQL could not store one (docs/product.md, Errors). */
const temporal =
  (isValid: (value: string) => boolean, code: ItemCode): FormatCheck =>
  (value) =>
    value === '' ? 'blank' : isValid(value) ? null : code;

export const FORMAT_CHECKS: Record<FieldFormat, FormatCheck> = {
  date: temporal(isCalendarDate, 'invalid_date'),
  'date-time': temporal(isDateTime, 'invalid_datetime'),
  'date-or-date-time': temporal(isDateOrDateTime, 'invalid_datetime'),
  time: temporal(isTimeOfDay, 'invalid_time'),
  email: rule(isEmailAddress, 'invalid_email'),
  'customer-email': (value) => {
    if (value === '') return null;
    if (!isEmailAddress(value)) return 'invalid_email';
    return isTestEmailAddress(value) ? 'possible_test_email_address' : null;
  },
  'billing-email': (value) => {
    if (value === '') return null;
    if (!isEmailAddress(value)) return 'invalid_email';
    return isBlackholeAddress(value) ? 'billing_email_not_valid' : null;
  },
  'phone-number': rule(isValidPhoneNumber, 'invalid_phone_number'),
  'gb-postcode': rule(isGbPostcode, 'invalid_postcode'),
  mpan: rule(isValidMpan, 'invalid_supply_point_identifier'),
  mprn: rule(isValidMprn, 'invalid_supply_point_identifier'),
  mpxn: rule((v) => isValidMpan(v) || isValidMprn(v), 'invalid_supply_point_identifier'),
  'meter-serial-number': rule(isValidMeterSerialNumber, 'invalid_meter_serial_number'),
  'tariff-code': rule(isRegistryCode, 'tariff_code_not_found'),
  'product-code': rule(isRegistryCode, 'product_code_does_not_exist'),
  'ledger-code': rule(isRegistryCode, 'ledger_code_does_not_exist'),
  'campaign-slug': rule(isRegistryCode, 'campaign_not_found'),
  'dunning-path-name': rule(isRegistryCode, 'dunning_path_not_found'),
  'reference-namespace': rule(isRegistryCode, 'invalid_reference_namespace'),
  'contribution-scheme-code': rule(isRegistryCode, 'invalid_contribution_scheme'),
  'market-participant-id': rule(isMarketParticipantId, 'market_participant_not_found'),
  tpr: rule(isTimePatternRegime, 'tpr_not_found'),
  'psr-industry-code': rule(isPsrIndustryCode, 'psr_invalid_industry_code'),
  'delivery-point-identifier': rule(isDeliveryPointIdentifier, 'invalid_delivery_point_identifier'),
  'company-number': rule((v) => normaliseCompanyNumber(v) !== null, 'invalid_company_number'),
  'smart-device-id': rule(isSmartDeviceId, 'invalid_smart_device_id'),
  'portfolio-number': rule(isPortfolioNumber, 'invalid_portfolio_number'),
  'tax-year': rule(isTaxYear, 'incorrect_format_for_tax_year'),
  'electricity-prepay-reference': rule(
    isElectricityPrepayReference,
    'invalid_prepay_customer_reference_number',
  ),
  'document-path': rule(isDocumentPath, 'invalid_document_path'),
};

/**
 * A human sentence for each code a format check can produce: the item-code catalogue's (where the
 * reference in /docs reads them too).
 */
export const FORMAT_DETAILS: Readonly<Record<string, string>> = FORMAT_CODE_DETAILS;

/** The table the account payload's schemas are checked with (and the follow-ups', which share formats). */
export const ACCOUNT_FIELD_FORMATS: FieldFormats = { checks: FORMAT_CHECKS, details: FORMAT_DETAILS };
