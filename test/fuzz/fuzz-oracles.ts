/**
 * What every answer to a fuzzed request must satisfy (docs/product.md, Targets): never a 5xx; every
 * error body in our format; every `attr` names a path of the input or a missing field of an
 * object that is there; a refused write stores nothing; nothing pollutes Object.prototype; a body
 * that is not JSON is a 415; no request holds the event loop for seconds (SLOW_MS).
 */
import { type Db, sql } from '../../src/infra/db/db.ts';
import type { EndpointSpec, FuzzRequest } from './fuzz-endpoints.ts';
import type { Json } from './fuzz-values.ts';

export type ViolationKind =
  | '5xx'
  | 'format'
  | 'attr'
  | 'side-effect'
  | 'pollution'
  | 'content-type'
  | 'slow'
  | 'errored';

export interface Violation {
  kind: ViolationKind;
  /** Groups violations of one cause: kind, status, code (and the logged cause of a 500). */
  signature: string;
  message: string;
}

export interface Answer {
  status: number;
  body: string;
  /** How long the app took to answer. */
  ms?: number;
  /** What the app logged as the cause, for an unexpected error. */
  cause?: string;
}

/** An answer slower than this blocks every other client of the process: a denial of service. */
export const SLOW_MS = Number(process.env.FUZZ_SLOW_MS ?? 10_000);

const isObject = (v: unknown): v is Record<string, Json> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

/** Why `json` is not `{detail: string, code: string, errors?: [{detail, code, attr}]}`, or null. */
export function errorFormatProblem(json: unknown): string | null {
  if (!isObject(json)) return 'the body is not a JSON object';
  if (typeof json.detail !== 'string') return '`detail` is not a string';
  if (typeof json.code !== 'string' || json.code === '') return '`code` is not a non-empty string';
  if (json.errors === undefined) return null;
  if (!Array.isArray(json.errors)) return '`errors` is not an array';
  for (const [i, e] of json.errors.entries()) {
    if (!isObject(e)) return `errors.${i} is not an object`;
    for (const k of ['detail', 'code', 'attr'])
      if (typeof e[k] !== 'string') return `errors.${i}.${k} is not a string`;
  }
  return null;
}

/**
 * True when `attr` (dot-delimited, numeric parts index arrays; keys may themselves contain dots)
 * names a node of `root`, or a field missing from an object node that is there. `""` is the root.
 */
export function attrResolves(root: unknown, attr: string): boolean {
  const walk = (node: unknown, rest: string): boolean => {
    if (rest === '') return true;
    if (Array.isArray(node)) {
      const m = /^(\d+)(?:\.(.*))?$/s.exec(rest);
      if (!m || Number(m[1]) >= node.length || String(Number(m[1])) !== m[1]) return false;
      return m[2] === undefined ? true : walk(node[Number(m[1])], m[2]);
    }
    if (!isObject(node)) return false;
    if (Object.hasOwn(node, rest)) return true;
    for (let dot = rest.indexOf('.'); dot !== -1; dot = rest.indexOf('.', dot + 1)) {
      const key = rest.slice(0, dot);
      if (Object.hasOwn(node, key) && walk(node[key], rest.slice(dot + 1))) return true;
    }
    // A field the object lacks (required, or the object-level `non_field_errors`).
    return !rest.includes('.');
  };
  return walk(root, attr);
}

const STACK_OR_SQL =
  /\n\s+at .+:\d+:\d+|node_modules\/|\.ts:\d+|syntax error at or near|violates .* constraint|relation "\w+"/;

const short = (s: string, n = 300) => (s.length > n ? `${s.slice(0, n)}…(${s.length} chars)` : s);

/** Normalises a logged cause into a class: numbers, quoted values and long tails removed. */
export function causeClass(cause: string): string {
  return cause
    .replace(/"[^"]*"|'[^']*'/g, '"…"')
    .replace(/\b0x[0-9a-f]+\b/gi, 'N')
    .replace(/\d+/g, 'N')
    .slice(0, 90);
}

/** The violations of one answer, without the database checks (see sideEffects). */
export function checkAnswer(spec: EndpointSpec, req: FuzzRequest, answer: Answer): Violation[] {
  const out = checkOneAnswer(spec, req, answer);
  if (answer.status === 200 && spec.lineResults) {
    let json: Json;
    try {
      json = JSON.parse(answer.body);
    } catch {
      return out;
    }
    const lines = spec.lineResults(json, req);
    if (lines === null) {
      out.push({
        kind: 'format',
        signature: 'format 200 lines',
        message: `no results: ${short(answer.body)}`,
      });
      return out;
    }
    // Each result is held to the oracles of the answer its body alone would get (as JSON).
    for (const line of lines) {
      const alone: FuzzRequest = { ...req, contentType: 'application/json' };
      const body = JSON.stringify(line.body);
      for (const v of checkOneAnswer(spec, alone, { status: line.status, body }, { value: line.input }))
        out.push({ ...v, signature: `line ${v.signature}`, message: `a line: ${v.message}` });
    }
  }
  return out;
}

/** `sent`: the body as parsed already (a line of a bulk request); else read from `req`. */
function checkOneAnswer(
  spec: EndpointSpec,
  req: FuzzRequest,
  answer: Answer,
  sent?: { value: unknown },
): Violation[] {
  const out: Violation[] = [];
  const { status } = answer;
  let json: Json;
  let parsed = true;
  try {
    json = JSON.parse(answer.body);
  } catch {
    parsed = false;
  }
  const code = parsed && isObject(json) && typeof json.code === 'string' ? json.code : '-';
  let input: unknown = sent?.value;
  let inputParsed = sent !== undefined && sent.value !== undefined;
  if (req.body !== undefined && sent === undefined) {
    try {
      input = JSON.parse(req.body);
      inputParsed = true;
    } catch {
      // not JSON: no attr can name a path in it
    }
  }
  if (status >= 500 && !(parsed && spec.documented5xx?.(json, input))) {
    const cause = answer.cause ? ` (${causeClass(answer.cause)})` : '';
    out.push({
      kind: '5xx',
      signature: `5xx ${status} ${code}${cause}`,
      message: `answered ${status}: ${short(answer.body)}${answer.cause ? `\n  logged cause: ${short(answer.cause, 500)}` : ''}`,
    });
  }
  if (status >= 400) {
    const problem = !parsed
      ? 'the body is not JSON'
      : spec.altErrorBody?.(json)
        ? null
        : errorFormatProblem(json);
    if (problem) {
      out.push({
        kind: 'format',
        signature: `format ${status} ${code} ${problem}`,
        message: `error body not in our format (${problem}): ${short(answer.body)}`,
      });
    } else if (STACK_OR_SQL.test(answer.body)) {
      out.push({
        kind: 'format',
        signature: `format ${status} ${code} internals`,
        message: `error body shows a stack trace or SQL: ${short(answer.body)}`,
      });
    }
    if (parsed && isObject(json) && Array.isArray(json.errors)) {
      const roots = spec.attrRoots(inputParsed ? input : undefined, req);
      for (const e of json.errors) {
        if (!isObject(e) || typeof e.attr !== 'string') continue;
        if (!roots.some((r) => attrResolves(r, e.attr))) {
          out.push({
            kind: 'attr',
            signature: `attr ${status} ${code} ${String(e.code)}`,
            message: `attr "${short(e.attr, 120)}" (${String(e.code)}) names no path of the input`,
          });
        }
      }
    }
  }
  // A body that is not JSON is refused before anything reads it; a URL that cannot be decoded
  // (400 invalid_url) is refused before its body is looked at.
  const contentType = req.contentType?.split(';')[0].trim().toLowerCase();
  const readBody = status < 300 || (status === 400 && code !== 'invalid_url');
  const taken = contentType === 'application/json' || spec.contentTypes?.includes(contentType ?? '');
  if (req.body !== undefined && contentType && !taken && readBody) {
    out.push({
      kind: 'content-type',
      signature: `content-type ${status} ${code}`,
      message: `a ${contentType} body answered ${status}, not 415: ${short(answer.body)}`,
    });
  }
  if (answer.ms !== undefined && answer.ms > SLOW_MS) {
    out.push({
      kind: 'slow',
      signature: `slow ${status} ${code}`,
      message: `took ${answer.ms} ms to answer ${status} (limit ${SLOW_MS} ms) for a ${req.body?.length ?? 0}-byte body`,
    });
  }
  const proto = Object.prototype as Record<string, unknown>;
  if ('polluted' in proto) {
    delete proto.polluted;
    out.push({ kind: 'pollution', signature: 'pollution', message: 'Object.prototype.polluted was set' });
  }
  return out;
}

// Everything a request could have stored, in one row: counts and latest changes.
const snapshotQuery = sql(
  'fuzzSnapshot',
  `SELECT concat_ws('|',
     (SELECT count(*) FROM import_processes),
     (SELECT max(modified_at)::text FROM import_processes),
     (SELECT count(*) FROM import_process_events),
     (SELECT count(*) FROM import_suppliers),
     (SELECT max(modified_at)::text FROM import_suppliers),
     (SELECT count(*) FROM api_keys),
     (SELECT count(*) FROM api_keys WHERE revoked_at IS NOT NULL),
     (SELECT count(*) FROM accounts),
     (SELECT sum(balance)::text FROM accounts),
     (SELECT count(*) FROM notes),
     (SELECT count(*) FROM transactions),
     (SELECT count(*) FROM statements),
     (SELECT count(*) FROM payment_instructions)) AS s`,
);

const SNAPSHOT_PARTS = [
  'import_processes',
  'import_processes.modified_at',
  'import_process_events',
  'import_suppliers',
  'import_suppliers.modified_at',
  'api_keys',
  'api_keys revoked',
  'accounts',
  'accounts balance',
  'notes',
  'transactions',
  'statements',
  'payment_instructions',
];

export async function snapshot(db: Db): Promise<string> {
  return (await db.query<{ s: string }>(snapshotQuery)).rows[0].s;
}

/** A refused write must leave everything as it was. */
export function sideEffects(before: string, after: string, status: number): Violation[] {
  if (before === after) return [];
  const a = before.split('|');
  const b = after.split('|');
  const changed = SNAPSHOT_PARTS.filter((_, i) => a[i] !== b[i]);
  return [
    {
      kind: 'side-effect',
      signature: `side-effect ${status} ${changed.join(',')}`,
      message: `answered ${status} but changed ${changed.map((c) => `${c} (${a[SNAPSHOT_PARTS.indexOf(c)]} → ${b[SNAPSHOT_PARTS.indexOf(c)]})`).join(', ')}`,
    },
  ];
}
