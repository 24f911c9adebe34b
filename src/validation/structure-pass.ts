/**
 * The structural pass for valid documents: a check generated once from a schema (types, required
 * and unknown fields, enums, limits, formats, tagged unions, decimals) that answers only whether
 * a document passes, and which decimals came as JSON numbers. It walks the document once and
 * builds no error objects, closures or paths (a decimal's pointer is written only when it came
 * as a JSON number).
 *
 * It never explains a refusal: when it answers "no", the caller runs Ajv's validator, whose
 * errors are the ones reported (structural-validator.ts), so every code and `attr` still comes
 * from one place. The pass may therefore refuse more than Ajv does (it is then only slower), but
 * never accept what Ajv refuses: it implements each keyword with Ajv's own semantics, and
 * test/validation/structure-pass.test.ts holds the two to the same verdict on
 * valid and mutated documents.
 *
 * A schema using a keyword this generator does not know is refused when it is compiled (on its
 * first use), loudly: every route's body is sent in the tests, so none reaches a client.
 */

import { takeExactText } from '../vocabulary/exact-numbers.ts';
import {
  DECIMAL_KEYWORD,
  type DecimalDigits,
  type DecimalNumber,
  readDecimal,
} from '../vocabulary/field-types.ts';
import type { FieldFormats } from './field-formats.ts';

/** The decimals sent as JSON numbers (with their exact text) when `value` passes, else null. */
export type StructurePass = (value: unknown) => DecimalNumber[] | null;

type SchemaNode = Record<string, unknown>;

/** Keywords that change nothing about validity (Ajv runs without `useDefaults`). */
const ANNOTATIONS = new Set(['description', 'default', 'title', 'examples', 'x-error-code', '$id']);

const TYPE_TESTS: Record<string, (v: string) => string> = {
  string: (v) => `typeof ${v} === "string"`,
  number: (v) => `typeof ${v} === "number"`,
  // Ajv's own test (strictNumbers off).
  integer: (v) => `(typeof ${v} === "number" && !(${v} % 1) && !isNaN(${v}))`,
  boolean: (v) => `typeof ${v} === "boolean"`,
  null: (v) => `${v} === null`,
  array: (v) => `Array.isArray(${v})`,
  object: (v) => `(${v} !== null && typeof ${v} === "object" && !Array.isArray(${v}))`,
};

class Unsupported extends Error {
  constructor(what: string) {
    super(`the structural pass cannot be generated for ${what}`);
  }
}

/** Code points in `text`, as Ajv counts a string's length (a surrogate pair is one). */
function codePoints(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    count++;
    const unit = text.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
  }
  return count;
}

/** State of one run: the path to the value being checked (kept only where decimals lie) and the decimals met. */
interface RunState {
  path: Array<string | number>;
  decimals: DecimalNumber[];
}

function pointerOf(path: ReadonlyArray<string | number>): string {
  let pointer = '';
  for (const part of path) pointer += `/${String(part).replaceAll('~', '~0').replaceAll('/', '~1')}`;
  return pointer;
}

/** Ajv's `x-decimal` keyword (field-types.ts), without its error objects. */
function decimalPasses(
  value: string | number,
  digits: DecimalDigits,
  parent: unknown,
  key: string | number,
  state: RunState,
): boolean {
  const sentText = typeof value === 'number' ? takeExactText(parent, key) : undefined;
  const read = readDecimal(value, digits, sentText);
  if (!('text' in read)) return false;
  if (typeof value === 'number') state.decimals.push({ pointer: pointerOf(state.path), text: read.text });
  return true;
}

class Generator {
  readonly functions: string[] = [];
  readonly constants: unknown[] = [];
  #variables = 0;

  constructor(readonly formats: FieldFormats) {}

  constant(value: unknown): string {
    this.constants.push(value);
    return `k[${this.constants.length - 1}]`;
  }

  variable(prefix: string): string {
    return `${prefix}${this.#variables++}`;
  }

  /** Statements that `return false` unless `v` (the value at `parent[key]`) passes `schema`. */
  value(schema: SchemaNode, v: string, parent: string, key: string): string {
    knownKeywordsOnly(schema);
    const out: string[] = [];
    const types = schema.type === undefined ? [] : [schema.type].flat().map(String);
    if (types.length > 0) {
      const tests = types.map((type) => {
        const test = TYPE_TESTS[type];
        if (!test) throw new Unsupported(`type ${type}`);
        return test(v);
      });
      out.push(`if (!(${tests.join(' || ')})) return false;`);
    }
    if (schema.enum !== undefined)
      out.push(`if (!${this.constant(new Set(primitives(schema.enum)))}.has(${v})) return false;`);
    if (schema.const !== undefined)
      out.push(`if (${v} !== ${this.constant(primitives([schema.const])[0])}) return false;`);
    const strings = this.stringKeywords(schema, v);
    if (strings) out.push(`if (typeof ${v} === "string") {${strings}}`);
    const numbers = this.numberKeywords(schema, v);
    if (numbers) out.push(`if (typeof ${v} === "number") {${numbers}}`);
    const digits = schema[DECIMAL_KEYWORD];
    if (digits !== undefined) {
      out.push(
        `if ((typeof ${v} === "string" || typeof ${v} === "number") && !decimal(${v}, ${this.constant(digits)}, ${parent}, ${key}, s)) return false;`,
      );
    }
    const arrays = this.arrayKeywords(schema, v);
    if (arrays) out.push(`if (Array.isArray(${v})) {${arrays}}`);
    if (hasObjectKeywords(schema)) {
      out.push(`if (${TYPE_TESTS.object(v)} && !${this.objectFunction(schema)}(${v}, s)) return false;`);
    }
    return out.join('\n');
  }

  stringKeywords(schema: SchemaNode, v: string): string {
    const out: string[] = [];
    if (typeof schema.maxLength === 'number')
      // A string's code points never outnumber its UTF-16 units: count them only when the units do.
      out.push(
        `if (${v}.length > ${schema.maxLength} && codePoints(${v}) > ${schema.maxLength}) return false;`,
      );
    if (typeof schema.minLength === 'number' && schema.minLength > 0)
      out.push(
        schema.minLength === 1
          ? `if (${v}.length === 0) return false;`
          : `if (codePoints(${v}) < ${schema.minLength}) return false;`,
      );
    if (typeof schema.pattern === 'string')
      out.push(`if (!${this.constant(new RegExp(schema.pattern, 'u'))}.test(${v})) return false;`);
    if (typeof schema.format === 'string') {
      const check = this.formats.checks[schema.format];
      if (!check) throw new Unsupported(`format ${schema.format}`);
      out.push(`if (${this.constant(check)}(${v}) !== null) return false;`);
    }
    return out.join('\n');
  }

  numberKeywords(schema: SchemaNode, v: string): string {
    const out: string[] = [];
    if (typeof schema.minimum === 'number') out.push(`if (${v} < ${schema.minimum}) return false;`);
    if (typeof schema.maximum === 'number') out.push(`if (${v} > ${schema.maximum}) return false;`);
    if (typeof schema.exclusiveMinimum === 'number')
      out.push(`if (${v} <= ${schema.exclusiveMinimum}) return false;`);
    if (typeof schema.exclusiveMaximum === 'number')
      out.push(`if (${v} >= ${schema.exclusiveMaximum}) return false;`);
    return out.join('\n');
  }

  arrayKeywords(schema: SchemaNode, v: string): string {
    const out: string[] = [];
    if (typeof schema.minItems === 'number') out.push(`if (${v}.length < ${schema.minItems}) return false;`);
    if (typeof schema.maxItems === 'number') out.push(`if (${v}.length > ${schema.maxItems}) return false;`);
    const items = schema.items;
    if (items !== undefined) {
      if (!isNode(items)) throw new Unsupported('items as a list');
      const i = this.variable('i');
      const item = this.variable('v');
      const tracked = holdsDecimals(items);
      const body = this.value(items, item, v, i);
      if (body !== '') {
        out.push(
          `for (let ${i} = 0; ${i} < ${v}.length; ${i}++) {
            const ${item} = ${v}[${i}];
            ${tracked ? `s.path.push(${i});` : ''}
            ${body}
            ${tracked ? 's.path.pop();' : ''}
          }`,
        );
      }
    }
    return out.join('\n');
  }

  /** A function checking an object against `schema` (its properties, or a tagged union's variant). */
  objectFunction(schema: SchemaNode): string {
    const name = `o${this.functions.length}`;
    this.functions.push(''); // reserve the name; nested objects are generated first
    const out: string[] = [];
    const discriminator = schema.discriminator;
    if (isNode(discriminator)) {
      out.push(this.taggedUnion(schema, discriminator));
    } else {
      if (schema.oneOf !== undefined) throw new Unsupported('oneOf without a discriminator');
      out.push(this.properties(schema));
      out.push('return true;');
    }
    this.functions[Number(name.slice(1))] = `function ${name}(d, s) {\n${out.join('\n')}\n}`;
    return name;
  }

  properties(schema: SchemaNode): string {
    const out: string[] = [];
    const properties = (schema.properties ?? {}) as Record<string, SchemaNode>;
    for (const name of (schema.required ?? []) as string[])
      out.push(`if (d[${JSON.stringify(name)}] === undefined) return false;`);
    const closed = schema.additionalProperties === false;
    if (!closed && schema.additionalProperties !== undefined && schema.additionalProperties !== true)
      throw new Unsupported('additionalProperties as a schema');
    // A closed object has no keys beyond the known ones present: counted, not looked up one by one.
    if (closed) out.push('let known = 0;');
    for (const [name, property] of Object.entries(properties)) {
      // An inherited member would read as present without being a key of the value.
      if (name in Object.prototype) throw new Unsupported(`a property named ${name}`);
      const v = this.variable('p');
      const key = JSON.stringify(name);
      const tracked = holdsDecimals(property);
      const body = this.value(property, v, 'd', key);
      if (body === '' && !closed) continue;
      out.push(
        `{ const ${v} = d[${key}];
          if (${v} !== undefined) {
            ${closed ? 'known++;' : ''}
            ${tracked ? `s.path.push(${key});` : ''}
            ${body}
            ${tracked ? 's.path.pop();' : ''}
          }
        }`,
      );
    }
    if (closed) out.push('let keys = 0;\nfor (const key in d) keys++;\nif (keys !== known) return false;');
    return out.join('\n');
  }

  /** Ajv's `discriminator`: the tag must be a string naming a variant; only that variant applies. */
  taggedUnion(schema: SchemaNode, discriminator: SchemaNode): string {
    if (discriminator.mapping !== undefined) throw new Unsupported('discriminator mapping');
    const tag = String(discriminator.propertyName);
    const variants = schema.oneOf;
    if (!Array.isArray(variants)) throw new Unsupported('discriminator without oneOf');
    const cases: string[] = [];
    for (const variant of variants as SchemaNode[]) {
      const tagSchema = (variant.properties as Record<string, SchemaNode> | undefined)?.[tag];
      const values = tagSchema?.const !== undefined ? [tagSchema.const] : tagSchema?.enum;
      if (!Array.isArray(values) || !((variant.required ?? []) as string[]).includes(tag))
        throw new Unsupported('discriminator variant without a required tag');
      knownKeywordsOnly(variant);
      if (variant.type !== 'object' || isNode(variant.discriminator))
        throw new Unsupported('a variant not a plain object');
      const check = this.objectFunction(variant);
      for (const value of values) cases.push(`case ${JSON.stringify(String(value))}: return ${check}(d, s);`);
    }
    return `const tag = d[${JSON.stringify(tag)}];
      if (typeof tag !== "string") return false;
      switch (tag) {
        ${cases.join('\n')}
        default: return false;
      }`;
  }
}

const KNOWN_KEYWORDS = new Set([
  'type',
  'enum',
  'const',
  'minLength',
  'maxLength',
  'pattern',
  'format',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'minItems',
  'maxItems',
  'items',
  'properties',
  'required',
  'additionalProperties',
  'discriminator',
  'oneOf',
  DECIMAL_KEYWORD,
]);

function knownKeywordsOnly(schema: SchemaNode): void {
  for (const keyword of Object.keys(schema)) {
    if (!KNOWN_KEYWORDS.has(keyword) && !ANNOTATIONS.has(keyword)) throw new Unsupported(keyword);
  }
}

function isNode(value: unknown): value is SchemaNode {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function hasObjectKeywords(schema: SchemaNode): boolean {
  return (
    schema.properties !== undefined ||
    schema.required !== undefined ||
    schema.additionalProperties === false ||
    schema.discriminator !== undefined ||
    schema.oneOf !== undefined
  );
}

/** Enum and const values: strings, numbers, booleans and null only (compared with `===`, as Ajv does them). */
function primitives(values: unknown): unknown[] {
  if (!Array.isArray(values)) throw new Unsupported('enum not a list');
  for (const value of values) {
    if (typeof value === 'object' && value !== null) throw new Unsupported('enum of objects');
    if (typeof value === 'number' && Number.isNaN(value)) throw new Unsupported('enum with NaN');
  }
  return values;
}

const decimalHolders = new WeakMap<object, boolean>();

/** Whether a decimal field lies in `schema` (the path is kept only there). */
function holdsDecimals(schema: unknown): boolean {
  if (typeof schema !== 'object' || schema === null) return false;
  const known = decimalHolders.get(schema);
  if (known !== undefined) return known;
  const holds = Array.isArray(schema)
    ? schema.some(holdsDecimals)
    : DECIMAL_KEYWORD in schema || Object.values(schema).some(holdsDecimals);
  decimalHolders.set(schema, holds);
  return holds;
}

/** Generates the pass for `schema`; throws when the schema uses a keyword the generator does not know. */
export function compileStructurePass(schema: object, formats: FieldFormats): StructurePass {
  const generator = new Generator(formats);
  const body = generator.value(schema as SchemaNode, 'root', 'undefined', 'undefined');
  const source = `${generator.functions.join('\n')}
    function passes(root, s) {\n${body}\nreturn true;\n}
    return function structurePass(root) {
      const s = { path: [], decimals: [] };
      return passes(root, s) ? s.decimals : null;
    };`;
  const build = new Function('k', 'decimal', 'codePoints', 'isNaN', source) as (
    ...args: unknown[]
  ) => StructurePass;
  return build(generator.constants, decimalPasses, codePoints, Number.isNaN);
}
