/**
 * The field formats of the account payload, in one table: each `format` name the schema uses, the
 * rule that checks it (in the subject folder it belongs to, or here when several share it) and
 * the error code a failure gets. Every format accepts the empty string: whether a field may be
 * blank is the schema's `minLength` (code `blank`), so a blank optional field is not also reported
 * as, say, an invalid phone number.
 */
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
  (isValid: (value: string) => boolean, code: string): FormatCheck =>
  (value) =>
    value === '' || isValid(value) ? null : code;

/** Dates and times have no blank form: PostgreSQL could not store one (docs/product.md, Errors). */
const temporal =
  (isValid: (value: string) => boolean, code: string): FormatCheck =>
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

/** A human sentence for each code a format check can produce. */
export const FORMAT_DETAILS: Record<string, string> = {
  invalid_date: 'Enter a real date in YYYY-MM-DD form.',
  invalid_datetime: 'Enter a date-time in ISO 8601 form, e.g. 2024-01-31T09:30:00Z.',
  invalid_time: 'Enter a time of day in HH:MM or HH:MM:SS form.',
  invalid_email: 'Enter a valid e-mail address.',
  possible_test_email_address: 'This looks like a test e-mail address.',
  billing_email_not_valid: 'A blackhole+ address cannot receive bills.',
  invalid_phone_number: 'Enter a valid phone number (GB, or international with a + prefix).',
  invalid_postcode: 'Enter a valid UK postcode.',
  invalid_supply_point_identifier: 'This is not a valid MPAN or MPRN: its length or check digit is wrong.',
  invalid_meter_serial_number:
    'Meter serial numbers are capital letters and digits, optionally split by - / .',
  tariff_code_not_found: 'This is not a tariff code: letters and digits joined by - _ . or :.',
  product_code_does_not_exist: 'This is not a product code: letters and digits joined by - _ . or :.',
  ledger_code_does_not_exist: 'This is not a ledger code: letters and digits joined by - _ . or :.',
  campaign_not_found: 'This is not a campaign slug: letters and digits joined by - _ . or :.',
  dunning_path_not_found: 'This is not a dunning path name: letters and digits joined by - _ . or :.',
  invalid_reference_namespace: 'This is not a reference namespace: letters and digits joined by - _ . or :.',
  invalid_contribution_scheme:
    'This is not a contribution scheme code: letters and digits joined by - _ . or :.',
  market_participant_not_found: 'A market participant id is capital letters and digits.',
  tpr_not_found: 'A time pattern regime is five digits.',
  psr_invalid_industry_code: 'A PSR industry code is two digits.',
  invalid_delivery_point_identifier: 'Use capital letters and digits only.',
  invalid_company_number: 'Enter a Companies House number: 8 digits, or 2 letters and 6 digits.',
  invalid_smart_device_id: 'Enter eight hexadecimal pairs joined by hyphens, e.g. 01-23-45-67-89-AB-CD-EF.',
  invalid_portfolio_number: 'A portfolio number is "P-" followed by 8 capital letters or digits.',
  incorrect_format_for_tax_year: 'Enter the tax year as YYYY/YY, e.g. 2018/19.',
  invalid_prepay_customer_reference_number: 'The prepay customer reference must be a whole number.',
  invalid_document_path: 'Enter a path relative to the document root, without "..", a scheme or backslashes.',
};

/** The table the account payload's schemas are checked with (and the follow-ups', which share formats). */
export const ACCOUNT_FIELD_FORMATS: FieldFormats = { checks: FORMAT_CHECKS, details: FORMAT_DETAILS };
