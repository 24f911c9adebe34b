/** Small GB energy-industry identifier formats the reference describes field by field. */

/** A UPRN-style delivery point identifier: capital letters and digits only. */
export function isDeliveryPointIdentifier(value: string): boolean {
  return /^[A-Z0-9]*$/.test(value);
}

/** An intermediary portfolio number: `P-` and eight capitals or digits. */
export function isPortfolioNumber(value: string): boolean {
  return /^P-[A-Z0-9]{8}$/.test(value);
}

/** A smart device id: eight hexadecimal octets joined by hyphens (`01-23-45-67-89-AB-CD-EF`). */
export function isSmartDeviceId(value: string): boolean {
  return /^[0-9A-Fa-f]{2}(?:-[0-9A-Fa-f]{2}){7}$/.test(value);
}

/**
 * A market participant id (supplier, shipper, agent): capitals and digits. Whether the
 * participant exists is registry data we do not hold; the schema limits the length.
 */
export function isMarketParticipantId(value: string): boolean {
  return /^[A-Z0-9]+$/.test(value);
}

/** A time pattern regime: five digits (`00001`). Whether it exists is Market Domain Data. */
export function isTimePatternRegime(value: string): boolean {
  return /^\d{5}$/.test(value);
}

/** A Priority Services Register needs code: two digits (`01`). */
export function isPsrIndustryCode(value: string): boolean {
  return /^\d{2}$/.test(value);
}

/** An electricity prepay customer reference: a whole number once spaces are removed. */
export function isElectricityPrepayReference(value: string): boolean {
  return /^\d+$/.test(value.replace(/\s+/g, ''));
}

/** A UK tax year, `YYYY/YY`, whose second year follows the first (`2018/19`). */
export function isTaxYear(value: string): boolean {
  const match = /^(\d{4})\/(\d{2})$/.exec(value);
  return match !== null && (Number(match[1]) + 1) % 100 === Number(match[2]);
}

/** A day of the month every month has: 1 to 28. */
export function isDayOfEveryMonth(day: number): boolean {
  return Number.isInteger(day) && day >= 1 && day <= 28;
}
