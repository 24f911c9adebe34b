/**
 * Generators of valid values for the "accepted ⇒ stored exactly" properties: decimals within a
 * field's digit limits written in every form the interface allows (strings `12.50`, `.5`, `5.`,
 * `007.1`, JSON numbers `12.5`, `1.25e1`), calendar dates over the whole 0001–9999 range,
 * datetimes with offsets and fractions, unicode strings and integers. Each value is generated as
 * data (shrinkable) and written into JSON text by `write`.
 */
import fc from 'fast-check';
import { RawJson } from '../helpers/json-text.ts';

/** A decimal as parts: exact value, and the form it is written in. */
export interface Dec {
  negative: boolean;
  whole: string;
  fraction: string;
  form: DecForm;
}

export type DecForm = 'string' | 'padded' | 'leading-zero' | 'bare-point' | 'number' | 'exponent';

export const SCALE = 10;

/** The decimal scaled by 10^SCALE. */
export function unitsOf(d: Dec): bigint {
  const units = BigInt((d.whole || '0') + d.fraction.padEnd(SCALE, '0'));
  return d.negative ? -units : units;
}

/** A decimal of at most `whole` integer and `fraction` fractional digits. */
export function decimal(
  whole: number,
  fraction: number,
  opts: { negative?: boolean; forms?: readonly DecForm[] } = {},
): fc.Arbitrary<Dec> {
  return fc.record({
    negative: opts.negative ? fc.boolean() : fc.constant(false),
    whole: fc.oneof(
      fc.constant('0'),
      fc.integer({ min: 1, max: whole }).chain((n) => fc.stringMatching(new RegExp(`^[1-9]\\d{${n - 1}}$`))),
    ),
    fraction: fc
      .integer({ min: 0, max: fraction })
      .chain((n) => fc.stringMatching(new RegExp(`^\\d{${n}}$`))),
    form: fc.constantFrom(
      ...(opts.forms ?? (['string', 'padded', 'leading-zero', 'bare-point', 'number', 'exponent'] as const)),
    ),
  });
}

/** A decimal from a scaled value (sums of other decimals), in a given form. */
export function decFromUnits(units: bigint, form: DecForm): Dec {
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(SCALE + 1, '0');
  return {
    negative,
    whole: digits.slice(0, -SCALE).replace(/^0+(?=\d)/, ''),
    fraction: digits.slice(-SCALE).replace(/0+$/, ''),
    form,
  };
}

/** Whole digits of a decimal (leading zeros aside). */
export const wholeDigits = (d: Dec) => d.whole.replace(/^0+/, '').length;

/** The decimal in its form: a string, or a JSON number token. `limits` bound the padding. */
export function writeDec(
  d: Dec,
  limits: { whole: number; fraction: number } = { whole: 10, fraction: 10 },
): string | RawJson {
  const sign =
    d.negative && (d.whole.replace(/0/g, '') !== '' || d.fraction.replace(/0/g, '') !== '') ? '-' : '';
  const whole = d.whole.replace(/^0+(?=\d)/, '') || '0';
  const plain = d.fraction ? `${whole}.${d.fraction}` : whole;
  switch (d.form) {
    case 'string':
      return `${sign}${plain}`;
    case 'padded':
      return `${sign}${whole}.${d.fraction.padEnd(limits.fraction, '0')}`;
    case 'leading-zero':
      return `${sign}${whole.padStart(Math.min(limits.whole, whole.length + 2), '0')}${d.fraction ? `.${d.fraction}` : ''}`;
    case 'bare-point':
      // `.5` and `5.` both match the reference pattern.
      return whole === '0' && d.fraction ? `${sign}.${d.fraction}` : `${sign}${whole}.${d.fraction}`;
    case 'number':
      return new RawJson(`${sign}${plain}`);
    case 'exponent': {
      // 123.45 → 12345e-2, 100 → 1e2: the same value, written with an exponent.
      const digits = `${whole === '0' ? '' : whole}${d.fraction}`.replace(/^0+/, '') || '0';
      const exp = -d.fraction.length;
      return new RawJson(`${sign}${digits}e${exp}`);
    }
  }
}

/** The same decimal, as a string in its plainest form. */
export const asString = (d: Dec): Dec => ({ ...d, form: 'string' });

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

const daysIn = (y: number, m: number) =>
  m === 2 ? ((y % 4 === 0 && y % 100 !== 0) || y % 400 === 0 ? 29 : 28) : [4, 6, 9, 11].includes(m) ? 30 : 31;

/** A real calendar date `YYYY-MM-DD` between two years (inclusive). */
export function calendarDate(fromYear = 1, toYear = 9999): fc.Arbitrary<string> {
  return fc
    .record({
      y: fc.integer({ min: fromYear, max: toYear }),
      m: fc.integer({ min: 1, max: 12 }),
      d: fc.integer({ min: 1, max: 31 }),
    })
    .map(({ y, m, d }) => `${pad(y, 4)}-${pad(m)}-${pad(Math.min(d, daysIn(y, m)))}`);
}

/** A date between two dates `YYYY-MM-DD` (inclusive). */
export function dateBetween(from: string, to: string): fc.Arbitrary<string> {
  const day = 86_400_000;
  const a = Date.parse(`${from}T00:00:00Z`) / day;
  const b = Date.parse(`${to}T00:00:00Z`) / day;
  return fc.integer({ min: a, max: b }).map((n) => new Date(n * day).toISOString().slice(0, 10));
}

/** An ISO 8601 datetime in the interface's forms: `Z` or `±HH:MM`, with or without a fraction. */
export function dateTime(fromYear = 1, toYear = 2020): fc.Arbitrary<string> {
  return fc
    .record({
      date: calendarDate(fromYear, toYear),
      h: fc.integer({ min: 0, max: 23 }),
      mi: fc.integer({ min: 0, max: 59 }),
      s: fc.integer({ min: 0, max: 59 }),
      fraction: fc.oneof(
        { weight: 3, arbitrary: fc.constant('') },
        {
          weight: 2,
          arbitrary: fc
            .integer({ min: 1, max: 9 })
            .chain((n) => fc.stringMatching(new RegExp(`^\\d{${n}}$`))),
        },
      ),
      offset: fc.oneof(
        { weight: 3, arbitrary: fc.constant('Z') },
        {
          weight: 2,
          arbitrary: fc
            .tuple(fc.constantFrom('+', '-'), fc.integer({ min: 0, max: 14 }), fc.constantFrom(0, 30, 45))
            .map(([sign, h, m]) => `${sign}${pad(h)}:${pad(m)}`),
        },
      ),
    })
    .map(
      ({ date, h, mi, s, fraction, offset }) =>
        `${date}T${pad(h)}:${pad(mi)}:${pad(s)}${fraction ? `.${fraction}` : ''}${offset}`,
    );
}

/**
 * The instant a datetime names, as seconds since the epoch in exact decimal (nanoseconds kept):
 * what PostgreSQL's `extract(epoch from …)` gives for a timestamptz, when nothing is lost.
 */
export function epochOf(dateTime: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(Z|([+-])(\d{2}):(\d{2}))$/.exec(
    dateTime,
  );
  if (!m) throw new Error(`not a datetime: ${dateTime}`);
  const d = new Date(0);
  d.setUTCFullYear(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  d.setUTCHours(Number(m[4]), Number(m[5]), Number(m[6]), 0);
  const offsetMinutes = m[8] === 'Z' ? 0 : (m[9] === '-' ? -1 : 1) * (Number(m[10]) * 60 + Number(m[11]));
  const seconds = BigInt(d.getTime() / 1000 - offsetMinutes * 60);
  const nanos = BigInt((m[7] ?? '').padEnd(9, '0').slice(0, 9) || '0');
  const total = seconds * 1_000_000_000n + nanos;
  const neg = total < 0n;
  const digits = (neg ? -total : total).toString().padStart(10, '0');
  return `${neg ? '-' : ''}${digits.slice(0, -9)}.${digits.slice(-9)}`;
}

/** Unicode text without NUL (which PRODUCT.md refuses): letters, marks, emoji, RTL, astral. */
export function text(maxLength: number, minLength = 0): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 3, arbitrary: fc.string({ unit: 'grapheme', minLength, maxLength }) },
    {
      weight: 1,
      arbitrary: fc
        .string({ unit: 'binary', minLength, maxLength })
        .map((s) => s.replaceAll(String.fromCharCode(0), '\u2400'))
        .filter((s) => s.length >= minLength),
    },
    {
      weight: 1,
      arbitrary: fc
        .array(
          fc.constantFrom(
            'Jabłoński',
            'Ωμέγα',
            '日本語',
            'مرحبا',
            '👨‍👩‍👧',
            '𝕏',
            'e\u0301',
            '\u200b',
            "O'Brien",
            '"quoted"',
            '\\',
            '\t',
          ),
          {
            minLength: Math.max(1, minLength),
            maxLength: 3,
          },
        )
        .map((parts) => Array.from(parts.join(' ')).slice(0, maxLength).join(''))
        .filter((s) => s.length >= minLength),
    },
  );
}
