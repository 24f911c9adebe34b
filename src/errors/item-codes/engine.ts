/**
 * The item codes every request body can meet, whatever its endpoint: how the body is read
 * (src/http/json-body.ts), its structure (the validation engine: validation-errors.ts,
 * ajv-error-to-issue.ts) and the formats of its fields (the account payload's table,
 * src/accounts/payload/rules/field-formats.ts, takes its sentences from here). Part of the
 * item-code catalogue (../item-codes.ts).
 */
import type { ItemCodeEntry } from '../item-codes.ts';

/** Problems with the JSON itself, found while the body is read. */
export const REQUEST_CODES = {
  imprecise_number: {
    means: 'A JSON number has more digits than a double holds, so it would not be read as sent.',
    todo: 'Send the number as a decimal string ("12.345678901234567890").',
  },
  null_characters_not_allowed: 'A string holds a NUL character (\\u0000), which cannot be stored.',
  invalid_unicode: 'A string holds an unpaired surrogate: it is not valid Unicode text.',
  max_depth: 'The body nests objects and lists deeper than the service reads (the detail says how deep).',
} as const satisfies Record<string, ItemCodeEntry>;

/** The body's shape against the operation's schema. */
export const STRUCTURE_CODES = {
  required: 'A field the schema requires is missing.',
  unknown_field: 'A field that is not part of the interface was sent.',
  null: 'A field that may not be null is null.',
  blank: 'A field that may not be blank is empty or only spaces.',
  invalid: 'The value does not have the type the schema says (a string, a number, an object, ...).',
  not_a_list: 'A list was expected.',
  invalid_choice: 'The value is not one of the values the schema allows (listed in the detail).',
  min_length: 'A string has fewer characters, or a list fewer items, than the schema allows.',
  max_length: 'A string has more characters than the schema allows.',
  too_many_items: 'A list has more items than the schema allows.',
  min_value: 'A number is smaller than the schema allows.',
  max_value: 'A number is larger than the schema allows.',
  invalid_decimal: {
    means: 'A decimal field is not a decimal number.',
    todo: 'Send a JSON number or a decimal string such as "12.34".',
  },
  max_whole_digits: 'A decimal has more digits before the decimal point than the field holds.',
  max_decimal_places: 'A decimal has more decimal places than the field holds.',
} as const satisfies Record<string, ItemCodeEntry>;

/**
 * The codes of the field formats, each with the sentence a failure's `detail` gives (the account
 * payload's format table reads them from here).
 */
export const FORMAT_CODES = {
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
} as const satisfies Record<string, string>;
