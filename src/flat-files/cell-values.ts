/**
 * One cell made into one payload value, as its field spec says: trimmed and cased, looked up in a
 * value map, read as a day-first date or a decimal with a comma — and never guessed. A blank cell
 * makes no field (or the default); a cell that cannot be converted is a problem with its code.
 */
import type { FieldKind } from './payload-paths.ts';
import type { FieldSpec, Scalar } from './profile.ts';

export type CellProblemCode =
  | 'unparseable_date'
  | 'unparseable_decimal'
  | 'unparseable_integer'
  | 'unmapped_value';

export type CellValue = { value: Scalar | undefined } | { code: CellProblemCode; detail: string };

const dateReaders = new Map<string, { re: RegExp; order: ('d' | 'M' | 'y')[] }>();

/** A regular expression for a format of dd/d, MM/M and yyyy with literal separators. */
function dateReader(format: string) {
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
  reader = { re: new RegExp(`^${source}$`), order };
  dateReaders.set(format, reader);
  return reader;
}

/** `text` in `format` as YYYY-MM-DD, or null when it is not a real date written that way. */
export function readDate(text: string, format: string): string | null {
  const { re, order } = dateReader(format);
  const m = re.exec(text);
  if (!m) return null;
  const part = (p: 'd' | 'M' | 'y') => Number(m[order.indexOf(p) + 1]);
  const [y, mo, d] = [part('y'), part('M'), part('d')];
  const when = new Date(Date.UTC(y, mo - 1, d));
  if (mo < 1 || mo > 12 || d < 1 || when.getUTCDate() !== d || when.getUTCMonth() !== mo - 1) return null;
  return `${String(y).padStart(4, '0')}-${String(mo).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

const DECIMAL_DOT = /^-?\d+(\.\d+)?$/;
const DECIMAL_COMMA = /^-?\d+(,\d+)?$/;

/** A decimal written with `separator` and no grouping, as payload text (a point); else null. */
export function readDecimalText(text: string, separator: '.' | ','): string | null {
  if (!(separator === ',' ? DECIMAL_COMMA : DECIMAL_DOT).test(text)) return null;
  return separator === ',' ? text.replace(',', '.') : text;
}

/** The value of one cell (`raw`, undefined for a const field) for a field of `kind`. */
export function cellValue(
  spec: FieldSpec,
  kind: FieldKind,
  raw: string | undefined,
  decimal: '.' | ',',
): CellValue {
  if (raw === undefined) return { value: spec.const };
  let text = spec.trim ? raw.trim() : raw;
  if (text === '') return { value: spec.default };
  if (spec.upper) text = text.toUpperCase();
  else if (spec.lower) text = text.toLowerCase();
  if (spec.map) {
    if (!Object.hasOwn(spec.map, text)) {
      return {
        code: 'unmapped_value',
        detail: `"${text}" is not one of the map's values (${Object.keys(spec.map).join(', ')})`,
      };
    }
    const mapped = spec.map[text];
    if (typeof mapped !== 'string') return { value: mapped };
    text = mapped;
  }
  switch (kind) {
    case 'date': {
      const format = spec.date ?? 'yyyy-MM-dd';
      const date = readDate(text, format);
      return date === null
        ? { code: 'unparseable_date', detail: `"${text}" is not a date written ${format}` }
        : { value: date };
    }
    case 'decimal': {
      const separator = spec.decimal ?? decimal;
      const value = readDecimalText(text, separator);
      return value === null
        ? {
            code: 'unparseable_decimal',
            detail: `"${text}" is not a decimal with "${separator}" and no thousands separator`,
          }
        : { value };
    }
    case 'integer':
      return /^-?\d{1,15}$/.test(text)
        ? { value: Number(text) }
        : { code: 'unparseable_integer', detail: `"${text}" is not a whole number` };
    case 'boolean':
      if (text === 'true' || text === 'false') return { value: text === 'true' };
      return {
        code: 'unmapped_value',
        detail: `"${text}" is neither true nor false (map the source's values)`,
      };
    default:
      return { value: text };
  }
}
