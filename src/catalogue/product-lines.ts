/**
 * One line of a product catalogue upload (NDJSON, one product a line): its fields checked and
 * reported at `<line>.<field>`, lines counted from 1 as an editor does (`7.tariffs.0.region`).
 * Pure: the upload (catalogue.queries.ts) streams the lines through here and stores nothing
 * unless every line passes.
 */
import { type ErrorItem, item } from '../errors/error-items.ts';
import { isCalendarDate, isDateTime } from '../vocabulary/calendar-date.ts';

export const FUELS = ['ELECTRICITY', 'GAS'] as const;
export const PAYMENT_METHODS = ['DIRECT_DEBIT', 'NON_DIRECT_DEBIT', 'PREPAYMENT'] as const;
/** GSP groups: the letters A to P without I and O. */
export const REGIONS = ['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H', 'J', 'K', 'L', 'M', 'N', 'P'] as const;

export type Fuel = (typeof FUELS)[number];
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];
export type Region = (typeof REGIONS)[number];

export interface Tariff {
  code: string;
  region: Region;
  payment_method: PaymentMethod;
  registers: number;
  rate_bands: string[];
}

/** A product as uploaded and stored: availability as given (a date, or a datetime with its offset). */
export interface Product {
  code: string;
  display_name: string | null;
  fuel: Fuel;
  is_variable: boolean;
  is_tracker: boolean;
  is_prepay: boolean;
  available_from: string;
  available_to: string | null;
  tariffs: Tariff[];
}

const PRODUCT_FIELDS = new Set([
  'code',
  'display_name',
  'fuel',
  'is_variable',
  'is_tracker',
  'is_prepay',
  'available_from',
  'available_to',
  'tariffs',
]);
const TARIFF_FIELDS = new Set(['code', 'region', 'payment_method', 'registers', 'rate_bands']);
const MAX_CODE_LENGTH = 255;
/** A code is one word: what an account's tariff_code or product_code could name. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: NUL is what is refused
const CODE = /^[^\s\u0000]+$/;

type Read<T> = { ok: true; value: T } | { ok: false; errors: ErrorItem[] };

class LineReader {
  readonly errors: ErrorItem[] = [];
  constructor(readonly line: number) {}

  at(field: string): string {
    return `${this.line}.${field}`;
  }

  code(value: unknown, field: string): string {
    if (value === undefined || value === null)
      this.errors.push(item(this.at(field), 'required', 'Give a code.'));
    else if (typeof value !== 'string' || value.trim() === '')
      this.errors.push(item(this.at(field), 'blank', 'Give the code as a non-blank string.'));
    else if (value.length > MAX_CODE_LENGTH)
      this.errors.push(item(this.at(field), 'max_length', `At most ${MAX_CODE_LENGTH} characters.`));
    else if (!CODE.test(value))
      this.errors.push(item(this.at(field), 'invalid', 'A code has no spaces or control characters.'));
    else return value;
    return '';
  }

  choice<T extends string>(value: unknown, field: string, choices: readonly T[]): T {
    if (value === undefined || value === null)
      this.errors.push(item(this.at(field), 'required', 'Required.'));
    else if (typeof value !== 'string' || !choices.includes(value as T))
      this.errors.push(item(this.at(field), 'invalid_choice', `One of ${choices.join(', ')}.`));
    else return value as T;
    return choices[0];
  }

  bool(value: unknown, field: string, required: boolean): boolean {
    if (value === undefined || value === null) {
      if (required) this.errors.push(item(this.at(field), 'required', 'Give true or false.'));
    } else if (typeof value !== 'boolean')
      this.errors.push(item(this.at(field), 'invalid', 'Give true or false.'));
    else return value;
    return false;
  }

  moment(value: unknown, field: string, required: boolean): string | null {
    if (value === undefined || value === null) {
      if (required) this.errors.push(item(this.at(field), 'required', 'Give a date or a datetime.'));
    } else if (typeof value !== 'string' || !(isCalendarDate(value) || isDateTime(value)))
      this.errors.push(
        item(
          this.at(field),
          'invalid_datetime',
          'Give a date (YYYY-MM-DD, the start of that day) or a datetime with its offset.',
        ),
      );
    else return value;
    return null;
  }

  unknownFields(value: Record<string, unknown>, known: ReadonlySet<string>, prefix: string) {
    for (const key of Object.keys(value)) {
      if (!known.has(key))
        this.errors.push(
          item(this.at(`${prefix}${key}`), 'unknown_field', 'This field is not part of a product.'),
        );
    }
  }
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The product of line `line` (from 1), or its errors. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Strings PostgreSQL cannot store (a NUL, half a surrogate pair), anywhere in a line: refused as
 * the request body checks refuse them, since this stream bypasses those checks.
 */
function unstorableStrings(node: unknown, attr: string): ErrorItem[] {
  if (typeof node === 'string') {
    if (node.includes('\u0000'))
      return [item(attr, 'null_characters_not_allowed', 'Null characters are not allowed.')];
    if (LONE_SURROGATE.test(node))
      return [item(attr, 'invalid_unicode', 'The text holds half of a surrogate pair.')];
    return [];
  }
  if (typeof node !== 'object' || node === null) return [];
  return Object.entries(node).flatMap(([key, child]) => unstorableStrings(child, `${attr}.${key}`));
}

export function readProductLine(text: string, line: number): Read<Product> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    value = undefined;
  }
  if (!isObject(value)) {
    return {
      ok: false,
      errors: [item(String(line), 'invalid_catalogue_line', 'The line is not a JSON object.')],
    };
  }
  const unstorable = unstorableStrings(value, String(line));
  if (unstorable.length > 0) return { ok: false, errors: unstorable };
  const r = new LineReader(line);
  r.unknownFields(value, PRODUCT_FIELDS, '');
  const fuel = r.choice(value.fuel, 'fuel', FUELS);
  const product: Product = {
    code: r.code(value.code, 'code'),
    display_name: typeof value.display_name === 'string' ? value.display_name : null,
    fuel,
    is_variable: r.bool(value.is_variable, 'is_variable', true),
    is_tracker: r.bool(value.is_tracker, 'is_tracker', false),
    is_prepay: r.bool(value.is_prepay, 'is_prepay', true),
    available_from: r.moment(value.available_from, 'available_from', true) ?? '',
    available_to: r.moment(value.available_to, 'available_to', false),
    tariffs: [],
  };
  if (
    value.display_name !== undefined &&
    value.display_name !== null &&
    typeof value.display_name !== 'string'
  )
    r.errors.push(item(r.at('display_name'), 'invalid', 'Give the display name as a string.'));
  if (
    product.available_to !== null &&
    product.available_from !== '' &&
    startOf(product.available_to) <= startOf(product.available_from)
  ) {
    r.errors.push(
      item(r.at('available_to'), 'invalid', 'A product is available to after it is available from.'),
    );
  }
  if (!Array.isArray(value.tariffs) || value.tariffs.length === 0) {
    r.errors.push(item(r.at('tariffs'), 'required', 'A product lists its tariffs (at least one).'));
  } else {
    const seen = new Set<string>();
    value.tariffs.forEach((raw, i) => {
      const tariff = readTariff(r, raw, `tariffs.${i}`, fuel);
      if (!tariff) return;
      if (seen.has(tariff.code))
        r.errors.push(
          item(r.at(`tariffs.${i}.code`), 'repeated_tariff_code', 'The product lists this tariff twice.'),
        );
      seen.add(tariff.code);
      product.tariffs.push(tariff);
    });
  }
  return r.errors.length > 0 ? { ok: false, errors: r.errors } : { ok: true, value: product };
}

function readTariff(r: LineReader, raw: unknown, path: string, fuel: Fuel): Tariff | null {
  if (!isObject(raw)) {
    r.errors.push(item(r.at(path), 'invalid', 'A tariff is an object.'));
    return null;
  }
  r.unknownFields(raw, TARIFF_FIELDS, `${path}.`);
  const registers = raw.registers;
  const allowed = fuel === 'GAS' ? [1] : [1, 2];
  if (typeof registers !== 'number' || !allowed.includes(registers)) {
    const detail =
      fuel === 'GAS' ? 'A gas tariff has 1 register.' : 'An electricity tariff has 1 or 2 registers.';
    r.errors.push(item(r.at(`${path}.registers`), registers === undefined ? 'required' : 'invalid', detail));
  }
  const bands: string[] = [];
  if (!Array.isArray(raw.rate_bands)) {
    r.errors.push(item(r.at(`${path}.rate_bands`), 'required', 'List the rate bands (names), at least one.'));
  } else {
    raw.rate_bands.forEach((band, j) => {
      if (typeof band !== 'string' || band.trim() === '')
        r.errors.push(item(r.at(`${path}.rate_bands.${j}`), 'blank', 'A rate band is a non-blank name.'));
      else bands.push(band);
    });
  }
  return {
    code: r.code(raw.code, `${path}.code`),
    region: r.choice(
      typeof raw.region === 'string' ? raw.region.replace(/^_/, '') : raw.region,
      `${path}.region`,
      REGIONS,
    ),
    payment_method: r.choice(raw.payment_method, `${path}.payment_method`, PAYMENT_METHODS),
    registers: typeof registers === 'number' ? registers : 1,
    rate_bands: bands,
  };
}

/** Comparable start of a date or datetime (a date at 00:00Z: only used to order two of one product). */
function startOf(moment: string): number {
  return Date.parse(moment.length === 10 ? `${moment}T00:00:00Z` : moment);
}
