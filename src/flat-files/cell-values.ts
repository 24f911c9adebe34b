/**
 * One cell made into one payload value, as its field spec says: trimmed and cased, looked up in a
 * value map, read as a day-first date or a decimal with a comma — and never guessed. A blank cell
 * makes no field (or the default); a cell that cannot be converted is a problem with its code.
 * A field's spec is compiled once into a converter (`compileCell`): a book of 1.5 million accounts
 * converts some 60 million cells, too many to read the spec again for each.
 */
import type { FieldKind } from './payload-paths.ts';
import type { FieldSpec, Scalar } from './profile.ts';

export type CellProblemCode =
  | 'unparseable_date'
  | 'unparseable_decimal'
  | 'unparseable_integer'
  | 'unmapped_value';

export type CellValue = { value: Scalar | undefined } | { code: CellProblemCode; detail: string };

/** A cell that cannot be converted, as a converter answers it (a class, so it is told from a value). */
export class CellProblem {
  constructor(
    readonly code: CellProblemCode,
    readonly detail: string,
  ) {}
}

/** A field's converter: the value of its cell (undefined for a const field), or a problem. */
export type CellConverter = (raw: string | undefined) => Scalar | undefined | CellProblem;

type DateReader = (text: string) => string | null;
const dateReaders = new Map<string, DateReader>();
const pad2 = (n: number) => (n < 10 ? `0${n}` : String(n));

/**
 * Whether y-mo-d is a real date, as Date.UTC judges it: it takes a year below 100 as 19xx, whose
 * leap years are those of the calendar from 1900 (kept so that no date changes its answer).
 */
function realDate(y: number, mo: number, d: number): boolean {
  if (mo < 1 || mo > 12 || d < 1) return false;
  if (d <= 28) return true;
  const year = y < 100 ? y + 1900 : y;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const days = mo === 2 ? (leap ? 29 : 28) : mo === 4 || mo === 6 || mo === 9 || mo === 11 ? 30 : 31;
  return d <= days;
}

/** The number of the ASCII digits of `text` from `at` to `end`, or -1 when one is not a digit. */
function digits(text: string, at: number, end: number): number {
  let n = 0;
  for (let i = at; i < end; i++) {
    const c = text.charCodeAt(i) - 48;
    if (c < 0 || c > 9) return -1;
    n = n * 10 + c;
  }
  return n;
}

/**
 * A format of dd, MM and yyyy only (dd/MM/yyyy, the usual one) read by character positions: what
 * its regular expression would answer, without the match's strings.
 */
function fixedWidthReader(format: string): DateReader | null {
  const tokens = format.match(/yyyy|dd?|MM?|[^dMy]/g) ?? [];
  if (tokens.some((t) => t === 'd' || t === 'M')) return null;
  const at = { y: -1, M: -1, d: -1 };
  const literals: [number, number][] = [];
  let i = 0;
  for (const t of tokens) {
    if (t === 'yyyy') at.y = i;
    else if (t === 'dd') at.d = i;
    else if (t === 'MM') at.M = i;
    else literals.push([i, t.charCodeAt(0)]);
    i += t.length;
  }
  if (at.y < 0 || at.M < 0 || at.d < 0 || tokens.join('') !== format) return null;
  const length = i;
  return (text) => {
    if (text.length !== length) return null;
    for (const [pos, code] of literals) if (text.charCodeAt(pos) !== code) return null;
    const y = digits(text, at.y, at.y + 4);
    const mo = digits(text, at.M, at.M + 2);
    const d = digits(text, at.d, at.d + 2);
    if (y < 0 || mo < 0 || d < 0 || !realDate(y, mo, d)) return null;
    return `${text.slice(at.y, at.y + 4)}-${text.slice(at.M, at.M + 2)}-${text.slice(at.d, at.d + 2)}`;
  };
}

/** A reader of a format of dd/d, MM/M and yyyy with literal separators, answering YYYY-MM-DD. */
function dateReader(format: string): DateReader {
  let reader = dateReaders.get(format);
  if (reader) return reader;
  const order: ('d' | 'M' | 'y')[] = [];
  const source = format.replace(/yyyy|dd?|MM?|[^dMy]/g, (token) => {
    const part =
      token === 'yyyy' ? 'y' : token[0] === 'd' || token[0] === 'M' ? (token[0] as 'd' | 'M') : null;
    if (part === null) return token.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
    order.push(part);
    return token === 'yyyy' ? '(\\d{4})' : token.length === 2 ? '(\\d{2})' : '(\\d{1,2})';
  });
  const fixed = fixedWidthReader(format);
  if (fixed) {
    dateReaders.set(format, fixed);
    return fixed;
  }
  const re = new RegExp(`^${source}$`);
  const [yAt, mAt, dAt] = [order.indexOf('y') + 1, order.indexOf('M') + 1, order.indexOf('d') + 1];
  reader = (text) => {
    const m = re.exec(text);
    if (!m) return null;
    // A format without a part reads it as NaN, which no date is.
    const y = Number(m[yAt === 0 ? -1 : yAt]);
    const mo = Number(m[mAt === 0 ? -1 : mAt]);
    const d = Number(m[dAt === 0 ? -1 : dAt]);
    if (!realDate(y, mo, d)) return null;
    return `${String(y).padStart(4, '0')}-${pad2(mo)}-${pad2(d)}`;
  };
  dateReaders.set(format, reader);
  return reader;
}

/** `text` in `format` as YYYY-MM-DD, or null when it is not a real date written that way. */
export function readDate(text: string, format: string): string | null {
  return dateReader(format)(text);
}

const DECIMAL_DOT = /^-?\d+(\.\d+)?$/;
const DECIMAL_COMMA = /^-?\d+(,\d+)?$/;
const INTEGER = /^-?\d{1,15}$/;

/** A decimal written with `separator` and no grouping, as payload text (a point); else null. */
export function readDecimalText(text: string, separator: '.' | ','): string | null {
  if (!(separator === ',' ? DECIMAL_COMMA : DECIMAL_DOT).test(text)) return null;
  return separator === ',' ? text.replace(',', '.') : text;
}

/** The conversion of a cell's text (trimmed, cased and mapped already) to a value of `kind`. */
function kindReader(
  spec: FieldSpec,
  kind: FieldKind,
  decimal: '.' | ',',
): (text: string) => Scalar | CellProblem {
  switch (kind) {
    case 'date': {
      const format = spec.date ?? 'yyyy-MM-dd';
      const read = dateReader(format);
      return (text) =>
        read(text) ?? new CellProblem('unparseable_date', `"${text}" is not a date written ${format}`);
    }
    case 'decimal': {
      const separator = spec.decimal ?? decimal;
      return (text) =>
        readDecimalText(text, separator) ??
        new CellProblem(
          'unparseable_decimal',
          `"${text}" is not a decimal with "${separator}" and no thousands separator`,
        );
    }
    case 'integer':
      return (text) =>
        INTEGER.test(text)
          ? Number(text)
          : new CellProblem('unparseable_integer', `"${text}" is not a whole number`);
    case 'boolean':
      return (text) =>
        text === 'true' || text === 'false'
          ? text === 'true'
          : new CellProblem(
              'unmapped_value',
              `"${text}" is neither true nor false (map the source's values)`,
            );
    default:
      return (text) => text;
  }
}

/** The converter of a field of `kind` made as `spec` says, in a file whose decimal separator is `decimal`. */
export function compileCell(spec: FieldSpec, kind: FieldKind, decimal: '.' | ','): CellConverter {
  const read = kindReader(spec, kind, decimal);
  const { trim, upper, lower, map } = spec;
  const constant = spec.const;
  const fallback = spec.default;
  return (raw) => {
    if (raw === undefined) return constant;
    let text = trim ? raw.trim() : raw;
    if (text === '') return fallback;
    if (upper) text = text.toUpperCase();
    else if (lower) text = text.toLowerCase();
    if (map) {
      if (!Object.hasOwn(map, text)) {
        return new CellProblem(
          'unmapped_value',
          `"${text}" is not one of the map's values (${Object.keys(map).join(', ')})`,
        );
      }
      const mapped = map[text];
      if (typeof mapped !== 'string') return mapped;
      text = mapped;
    }
    return read(text);
  };
}

/** The value of one cell (`raw`, undefined for a const field) for a field of `kind`. */
export function cellValue(
  spec: FieldSpec,
  kind: FieldKind,
  raw: string | undefined,
  decimal: '.' | ',',
): CellValue {
  const got = compileCell(spec, kind, decimal)(raw);
  return got instanceof CellProblem ? { code: got.code, detail: got.detail } : { value: got };
}
