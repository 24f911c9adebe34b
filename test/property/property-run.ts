/**
 * Shared pieces of the "accepted ⇒ stored exactly" properties: run counts (PROPERTY_RUNS,
 * PROPERTY_SEED), the hostile values they mix in, a refusal check built on the fuzzer's oracles,
 * and the creation of an account through the API and the worker.
 */
import fc from 'fast-check';
import type { EndpointSpec, FuzzRequest } from '../fuzz/fuzz-endpoints.ts';
import { checkAnswer, snapshot } from '../fuzz/fuzz-oracles.ts';
import {
  BOUNDARY_DATES,
  BOUNDARY_DATETIMES,
  boundaryNumber,
  type Json,
  type Mutation,
  oddString,
} from '../fuzz/fuzz-values.ts';
import type { TestApp } from '../helpers/test-app.ts';
import { runWorkerUntilIdle } from '../helpers/worker-run.ts';

export const RUNS = Number(process.env.PROPERTY_RUNS ?? 30);
export const SEED = Number(process.env.PROPERTY_SEED ?? 424_242);
// verbose: the failing case's own error (which value, which assertion) is printed with the counterexample.
export const fcOptions = { seed: SEED, numRuns: RUNS, verbose: 1 as const };

/** Values a careless or hostile client puts where a valid one was: blanks, NUL, boundaries, wrong types. */
export const hostileLeaf: fc.Arbitrary<Json> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom('', ' ', '\t', '\u0000', 'x\u0000', '\ud800', 'null') },
  { weight: 3, arbitrary: fc.constantFrom(...BOUNDARY_DATES, ...BOUNDARY_DATETIMES) },
  { weight: 3, arbitrary: boundaryNumber },
  { weight: 2, arbitrary: oddString },
  { weight: 2, arbitrary: fc.constantFrom(null, true, 0, -1, [], {}) },
);

/** One to three hostile edits of a valid body: a leaf replaced, blanked, or a field removed. */
export const hostileEdits: fc.Arbitrary<Mutation[]> = fc.array(
  fc.oneof(
    {
      weight: 5,
      arbitrary: fc.record({ op: fc.constant('replace' as const), at: fc.nat(), value: hostileLeaf }),
    },
    { weight: 2, arbitrary: fc.record({ op: fc.constant('blank' as const), at: fc.nat() }) },
    { weight: 1, arbitrary: fc.record({ op: fc.constant('delete' as const), at: fc.nat() }) },
  ),
  { minLength: 1, maxLength: 3 },
);

/** A minimal endpoint description for the fuzzer's answer oracles. */
export function oracleSpec(
  name: string,
  method: 'POST',
  path: string,
  attrRoots?: EndpointSpec['attrRoots'],
): EndpointSpec {
  return {
    name,
    route: { method, path },
    auth: 'token',
    generic: false,
    request: fc.constant({ method, url: path, params: {}, query: {} }),
    attrRoots: attrRoots ?? ((b) => [b]),
  };
}

/**
 * Sends a body; when it is refused, the answer must be a 4xx in our format with real attrs and
 * nothing may have been stored. Returns the answer and the violations of a refusal.
 */
export async function sendChecked(
  t: TestApp,
  headers: Record<string, string>,
  spec: EndpointSpec,
  body: string,
): Promise<{ status: number; json: Json; problems: string[] }> {
  const before = await snapshot(t.db);
  const res = await t.app.inject({
    method: 'POST',
    url: spec.route.path,
    headers: { ...headers, 'content-type': 'application/json' },
    payload: body,
  });
  const req: FuzzRequest = {
    method: 'POST',
    url: spec.route.path,
    params: {},
    query: {},
    body,
    contentType: 'application/json',
  };
  const problems: string[] = [];
  if (res.statusCode >= 400) {
    problems.push(
      ...checkAnswer(spec, req, { status: res.statusCode, body: res.body }).map(
        (v) => `${v.kind}: ${v.message}`,
      ),
    );
    const after = await snapshot(t.db);
    if (after !== before)
      problems.push(`refused with ${res.statusCode} but stored something (${before} → ${after})`);
  }
  let json: Json;
  try {
    json = JSON.parse(res.body);
  } catch {
    json = undefined;
  }
  return { status: res.statusCode, json, problems };
}

/** Creation errors about the data's relation to stored data (docs/product.md): allowed after a 201. */
const RELATIONAL_ERRORS = new Set(['meter_point_on_another_account', 'reference_already_exists']);

/**
 * Schedules an accepted account, runs the worker, and returns its final state: PROCESSED, or
 * the reason it may not be compared (an allowed relational error), or a problem.
 */
export async function createThroughWorker(
  t: TestApp,
  headers: Record<string, string>,
  body: string,
  supplier: string,
  external: string,
): Promise<{ created: boolean; problems: string[] }> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/v2/data-import/accounts/',
    headers: { ...headers, 'content-type': 'application/json' },
    payload: body,
  });
  // A hostile edit may have turned the external number into one an earlier run imported.
  if (
    res.statusCode === 400 &&
    res.json().non_field_errors?.code === 'account_import_process_already_imported'
  ) {
    return { created: false, problems: [] };
  }
  if (res.statusCode !== 201) {
    return {
      created: false,
      problems: [`validate answered 200 but create answered ${res.statusCode}: ${res.body.slice(0, 500)}`],
    };
  }
  await runWorkerUntilIdle(t.config, t.db);
  const status = await t.app.inject({
    method: 'GET',
    url: `/v2/data-import/accounts/${encodeURIComponent(supplier)}/${encodeURIComponent(external)}/`,
    headers,
  });
  const s = status.json();
  if (s.status === 'PROCESSED') return { created: true, problems: [] };
  if (s.status === 'ERRORED' && RELATIONAL_ERRORS.has(s.latest_error?.code))
    return { created: false, problems: [] };
  return {
    created: false,
    problems: [`create answered 201, then the process ended ${s.status}: ${JSON.stringify(s.latest_error)}`],
  };
}
