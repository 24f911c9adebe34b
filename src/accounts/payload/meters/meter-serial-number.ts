/**
 * Meter serial numbers as the industry flows carry them: capital letters and digits, possibly
 * split by single hyphens, slashes or dots (`Z16N389556`, `E10BG12345`, `54BV`). Lower-case
 * letters, spaces and leading or trailing separators are rejected rather than silently fixed:
 * the serial must match the one the meter reports.
 */
const METER_SERIAL_NUMBER = /^[A-Z0-9]+(?:[-/.][A-Z0-9]+)*$/;

export function isValidMeterSerialNumber(value: string): boolean {
  return value.length <= 32 && METER_SERIAL_NUMBER.test(value);
}
