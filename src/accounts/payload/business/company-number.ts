/**
 * Companies House registration numbers: eight characters, either digits (England and Wales) or a
 * two-letter prefix and six digits (`SC123456`, `NI012345`, `OC301234`). Sources often drop the
 * leading zeros, so the standard form pads them back.
 */
const COMPANY_NUMBER = /^(?:\d{8}|[A-Z]{2}\d{6}|R0\d{6})$/;

/**
 * The standard form (`12345` → `00012345`, `sc 1234` → `SC001234`), or null when the value
 * cannot be a company number.
 */
export function normaliseCompanyNumber(value: string): string | null {
  let compact = value.replace(/\s+/g, '').toUpperCase();
  if (/^\d{1,7}$/.test(compact)) compact = compact.padStart(8, '0');
  const prefixed = /^([A-Z]{2})(\d{1,5})$/.exec(compact);
  if (prefixed !== null) compact = prefixed[1] + prefixed[2].padStart(6, '0');
  return COMPANY_NUMBER.test(compact) ? compact : null;
}
