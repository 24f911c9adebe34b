/**
 * The 13-digit MPAN core of an electricity meter point: distributor id (2 digits), unique id
 * (10 digits), check digit. The check digit is the sum of the first twelve digits weighted by
 * the primes 3 to 43 (11 left out), modulo 11, modulo 10.
 */
const MPAN_CORE = /^\d{13}$/;
const WEIGHTS = [3, 5, 7, 13, 17, 19, 23, 29, 31, 37, 41, 43];

export function mpanCheckDigit(firstTwelveDigits: string): number {
  let sum = 0;
  for (let i = 0; i < WEIGHTS.length; i++) sum += Number(firstTwelveDigits[i]) * WEIGHTS[i];
  return (sum % 11) % 10;
}

export function isValidMpan(value: string): boolean {
  return MPAN_CORE.test(value) && mpanCheckDigit(value) === Number(value[12]);
}
