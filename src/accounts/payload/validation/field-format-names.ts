/**
 * The `format` names the account payload schema uses. Each one is checked by a function in
 * `../rules/` and maps to one error code (see `../structure/field-formats.ts`). The standard
 * names (`date`, `date-time`, `time`, `email`) keep their usual meaning in the OpenAPI document;
 * the others name a GB-industry or registry identifier format.
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
