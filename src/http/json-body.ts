/**
 * JSON bodies, parsed once for every route, with the limits no schema can state: strings never
 * hold NUL (PostgreSQL text and jsonb cannot store it) or unpaired surrogates, and nesting stops
 * at 64 levels (deeper values overflow the stack of whatever walks them later). These are refused
 * here, before any validator or database sees the body, as a validation error with the attr of
 * the value. Numbers a double cannot keep (exact-numbers.ts) are kept as sent for routes whose
 * own validator reads decimals (`checkedInService`), which refuses any its decimal fields do not
 * take; every other route refuses them here. Query strings get the NUL rule, and their boolean
 * flags are read as booleans.
 */
import { type TSchema, type TUnsafe, Type } from '@sinclair/typebox';
import type { FastifyContextConfig, FastifyInstance, FastifyRequest } from 'fastify';
import { payloadTooLarge, unsupportedMediaType, validationFailed } from '../errors/error-catalogue.ts';
import { type ErrorItem, item } from '../errors/error-items.ts';
import {
  IMPRECISE_NUMBER_DETAIL,
  leftoverNumbers,
  parseKeepingNumbers,
  takeExactText,
} from '../vocabulary/exact-numbers.ts';
import { MAX_LIST_ITEMS, MAX_NESTING_DEPTH } from '../vocabulary/field-types.ts';
import { scanJsonText } from '../vocabulary/json-text.ts';
import { fromFastifyError } from './error-handler.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The body may wrap the account payload as `{payload, …}`: attrs are then relative to it. */
    accountEnvelope?: boolean;
    /** The route's own validator reads decimals from the body and refuses numbers it does not take. */
    exactNumbers?: boolean;
    /**
     * The body is a list of bodies, each read as if it were a request's whole body (limits,
     * attrs, refusals): NDJSON lines, or the elements of a JSON array. The handler gets `BodyLines`.
     */
    bodyLines?: boolean;
    /** Each body's JSON text is kept beside its value (`bodyTextOf`), for a thread to read its own copy. */
    keepsBodyText?: boolean;
    /** A POST that writes nothing (validation): no notice that events were written follows it. */
    writesNothing?: boolean;
    /**
     * The body reaches the handler unread, as a `DeferredBody`: its text goes to a check thread,
     * which reads it there. One body a request (not with `bodyLines`). The query's refusals and
     * the key's supplier scope then wait for the body too: the route must apply them once it is
     * read (`readQuery`, `refuseRequestOutsideScope`), as validate-account.ts does.
     */
    bodyReadLater?: boolean;
  }
}

/** The largest request body (docs/product.md, Limits); a route taking several bodies allows more in all. */
export const BODY_LIMIT_BYTES = 5 * 1024 * 1024;

/**
 * One body of a `bodyLines` request: its value, or how it was refused (the answer it alone gets)
 * with its value when it could be parsed.
 */
export type BodyLine = { ok: true; value: unknown } | { ok: false; error: Error; value?: unknown };

/** The JSON text each body object of a `keepsBodyText` route was read from (a whole body or an NDJSON line). */
const bodyTexts = new WeakMap<object, string>();

/**
 * The JSON text `value` was read from, when it is the body (or an NDJSON line's body) of a
 * `keepsBodyText` route; undefined for anything else, such as the elements of a JSON array.
 */
export function bodyTextOf(value: unknown): string | undefined {
  return typeof value === 'object' && value !== null ? bodyTexts.get(value) : undefined;
}

/**
 * The body of a `bodyReadLater` route: its JSON text, unread. `read` reads it on the event loop as
 * every other body is read here (the same refusals, the same value), for a text the thread left
 * to it (vocabulary/plain-json.ts).
 */
export class DeferredBody {
  constructor(
    readonly text: string,
    readonly read: () => BodyLine,
  ) {}
}

/** The body of a `bodyLines` route sent as NDJSON or a JSON array: one entry per body, in order. */
export class BodyLines {
  constructor(readonly lines: BodyLine[]) {}
}

/**
 * Route options for a body checked by the service with the account payload's validator (its
 * codes, attrs and exact decimals): Fastify's validator is off for the route (body, query and
 * params; the schemas stay for the docs), and numbers a double cannot keep reach that validator.
 */
export function checkedInService(config: FastifyContextConfig = {}) {
  return { validatorCompiler: () => () => true, config: { ...config, exactNumbers: true } };
}

/**
 * A request part's schema on a `checkedInService` route: the same JSON Schema for the docs, but
 * the handler receives the part as `unknown`, since nothing has validated it yet.
 */
export const documentedOnly = (schema: TSchema): TUnsafe<unknown> => Type.Unsafe<unknown>(schema);

/**
 * What no value of any route may hold, refused before routing to a validator: a validation
 * failure like any other (Fastify's own schema errors are answered with the same code).
 */
const refused = (problems: ErrorItem[]) =>
  validationFailed('validation_error', problems, 'The request body is not valid.');

const NUL_DETAIL = 'Null characters are not allowed.';
const DEPTH_DETAIL = `Values may nest at most ${MAX_NESTING_DEPTH} levels deep.`;
const UNICODE_DETAIL =
  'Strings must be valid Unicode: this one holds an unpaired surrogate (\\ud800–\\udfff).';
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** A JSON object (not null, not an array): what a body, query string or params object is read as. */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Where `value` holds what no column keeps as sent: strings (keys too) with NUL or an unpaired
 * surrogate, containers nested too deep.
 */
export function bodyProblems(value: unknown): ErrorItem[] {
  const problems: ErrorItem[] = [];
  // Attrs join every key with dots, empty keys included, as pointerToAttr does for Ajv's paths.
  const visit = (node: unknown, path: string[]) => {
    const attr = path.join('.');
    if (typeof node === 'string') {
      if (node.includes('\u0000')) problems.push(item(attr, 'null_characters_not_allowed', NUL_DETAIL));
      else if (LONE_SURROGATE.test(node)) problems.push(item(attr, 'invalid_unicode', UNICODE_DETAIL));
      return;
    }
    if (typeof node !== 'object' || node === null) return;
    if (path.length >= MAX_NESTING_DEPTH) {
      problems.push(item(attr, 'max_depth', DEPTH_DETAIL));
      return;
    }
    for (const [key, child] of Object.entries(node)) {
      if (key.includes('\u0000'))
        problems.push(item([...path, key].join('.'), 'null_characters_not_allowed', NUL_DETAIL));
      else visit(child, [...path, key]);
    }
  };
  visit(value, []);
  return problems;
}

/** `too_many_items` at the list whose items take the body past MAX_LIST_ITEMS, or nothing. */
export function tooManyListItems(value: unknown): ErrorItem[] {
  let seen = 0;
  const visit = (node: unknown, path: string[]): string[] | null => {
    if (typeof node !== 'object' || node === null) return null;
    if (Array.isArray(node)) {
      seen += node.length;
      if (seen > MAX_LIST_ITEMS) return path;
    }
    for (const [key, child] of Object.entries(node)) {
      const found = visit(child, [...path, key]);
      if (found) return found;
    }
    return null;
  };
  const path = visit(value, []);
  if (path === null) return [];
  const detail = `A body holds at most ${MAX_LIST_ITEMS.toLocaleString('en')} list items in all.`;
  return [item(path.join('.'), 'too_many_items', detail)];
}

/** `imprecise_number` for every number a double cannot keep that no decimal field took. */
export function impreciseNumbers(value: unknown, attrPrefix: string[] = []): ErrorItem[] {
  return leftoverNumbers(value).map(({ path }) =>
    item([...attrPrefix, ...path].join('.'), 'imprecise_number', IMPRECISE_NUMBER_DETAIL),
  );
}

function relativeToPayload(problems: ErrorItem[], body: unknown, request: FastifyRequest): ErrorItem[] {
  const wrapped =
    request.routeOptions.config?.accountEnvelope === true &&
    typeof body === 'object' &&
    body !== null &&
    Object.hasOwn(body, 'payload');
  if (!wrapped) return problems;
  return problems.map((p) =>
    p.attr === 'payload' || p.attr.startsWith('payload.')
      ? { ...p, attr: p.attr.slice('payload.'.length) }
      : p,
  );
}

/** Refusals of a parsed value that no schema can state (NUL, surrogates, depth, imprecise numbers). */
function checkParsed(request: FastifyRequest, body: unknown, suspect: boolean, large: boolean): BodyLine {
  const problems = suspect ? bodyProblems(body) : [];
  if (problems.length === 0 && large) problems.push(...tooManyListItems(body));
  if (problems.length === 0 && request.routeOptions.config?.exactNumbers !== true)
    problems.push(...impreciseNumbers(body));
  if (problems.length === 0) return { ok: true, value: body };
  return { ok: false, error: refused(relativeToPayload(problems, body, request)), value: body };
}

type JsonParser = ReturnType<FastifyInstance['getDefaultJsonParser']>;

/**
 * JSON text read as one body: parsed (Fastify's parser, which refuses prototype poisoning), its
 * numbers kept, then checked. A body that is a list of bodies is checked element by element.
 */
function readJson(parseJson: JsonParser, request: FastifyRequest, text: string, list: boolean): BodyLine {
  // Fastify's default JSON parser answers synchronously.
  const parsed = ((): BodyLine => {
    let read: BodyLine | undefined;
    parseJson(request, text, (error, value) => {
      read = error ? { ok: false, error } : { ok: true, value };
    });
    if (!read) throw new Error('the JSON parser did not answer synchronously');
    return read;
  })();
  if (!parsed.ok) return parsed;
  // One pass over the raw text first: most bodies hold no NUL escape, no long number and are shallow.
  const scan = scanJsonText(text);
  const kept = parseKeepingNumbers(text, parsed.value, scan.longNumbers);
  if ('rootNumber' in kept) return { ok: false, error: refused([rootNumber]) };
  const suspect = scan.suspectEscapes || scan.depth > MAX_NESTING_DEPTH;
  // A body of fewer characters cannot hold that many list items: most pay nothing.
  const large = text.length > 2 * MAX_LIST_ITEMS;
  const body = kept.value;
  if (list && Array.isArray(body)) {
    return {
      ok: true,
      value: new BodyLines(
        body.map((element, i) =>
          takeExactText(body, i) !== undefined
            ? { ok: false, error: refused([rootNumber]) }
            : checkParsed(request, element, suspect, large),
        ),
      ),
    };
  }
  const read = checkParsed(request, body, suspect, large);
  if (
    read.ok &&
    request.routeOptions.config?.keepsBodyText === true &&
    typeof body === 'object' &&
    body !== null
  )
    bodyTexts.set(body, text);
  return read;
}

const rootNumber = item('', 'imprecise_number', IMPRECISE_NUMBER_DETAIL);

export function registerJsonBodies(app: FastifyInstance) {
  refuseOtherBodies(app);
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  // Route first, then body: a request no route matches is 404 whatever its body (the handler
  // never reads it), so neither parser judges it.
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, raw, done) => {
    if (request.is404) return done(null, undefined);
    const list = request.routeOptions.config?.bodyLines === true;
    const text = String(raw);
    if (!list && request.routeOptions.config?.bodyReadLater === true)
      return done(null, new DeferredBody(text, () => readJson(parseJson, request, text, false)));
    const read = readJson(parseJson, request, text, list);
    if (read.ok) done(null, read.value);
    else done(read.error, undefined);
  });
  // NDJSON only where a route takes a list of bodies; elsewhere it is a type Ferry does not take.
  // Each non-blank line is read as a whole JSON body is, and refused alone: a bad line is its own
  // 400 (the answer its body would get on its own), never the request's.
  app.addContentTypeParser('application/x-ndjson', { parseAs: 'string' }, (request, raw, done) => {
    if (request.is404) return done(null, undefined);
    if (request.routeOptions.config?.bodyLines !== true) return done(unsupportedMediaType(), undefined);
    const lines = String(raw)
      .split('\n')
      .map((line) => (line.endsWith('\r') ? line.slice(0, -1) : line))
      .filter((line) => line.trim() !== '');
    done(
      null,
      new BodyLines(
        lines.map((line): BodyLine => {
          // Each line is held to the limit of a whole body, as if it had been sent alone.
          if (Buffer.byteLength(line) > BODY_LIMIT_BYTES)
            return { ok: false, error: payloadTooLarge(BODY_LIMIT_BYTES) };
          const read = readJson(parseJson, request, line, false);
          return read.ok ? read : { ...read, error: fromFastifyError(read.error, request) ?? read.error };
        }),
      ),
    );
  });
  app.addHook('preValidation', (request, _reply, done) => {
    // An unread body's route reads the query once the body is read, so that the body's refusals
    // still come first (validate-account.ts).
    if (request.body instanceof DeferredBody) return done();
    try {
      readQuery(request);
      done();
    } catch (err) {
      done(err as Error);
    }
  });
}

/** The query's refusals (NUL, surrogates, depth) and its boolean flags, read after the body. */
export function readQuery(request: FastifyRequest): void {
  const query = request.query;
  if (!isJsonObject(query)) return;
  const problems = bodyProblems(query);
  if (problems.length > 0) throw refused(problems);
  readBooleanFlags(request, query);
}

/**
 * Query parameters a route declares boolean arrive as text: `true` and `false` become booleans
 * before validation, anything else is left for the validator to refuse. (Coercing every part
 * would also coerce bodies, where a string is never a boolean.)
 */
function readBooleanFlags(request: FastifyRequest, query: Record<string, unknown>) {
  const schema = request.routeOptions.schema?.querystring as
    | { properties?: Record<string, { type?: unknown }> }
    | undefined;
  for (const [name, property] of Object.entries(schema?.properties ?? {})) {
    if (property.type !== 'boolean') continue;
    if (query[name] === 'true') query[name] = true;
    else if (query[name] === 'false') query[name] = false;
  }
}

/**
 * JSON is the only request body Ferry takes (docs/product.md, Content type): any other Content-Type
 * is 415 `unsupported_media_type` before any validation. Fastify already answers 415 for types
 * it has no parser for; its built-in text/plain parser is removed (it handed a string to
 * validation, a 400), and a POST to an endpoint that takes a body but sends no Content-Type is
 * refused too. Endpoints without a body (cancel, retry) accept a POST without one.
 */
function refuseOtherBodies(app: FastifyInstance) {
  app.removeContentTypeParser('text/plain');
  app.addHook('preValidation', (request, _reply, done) => {
    const takesBody = request.method === 'POST' || request.method === 'PATCH' || request.method === 'PUT';
    const untyped = takesBody && request.headers['content-type'] === undefined;
    done(untyped && request.routeOptions.schema?.body !== undefined ? unsupportedMediaType() : undefined);
  });
}
