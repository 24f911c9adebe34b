/**
 * UK postcodes. An outward code (area letters, district digit, optional digit or letter) and an
 * inward code (sector digit and two unit letters), with the letter restrictions Royal Mail
 * applies to each position; `GIR 0AA` is the one historic exception.
 */
const POSTCODE =
  /^(?:GIR0AA|(?:[A-PR-UWYZ][0-9][0-9]?|[A-PR-UWYZ][A-HK-Y][0-9][0-9]?|[A-PR-UWYZ][0-9][A-HJKPSTUW]|[A-PR-UWYZ][A-HK-Y][0-9][ABEHMNPRVWXY])[0-9][ABD-HJLNP-UW-Z]{2})$/;

/**
 * The canonical form of a GB postcode (`w1f9de` → `W1F 9DE`: upper case, one space before the
 * inward code), or null when the value is not a postcode.
 */
export function normaliseGbPostcode(value: string): string | null {
  const compact = value.replace(/\s+/g, '').toUpperCase();
  if (!POSTCODE.test(compact)) return null;
  return `${compact.slice(0, -3)} ${compact.slice(-3)}`;
}

export function isGbPostcode(value: string): boolean {
  return normaliseGbPostcode(value) !== null;
}
