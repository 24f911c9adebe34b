/**
 * JSON as text, for tests that care about what was on the wire rather than what JSON.parse makes
 * of it: raw tokens (a number's exact digits, 10,000-deep nesting) inside generated bodies, a
 * parser that keeps every number's digits, and decimal normalisation for digit-for-digit
 * comparison. JSON.parse turns 1234567890.1234567891 into a float; these never do.
 */

/** A piece of JSON text written into a body as it is (a number token, a deep structure). */
export class RawJson {
  constructor(readonly text: string) {}
  toJSON(): string {
    return this.text;
  }
}

/** A number as it was written. */
export class JsonNumber {
  constructor(readonly text: string) {}
}

/** A parsed JSON value whose numbers keep their digits; objects have no prototype. */
export type LosslessJson =
  | null
  | boolean
  | string
  | JsonNumber
  | LosslessJson[]
  | { [key: string]: LosslessJson };

/**
 * JSON text of a value that may hold RawJson tokens anywhere. Own keys are written as they are,
 * `__proto__` included; strings are escaped as JSON.stringify escapes them (lone surrogates as \uXXXX).
 */
export function toJsonText(value: unknown): string {
  if (value instanceof RawJson) return value.text;
  if (value instanceof JsonNumber) return value.text;
  if (Array.isArray(value))
    return `[${value.map((v) => (v === undefined ? 'null' : toJsonText(v))).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const parts: string[] = [];
    for (const key of Object.keys(value)) {
      const v = (value as Record<string, unknown>)[key];
      if (v !== undefined) parts.push(`${JSON.stringify(key)}:${toJsonText(v)}`);
    }
    return `{${parts.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** Parses JSON text keeping every number as written (JsonNumber) and every key as an own property. */
export function parseLossless(text: string): LosslessJson {
  let i = 0;
  const ws = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i])) i++;
  };
  const fail = (what: string): never => {
    throw new SyntaxError(`${what} at ${i}`);
  };
  const value = (): LosslessJson => {
    ws();
    const c = text[i];
    if (c === '{') {
      i++;
      const out: Record<string, LosslessJson> = Object.create(null);
      ws();
      if (text[i] === '}') {
        i++;
        return out;
      }
      for (;;) {
        ws();
        if (text[i] !== '"') fail('expected a key');
        const key = string();
        ws();
        if (text[i++] !== ':') fail('expected :');
        out[key] = value();
        ws();
        if (text[i] === ',') i++;
        else if (text[i++] === '}') return out;
        else fail('expected , or }');
      }
    }
    if (c === '[') {
      i++;
      const out: LosslessJson[] = [];
      ws();
      if (text[i] === ']') {
        i++;
        return out;
      }
      for (;;) {
        out.push(value());
        ws();
        if (text[i] === ',') i++;
        else if (text[i++] === ']') return out;
        else fail('expected , or ]');
      }
    }
    if (c === '"') return string();
    for (const [word, v] of [
      ['true', true],
      ['false', false],
      ['null', null],
    ] as const) {
      if (text.startsWith(word, i)) {
        i += word.length;
        return v;
      }
    }
    const m = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/.exec(text.slice(i, i + 4096));
    if (!m) return fail('unexpected token');
    i += m[0].length;
    return new JsonNumber(m[0]);
  };
  const string = (): string => {
    const start = i;
    i++;
    while (text[i] !== '"') {
      if (i >= text.length) fail('unterminated string');
      i += text[i] === '\\' ? 2 : 1;
    }
    i++;
    return JSON.parse(text.slice(start, i));
  };
  const out = value();
  ws();
  if (i !== text.length) fail('trailing text');
  return out;
}

/**
 * The canonical form of a decimal written as a JSON number or a decimal string (`-012.50`,
 * `.5`, `5.`, `1.5e3`): no leading or trailing zeros, no exponent, `0` for every zero; null when
 * the text is not a decimal.
 */
export function normaliseDecimal(text: string): string | null {
  const m = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/.exec(text.trim() === text ? text : '');
  if (!m || (m[2] === '' && (m[3] ?? '') === '')) return null;
  const [, sign, whole, fraction = '', exp = '0'] = m;
  const shift = Number(exp);
  if (!Number.isSafeInteger(shift) || Math.abs(shift) > 10_000) return null;
  let digits = whole + fraction;
  let point = whole.length + shift;
  if (point < 0) {
    digits = '0'.repeat(-point) + digits;
    point = 0;
  }
  if (point > digits.length) digits += '0'.repeat(point - digits.length);
  const intPart = digits.slice(0, point).replace(/^0+/, '') || '0';
  const fracPart = digits.slice(point).replace(/0+$/, '');
  const body = fracPart ? `${intPart}.${fracPart}` : intPart;
  return body === '0' || sign !== '-' ? body : `-${body}`;
}

/** A decimal's canonical form from a stored or sent value (string, JsonNumber or JS number). */
export function decimalOf(value: unknown): string | null {
  if (value instanceof JsonNumber) return normaliseDecimal(value.text);
  if (typeof value === 'string') return normaliseDecimal(value);
  if (typeof value === 'number' && Number.isFinite(value)) return normaliseDecimal(String(value));
  return null;
}

/**
 * Where two lossless JSON values differ, as `path: sent → stored` lines (empty when equal). Key
 * order does not matter; numbers compare as decimals, and a number stored as a decimal string of
 * the same value (or the reverse) counts as equal.
 */
export function jsonDifferences(sent: unknown, stored: unknown, path = ''): string[] {
  const here = path || '(root)';
  const show = (v: unknown) => {
    const s = v instanceof JsonNumber ? v.text : JSON.stringify(v);
    return s === undefined ? 'absent' : s.length > 80 ? `${s.slice(0, 77)}...` : s;
  };
  const numeric = (v: unknown) => v instanceof JsonNumber || typeof v === 'number';
  if (numeric(sent) || numeric(stored)) {
    const a = decimalOf(sent);
    return a !== null && a === decimalOf(stored) ? [] : [`${here}: ${show(sent)} → ${show(stored)}`];
  }
  if (Array.isArray(sent) || Array.isArray(stored)) {
    if (!Array.isArray(sent) || !Array.isArray(stored) || sent.length !== stored.length) {
      return [`${here}: ${show(sent)} → ${show(stored)}`];
    }
    return sent.flatMap((v, i) => jsonDifferences(v, stored[i], path ? `${path}.${i}` : String(i)));
  }
  if (sent !== null && stored !== null && typeof sent === 'object' && typeof stored === 'object') {
    const a = sent as Record<string, unknown>;
    const b = stored as Record<string, unknown>;
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    return [...keys].flatMap((k) => {
      const sub = path ? `${path}.${k}` : k;
      if (!Object.hasOwn(a, k) || !Object.hasOwn(b, k)) {
        return [
          `${sub}: ${Object.hasOwn(a, k) ? show(a[k]) : 'absent'} → ${Object.hasOwn(b, k) ? show(b[k]) : 'absent'}`,
        ];
      }
      return jsonDifferences(a[k], b[k], sub);
    });
  }
  return sent === stored ? [] : [`${here}: ${show(sent)} → ${show(stored)}`];
}
