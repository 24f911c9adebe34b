/**
 * The MPRN of a gas meter point: 6 to 10 digits whose last two are check digits. Each earlier
 * digit is weighted by its distance from the check digits (the first of n digits by n, the last
 * by 1); the check digits are that sum modulo 11, written with two digits.
 */
const MPRN = /^\d{6,10}$/;

export function mprnCheckDigits(digitsBeforeCheck: string): string {
  let sum = 0;
  const n = digitsBeforeCheck.length;
  for (let i = 0; i < n; i++) sum += Number(digitsBeforeCheck[i]) * (n - i);
  return String(sum % 11).padStart(2, '0');
}

export function isValidMprn(value: string): boolean {
  return MPRN.test(value) && mprnCheckDigits(value.slice(0, -2)) === value.slice(-2);
}
