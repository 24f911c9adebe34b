/**
 * JSON numbers kept exactly as sent. JSON.parse turns every number into a binary double, so
 * `12345678901234567.25` arrives as `12345678901234568`, and `1e400` as Infinity. Bodies whose
 * text holds such a number are parsed again here: each number a double cannot keep is parsed
 * as its double, and its sent text is remembered beside the object holding it. A decimal field
 * takes that text (`takeExactText`); any such number no decimal field took is refused afterwards
 * as `imprecise_number` (`leftoverNumbers`), since storing its double would alter it.
 *
 * The texts live in weak maps keyed by the parsed objects themselves, so concurrent requests
 * never see each other's numbers and nothing outlives its body.
 */

import { scanJsonText } from './json-text.ts';

export const IMPRECISE_NUMBER_DETAIL =
  'This number cannot be kept exactly as a JSON number here (too many digits, beyond ±(2^53 − 1) or out of range): send it as a string.';

export interface ExactNumber {
  /** The number as sent, written without an exponent when its exponent is small. */
  text: string;
  /** Whether a decimal field has read it (and so spoken for it, valid or not). */
  taken: boolean;
}

/** Per parsed object or array: its members holding numbers a double cannot keep, by key. */
const exactNumbers = new WeakMap<object, Map<string, ExactNumber>>();
/** Every object or array that holds such a number somewhere beneath it. */
const holdsExactNumbers = new WeakSet<object>();

/** Exponents beyond this are not written out (a decimal field refuses the raw text). */
const MAX_EXPANDED_EXPONENT = 400;

/** `sign digits e exponent` with no leading or trailing zeros: equal values, equal forms. */
function canonicalDecimal(text: string): string {
  const match = /^(-?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/.exec(text);
  if (match === null) return text;
  const [, sign, whole, fraction = '', exponent = '0'] = match;
  let digits = (whole + fraction).replace(/^0+/, '');
  let scale = Number(exponent) - fraction.length;
  if (digits === '') return '0';
  const trimmed = digits.replace(/0+$/, '');
  scale += digits.length - trimmed.length;
  digits = trimmed;
  return `${sign}${digits}e${scale}`;
}

/**
 * `text` written without an exponent (`1.5e3` → `1500`, `2E-3` → `0.002`). Returns the text as
 * it is when it has no exponent or one too large to write out.
 */
export function withoutExponent(text: string): string {
  const match = /^(-?)(\d*)(?:\.(\d*))?[eE]([+-]?\d+)$/.exec(text);
  if (match === null) return text;
  const [, sign, whole, fraction = '', exponentText] = match;
  const exponent = Number(exponentText);
  if (Math.abs(exponent) > MAX_EXPANDED_EXPONENT) return text;
  const digits = (whole + fraction).replace(/^0+(?=\d)/, '');
  const point = digits.length - fraction.length + exponent;
  const plain =
    point <= 0
      ? `0.${'0'.repeat(-point)}${digits}`
      : point >= digits.length
        ? digits + '0'.repeat(point - digits.length)
        : `${digits.slice(0, point)}.${digits.slice(point)}`;
  const tidy = plain.includes('.') ? plain : plain.replace(/^0+(?=\d)/, '');
  return sign === '-' && /[1-9]/.test(tidy) ? `-${tidy}` : tidy;
}

/** The plain decimal text of a finite double: its shortest digits, never an exponent. */
export function numberText(value: number): string | null {
  if (!Number.isFinite(value)) return null;
  const text = withoutExponent(String(value));
  return text === '-0' ? '0' : text;
}

/**
 * Whether JSON.parse keeps the number `token` exactly: the double's shortest text has the same
 * value as the token, and an integer is a safe one (beyond ±(2^53 − 1) neighbours collide).
 */
export function keepsExactly(token: string): boolean {
  const value = Number(token);
  if (!Number.isFinite(value)) return false;
  if (Number.isInteger(value) && !Number.isSafeInteger(value)) return false;
  return canonicalDecimal(token) === canonicalDecimal(String(value));
}

/** The number tokens of JSON text (outside strings) a double cannot keep, with their offsets. */
function impreciseTokens(text: string): { start: number; end: number }[] {
  const found: { start: number; end: number }[] = [];
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92) i++;
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 45 || (c >= 48 && c <= 57)) {
      let end = i + 1;
      while (end < text.length && /[\d.eE+-]/.test(text[end])) end++;
      if (!keepsExactly(text.slice(i, end))) found.push({ start: i, end });
      i = end - 1;
    }
  }
  return found;
}

export type ParsedBody = { value: unknown } | { rootNumber: string };

/**
 * Levels of nesting the number walk descends. Bodies nested deeper are refused for their depth
 * (json-body.ts, 64 levels) before anything reads their numbers; the walk must not overflow the
 * stack on them first.
 */
const MAX_WALK_DEPTH = 100;

/**
 * Parses JSON text already known to be valid, keeping the text of every number a double cannot
 * keep. A whole body that is such a number is returned as `rootNumber` (no object to hold it).
 */
export function parseKeepingNumbers(
  text: string,
  parsed: unknown,
  longNumbers = scanJsonText(text).longNumbers,
): ParsedBody {
  if (!longNumbers) return { value: parsed };
  const tokens = impreciseTokens(text);
  if (tokens.length === 0) return { value: parsed };
  // Each such number is swapped for a marker string no client can send (it holds NUL, which
  // json-body.ts refuses in every string), then swapped back once parsed.
  const marker = `\u0000ferry-number-${Math.random().toString(36).slice(2)}:`;
  const markerJson = JSON.stringify(marker).slice(0, -1);
  let swapped = '';
  let from = 0;
  tokens.forEach(({ start, end }, index) => {
    swapped += `${text.slice(from, start)}${markerJson}${index}"`;
    from = end;
  });
  swapped += text.slice(from);
  const value: unknown = JSON.parse(swapped);
  const tokenText = (markerValue: string) => {
    const { start, end } = tokens[Number(markerValue.slice(marker.length))];
    return text.slice(start, end);
  };
  if (typeof value === 'string') return { rootNumber: tokenText(value) };
  const restore = (node: unknown, depth: number): boolean => {
    if (typeof node !== 'object' || node === null || depth > MAX_WALK_DEPTH) return false;
    let holds = false;
    for (const [key, child] of Object.entries(node)) {
      if (typeof child === 'string' && child.startsWith(marker)) {
        const sent = tokenText(child);
        (node as Record<string, unknown>)[key] = Number(sent);
        const members = exactNumbers.get(node) ?? new Map<string, ExactNumber>();
        members.set(key, { text: withoutExponent(sent), taken: false });
        exactNumbers.set(node, members);
        holds = true;
      } else if (restore(child, depth + 1)) holds = true;
    }
    if (holds) holdsExactNumbers.add(node);
    return holds;
  };
  restore(value, 1);
  return { value };
}

/** The sent text of the number at `parent[key]`, marked taken, or undefined if JSON.parse kept it. */
export function takeExactText(parent: unknown, key: string | number): string | undefined {
  if (typeof parent !== 'object' || parent === null) return undefined;
  const entry = exactNumbers.get(parent)?.get(String(key));
  if (!entry) return undefined;
  entry.taken = true;
  return entry.text;
}

/** Numbers a double cannot keep beneath `value` that no decimal field took, by key path. */
export function leftoverNumbers(value: unknown): { path: string[]; text: string }[] {
  const left: { path: string[]; text: string }[] = [];
  const visit = (node: unknown, path: string[]) => {
    if (typeof node !== 'object' || node === null || !holdsExactNumbers.has(node)) return;
    const members = exactNumbers.get(node);
    for (const [key, child] of Object.entries(node)) {
      const entry = members?.get(key);
      if (entry) {
        if (!entry.taken) left.push({ path: [...path, key], text: entry.text });
      } else visit(child, [...path, key]);
    }
  };
  visit(value, []);
  return left;
}
