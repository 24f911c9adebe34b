/**
 * Calendar dates (`YYYY-MM-DD`) and ISO 8601 date-times as the payload carries them. Dates stay
 * strings throughout: once validated, `YYYY-MM-DD` strings order correctly with `<`, and no time
 * zone can shift them.
 */

const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.\d{1,6})?(?:Z|[+-](\d{2}):(\d{2}))$/;
const TIME_OF_DAY = /^(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,6})?)?$/;

function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return isLeapYear(year) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

function isRealDate(year: number, month: number, day: number): boolean {
  return year >= 1 && month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month);
}

/** Exactly `YYYY-MM-DD` naming a day that exists. */
export function isCalendarDate(value: string): boolean {
  // Hand-parsed: this runs for every date of every payload, and a regex plus Number() is 5× slower.
  if (value.length !== 10 || value.charCodeAt(4) !== 45 || value.charCodeAt(7) !== 45) return false;
  const year = digits(value, 0, 4);
  const month = digits(value, 5, 7);
  const day = digits(value, 8, 10);
  return year >= 0 && month >= 0 && day >= 0 && isRealDate(year, month, day);
}

/** The number written by the ASCII digits value[start..end), or -1 if any is not a digit. */
function digits(value: string, start: number, end: number): number {
  let result = 0;
  for (let i = start; i < end; i++) {
    const digit = value.charCodeAt(i) - 48;
    if (digit < 0 || digit > 9) return -1;
    result = result * 10 + digit;
  }
  return result;
}

const FIRST_INSTANT = Date.parse('0001-01-01T00:00:00Z');
/** The last instant a datetime may name (and timestamptz and the wire form hold). */
export const LAST_INSTANT = Date.parse('9999-12-31T23:59:59.999Z');

/** `YYYY-MM-DDTHH:MM:SS`, optional fraction, then `Z` or `±HH:MM`. */
export function isDateTime(value: string): boolean {
  const match = DATE_TIME.exec(value);
  if (match === null || !isRealDate(Number(match[1]), Number(match[2]), Number(match[3]))) return false;
  const [hour, minute, second] = [Number(match[4]), Number(match[5]), Number(match[6])];
  if (hour > 23 || minute > 59 || second > 59) return false;
  if (match[7] !== undefined && (Number(match[7]) > 23 || Number(match[8]) > 59)) return false;
  // An offset can carry 0001-01-01 or 9999-12-31 out of the years a column and the wire form hold.
  const instant = Date.parse(value);
  return instant >= FIRST_INSTANT && instant <= LAST_INSTANT;
}

/** `psr[].effective_from` takes either form (docs/product.md, Account payload). */
export function isDateOrDateTime(value: string): boolean {
  return isCalendarDate(value) || isDateTime(value);
}

/** `HH:MM`, `HH:MM:SS` or `HH:MM:SS.ffffff`. */
export function isTimeOfDay(value: string): boolean {
  const match = TIME_OF_DAY.exec(value);
  return (
    match !== null &&
    Number(match[1]) <= 23 &&
    Number(match[2]) <= 59 &&
    (match[3] === undefined || Number(match[3]) <= 59)
  );
}

/** The date `days` after (or before, when negative) a valid calendar date. */
export function addDays(date: string, days: number): string {
  return fromDayNumber(toDayNumber(date) + days);
}

// Days since 1970-01-01 and back, in integer arithmetic (H. Hinnant's civil-date algorithms):
// period rules call these in loops, and Date objects cost a microsecond each.
function toDayNumber(date: string): number {
  let year = digits(date, 0, 4);
  const month = digits(date, 5, 7);
  const day = digits(date, 8, 10);
  if (month <= 2) year -= 1;
  const era = Math.floor(year / 400);
  const yearOfEra = year - era * 400;
  const dayOfYear = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146097 + dayOfEra - 719468;
}

function fromDayNumber(dayNumber: number): string {
  const z = dayNumber + 719468;
  const era = Math.floor(z / 146097);
  const dayOfEra = z - era * 146097;
  const yearOfEra = Math.floor(
    (dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36524) - Math.floor(dayOfEra / 146096)) /
      365,
  );
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const shiftedMonth = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * shiftedMonth + 2) / 5) + 1;
  const month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9;
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
  return `${String(year).padStart(4, '0')}-${month < 10 ? '0' : ''}${month}-${day < 10 ? '0' : ''}${day}`;
}

/** The calendar date a date or date-time names, as written (in its own offset). */
export function calendarDateOf(dateOrDateTime: string): string {
  return dateOrDateTime.slice(0, 10);
}

/** Milliseconds since the epoch of a valid date-time. */
export function instantOf(dateTime: string): number {
  return Date.parse(dateTime);
}

/**
 * A valid date-time as one canonical UTC text to the microsecond (`YYYY-MM-DDTHH:MM:SS.ffffffZ`),
 * what timestamptz holds: equal instants give equal texts, and texts order as instants do.
 */
export function utcInstantText(dateTime: string): string {
  const fraction = /\.(\d+)/.exec(dateTime.slice(19))?.[1] ?? '';
  const micros = fraction.padEnd(6, '0').slice(3, 6);
  return `${new Date(Date.parse(dateTime)).toISOString().slice(0, 23)}${micros}Z`;
}
