/**
 * Hostile JSON values and mutations for the endpoint fuzzer: type confusion, unicode and NUL,
 * huge and deep values, prototype keys, boundary dates, datetimes and numbers, and a valid body
 * mutated at random paths. Values are plain JSON-ish data; RawJson carries what JS values cannot
 * (a number's exact digits, 10,000-deep nesting, a literal `__proto__` key).
 */
import fc from 'fast-check';
import { RawJson, toJsonText } from '../helpers/json-text.ts';

// biome-ignore lint/suspicious/noExplicitAny: JSON values
export type Json = any;

const raw = (text: string) => new RawJson(text);

/** A ten-integer-digit, ten-fraction-digit decimal (the account payload's widest). */
export const wideDecimal = fc
  .tuple(fc.boolean(), fc.stringMatching(/^[1-9]\d{0,9}$/), fc.stringMatching(/^\d{1,10}$/))
  .map(([neg, whole, fraction]) => `${neg ? '-' : ''}${whole}.${fraction}`);

export const BOUNDARY_DATES = [
  '0000-01-01',
  '0000-12-31',
  '0001-01-01',
  '9999-12-31',
  '10000-01-01',
  '+010000-01-01',
  '-000001-01-01',
  '2020-02-29',
  '2019-02-29',
  '1900-02-29',
  '2000-02-29',
  '2020-02-30',
  '2020-13-01',
  '2020-00-10',
  '2020-01-00',
  '2020-1-1',
  '20200101',
  ' 2020-01-01',
  '2020-01-01 ',
  '2020-01-01T00:00:00Z',
  '1970-01-01',
  '1969-12-31',
  '2038-01-19',
  '',
];

export const BOUNDARY_DATETIMES = [
  '2016-12-31T23:59:60Z',
  '2020-01-01T23:59:60+00:00',
  '2020-01-01T00:00:00+01',
  '2020-01-01T00:00:00-05',
  '2020-01-01T00:00:00+0100',
  '2020-01-01T00:00:00+24:00',
  '2020-01-01T00:00:00+23:59',
  '2020-01-01T24:00:00Z',
  '2020-01-01T00:60:00Z',
  '0000-01-01T00:00:00Z',
  '0001-01-01T00:00:00Z',
  '0001-01-01T00:00:00+14:00',
  '9999-12-31T23:59:59Z',
  '9999-12-31T23:59:59-23:59',
  '10000-01-01T00:00:00Z',
  '+010000-01-01T00:00:00Z',
  '2020-01-01T00:00:00.123456789Z',
  '2020-01-01T00:00:00.1234567891Z',
  '2020-01-01T00:00:00.Z',
  '2020-01-01t00:00:00z',
  '2020-01-01 00:00:00Z',
  '2020-01-01T00:00:00',
  '2020-01-01T00:00Z',
  '2020-02-30T00:00:00Z',
  '2020-01-01',
  '',
];

/** Number tokens written into the body as they are. */
export const BOUNDARY_NUMBER_TOKENS = [
  '1e20',
  '-1e20',
  '1e308',
  '1e400',
  '-1e400',
  '1e-400',
  '9007199254740993',
  '-9007199254740993',
  '9007199254740992',
  '2147483648',
  '-2147483649',
  '9223372036854775808',
  '123456789012345678901234567890',
  '1234567890.1234567890',
  '-1234567890.1234567891',
  '99999999999.99',
  '999999999999.999',
  '0.00000000001',
  '0.123456789012',
  '-0',
  '-0.0',
  '0.0',
  '1.0',
  '1E2',
  '100e-2',
  '12.345',
  '1.005',
];

/** Strings that look like numbers, or almost. */
export const NUMBER_LIKE_STRINGS = [
  'NaN',
  'Infinity',
  '-Infinity',
  'nan',
  '1e20',
  '1E5',
  '1,000.00',
  ' 1.00',
  '1.00 ',
  '+1.00',
  '0x1F',
  '1_000',
  '١٢٣',
  '１２３',
  '.',
  '-',
  '-.',
  '.5',
  '5.',
  '--1',
  '0.0.0',
  '12345678901.12',
  '1234567890.12345678901',
  '99999999999999999999',
  '-0',
  '1.005',
];

const NUL_STRINGS = ['\u0000', 'a\u0000b', '\u0000abc', 'abc\u0000', 'A-\u0000', '%00', '\\u0000'];

const ODD_STRINGS = [
  '\ud800',
  'a\udc00b',
  '\udbff\udfff',
  '\u200b',
  '\u202eevil',
  '\ufeff',
  '\uffff',
  'e\u0301',
  '👨‍👩‍👧‍👦',
  '𝕏',
  'Jabłoński',
  'Ωμέγα',
  '日本語',
  'مرحبا',
  ' ',
  '\t',
  '\n',
  '\r\n',
  'null',
  'undefined',
  'true',
  "' OR 1=1 --",
  '"; DROP TABLE accounts; --',
  '../../etc/passwd',
  '..',
  '/',
  '//x',
  '%2e%2e%2f',
  'C:\\Windows',
  'file:///etc/passwd',
  'http://169.254.169.254/',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a log4j-style probe, deliberately literal
  '${jndi:ldap://x}',
  '<script>alert(1)</script>',
  '__proto__',
  'constructor',
  'prototype',
];

export const oddString: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...ODD_STRINGS) },
  { weight: 3, arbitrary: fc.constantFrom(...NUL_STRINGS) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 12 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 12 }) },
  { weight: 1, arbitrary: fc.string({ maxLength: 12 }).map((s) => `${s}\u0000`) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(64, 65, 101, 128, 129, 255, 256, 10_000).map((n) => 'A'.repeat(n)),
  },
);

/** 10,000-deep (or shallower) nesting, as text: JSON.stringify would not write it. */
export const deepValue: fc.Arbitrary<RawJson> = fc
  .tuple(fc.constantFrom(63, 64, 65, 100, 1_000, 10_000), fc.constantFrom('array', 'object'))
  .map(([depth, kind]) =>
    kind === 'array'
      ? raw(`${'['.repeat(depth)}${']'.repeat(depth)}`)
      : raw(`${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`),
  );

/** Very long strings, arrays and objects (under the 5 MiB body limit, and one over it). */
export const hugeValue: fc.Arbitrary<Json> = fc.oneof(
  fc.constantFrom(100_000, 1_000_000).map((n) => 'x'.repeat(n)),
  fc.constant(raw(`[${'1,'.repeat(99_999)}1]`)),
  fc.constant(raw(`{${Array.from({ length: 20_000 }, (_, i) => `"k${i}":${i}`).join(',')}}`)),
  fc.constant(raw(`"${'€'.repeat(2_000_000)}"`)),
);

export const protoValue: fc.Arbitrary<RawJson> = fc.constantFrom(
  raw('{"__proto__":{"polluted":"yes"}}'),
  raw('{"constructor":{"prototype":{"polluted":"yes"}}}'),
  raw('{"__proto__":null}'),
  raw('{"__proto__":[]}'),
  raw('{"a":1,"a":2}'),
);

const typeConfusion: fc.Arbitrary<Json> = fc.constantFrom(
  null,
  true,
  false,
  0,
  -1,
  1.5,
  '',
  'x',
  [],
  {},
  [null],
  [1, 2],
  { a: 1 },
  [[]],
  [{}],
);

export const boundaryNumber: fc.Arbitrary<Json> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...BOUNDARY_NUMBER_TOKENS).map(raw) },
  { weight: 2, arbitrary: fc.constantFrom(...NUMBER_LIKE_STRINGS) },
  { weight: 2, arbitrary: wideDecimal },
  { weight: 1, arbitrary: wideDecimal.map(raw) },
  { weight: 1, arbitrary: fc.integer() },
  { weight: 1, arbitrary: fc.double({ noNaN: true, noDefaultInfinity: true }) },
);

/** One hostile value of any kind. */
export const hostileValue: fc.Arbitrary<Json> = fc.oneof(
  { weight: 4, arbitrary: typeConfusion },
  { weight: 5, arbitrary: oddString },
  { weight: 3, arbitrary: fc.constantFrom(...BOUNDARY_DATES) },
  { weight: 3, arbitrary: fc.constantFrom(...BOUNDARY_DATETIMES) },
  { weight: 4, arbitrary: boundaryNumber },
  { weight: 1, arbitrary: deepValue },
  { weight: 1, arbitrary: protoValue },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 1, arbitrary: hugeValue },
);

/** Keys an attacker or a careless client adds: unknown, prototype, unicode, dotted. */
export const oddKey: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '__proto__',
    'constructor',
    'prototype',
    'hasOwnProperty',
    'toString',
    '',
    'a.b',
    '0',
    '💥',
    '\u0000',
    'x'.repeat(300),
  ),
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 8 }),
);

export type Path = (string | number)[];

/** Every path in a JSON value (root first, breadth first); RawJson tokens are leaves. */
export function pathsOf(value: Json): Path[] {
  const out: Path[] = [];
  const queue: { v: Json; p: Path }[] = [{ v: value, p: [] }];
  for (let next = 0; next < queue.length; next++) {
    const { v, p } = queue[next];
    out.push(p);
    if (Array.isArray(v)) {
      for (const [i, x] of v.entries()) queue.push({ v: x, p: [...p, i] });
    } else if (v !== null && typeof v === 'object' && !(v instanceof RawJson)) {
      for (const k of Object.keys(v)) queue.push({ v: v[k], p: [...p, k] });
    }
  }
  return out;
}

export type Mutation =
  | { op: 'delete'; at: number }
  | { op: 'replace'; at: number; value: Json }
  | { op: 'blank'; at: number }
  | { op: 'null'; at: number }
  | { op: 'add-key'; at: number; key: string; value: Json }
  | { op: 'duplicate'; at: number }
  | { op: 'wrap'; at: number };

export const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ op: fc.constant('delete' as const), at: fc.nat() }) },
  {
    weight: 6,
    arbitrary: fc.record({ op: fc.constant('replace' as const), at: fc.nat(), value: hostileValue }),
  },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('blank' as const), at: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('null' as const), at: fc.nat() }) },
  {
    weight: 1,
    arbitrary: fc.record({
      op: fc.constant('add-key' as const),
      at: fc.nat(),
      key: oddKey,
      value: hostileValue,
    }),
  },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('duplicate' as const), at: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('wrap' as const), at: fc.nat() }) },
);

/** A deep copy keeping RawJson tokens and every own key (`__proto__` included). */
export function cloneJson(v: Json): Json {
  if (v === null || typeof v !== 'object' || v instanceof RawJson) return v;
  if (Array.isArray(v)) return v.map(cloneJson);
  const out: Json = {};
  for (const k of Object.keys(v)) defineKey(out, k, cloneJson(v[k]));
  return out;
}

/** Sets an own enumerable key, even `__proto__`. */
export function defineKey(obj: Json, key: string, value: Json) {
  Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
}

const clone = cloneJson;

/**
 * A copy of `base` with the mutations applied in turn; each picks its node among the paths that
 * exist at that moment (index modulo their number; the root is index 0). `log` receives one line
 * per mutation (`blank at customers.0.date_of_birth`).
 */
export function applyMutations(base: Json, mutations: readonly Mutation[], log?: string[]): Json {
  let doc = clone(base);
  for (const m of mutations) {
    const paths = pathsOf(doc);
    const path = paths[m.at % paths.length];
    log?.push(
      `${m.op} at ${path.join('.') || '(root)'}${'value' in m ? ` := ${toJsonText(m.value).slice(0, 80)}` : ''}`,
    );
    const set = (value: Json) => {
      if (path.length === 0) doc = value;
      else {
        const parent = parentOf(doc, path);
        if (Array.isArray(parent)) parent[Number(path[path.length - 1])] = value;
        else defineKey(parent, String(path[path.length - 1]), value);
      }
    };
    const current = path.length === 0 ? doc : parentOf(doc, path)[path[path.length - 1]];
    switch (m.op) {
      case 'delete':
        if (path.length === 0) doc = {};
        else {
          const parent = parentOf(doc, path);
          const key = path[path.length - 1];
          if (Array.isArray(parent)) parent.splice(Number(key), 1);
          else delete parent[key];
        }
        break;
      case 'replace':
        // Generated values may be shared constants: never insert (and later mutate) them in place.
        set(clone(m.value));
        break;
      case 'blank':
        set('');
        break;
      case 'null':
        set(null);
        break;
      case 'add-key':
        if (
          current !== null &&
          typeof current === 'object' &&
          !Array.isArray(current) &&
          !(current instanceof RawJson)
        )
          defineKey(current, m.key, clone(m.value));
        else set({ [m.key]: clone(m.value) });
        break;
      case 'duplicate':
        if (Array.isArray(current) && current.length > 0) current.push(clone(current[0]));
        else set([clone(current)]);
        break;
      case 'wrap':
        set([clone(current)]);
        break;
    }
  }
  return doc;
}

function parentOf(doc: Json, path: Path): Json {
  let node = doc;
  for (const key of path.slice(0, -1)) node = node[key];
  return node;
}

/** A valid body mutated at 1–3 random paths. */
export const mutated = (base: Json): fc.Arbitrary<Json> =>
  fc.array(mutation, { minLength: 1, maxLength: 3 }).map((ms) => applyMutations(base, ms));

/** A path parameter: one of the valid values, or a hostile string. */
export const pathParam = (valid: readonly string[]): fc.Arbitrary<string> =>
  fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...valid) },
    { weight: 4, arbitrary: oddString },
    {
      weight: 2,
      arbitrary: fc.tuple(fc.constantFrom(...valid), oddString).map(([v, s]) => `${v}${s}`),
    },
    { weight: 1, arbitrary: fc.constantFrom(...BOUNDARY_DATES, ...NUMBER_LIKE_STRINGS) },
  );

/**
 * A path segment as a client would put it in a URL: percent-encoded as UTF-8, lone surrogates as
 * the (invalid) bytes a naive encoder writes; sometimes sent raw.
 */
export function encodeSegment(value: string, rawSegment = false): string {
  if (rawSegment)
    return value.replace(/[/?#\s]/g, (c) => `%${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
  let out = '';
  for (const ch of value) {
    const cp = ch.codePointAt(0)!;
    if (cp >= 0xd800 && cp <= 0xdfff)
      out +=
        `%${(0xe0 | (cp >> 12)).toString(16)}%${(0x80 | ((cp >> 6) & 0x3f)).toString(16)}%${(0x80 | (cp & 0x3f)).toString(16)}`.toUpperCase();
    else out += encodeURIComponent(ch);
  }
  return out;
}
