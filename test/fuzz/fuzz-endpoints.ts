/**
 * Which endpoints the fuzzer calls and how. The routes come from the app itself
 * (`printRoutes`), so a new data-import or admin route is fuzzed without being listed here: it
 * gets generic bodies and hostile path parameters. The routes listed here also get bodies built
 * from a valid request, mutated at random paths.
 */
import fc from 'fast-check';
import { faultEncodedIn } from '../../dev/vendor-simulator/vendor-simulator-records.ts';
import { kitchenSinkAccount } from '../accounts/payload/fixtures/kitchen-sink-account.ts';
import { accountFor } from '../helpers/account-fixtures.ts';
import { RawJson, toJsonText } from '../helpers/json-text.ts';
import {
  BOUNDARY_DATETIMES,
  deepValue,
  encodeSegment,
  hostileValue,
  type Json,
  mutated,
  oddKey,
  oddString,
  pathParam,
} from './fuzz-values.ts';
import { ADMIN_SUPPLIER, FUZZ_SUPPLIER, type FuzzWorld, PAUSED_SUPPLIER } from './fuzz-world.ts';

export type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
export type Auth = 'token' | 'operator' | 'none';

/** One generated HTTP request. */
export interface FuzzRequest {
  method: Method;
  /** Path and query, already encoded. */
  url: string;
  /** The path parameters and query as the server should decode them (for attr checks). */
  params: Record<string, string>;
  query: Record<string, string>;
  contentType?: string;
  body?: string;
  remoteAddress?: string;
}

export interface Route {
  method: Method;
  /** Fastify's pattern, e.g. `/v2/data-import/accounts/:import_supplier_code/:external_identifier/`. */
  path: string;
}

export interface EndpointSpec {
  /** Short name for reports and `--endpoint`. */
  name: string;
  route: Route;
  auth: Auth;
  /** True when no specific generator exists: generic bodies and path parameters. */
  generic: boolean;
  request: fc.Arbitrary<FuzzRequest>;
  /** The objects an `attr` may be relative to, given the parsed body. */
  attrRoots(body: unknown, req: FuzzRequest): unknown[];
  /** Error bodies the interface documents besides `{detail, code, errors?}` for this endpoint. */
  altErrorBody?(json: Json): boolean;
  /** A 5xx the interface documents for this request (the simulated vendor failing). */
  documented5xx?(json: Json, body: unknown): boolean;
  /** After the run, the worker creates what was scheduled; ERRORED for a value's form is a violation. */
  settlesThroughWorker?: boolean;
  /** Body types the endpoint takes besides JSON. */
  contentTypes?: string[];
  /**
   * For an endpoint answering one result per body it was sent (bulk): each result's status and
   * body with the body it answers, so each is held to the oracles of a whole answer.
   */
  lineResults?(answer: Json, req: FuzzRequest): { status: number; body: Json; input: unknown }[] | null;
}

/** The data-import and admin routes of the app, from its router (HEAD omitted). */
export function routesOf(printed: string): Route[] {
  const routes: Route[] = [];
  const stack: string[] = [];
  for (const line of printed.split('\n')) {
    const m = /^([│ ]*)[├└]── (.*?)(?: \(([^)]*)\))?$/.exec(line.replace(/\u00a0/g, ' '));
    if (!m) continue;
    const depth = m[1].length / 4;
    stack.length = depth;
    stack.push(m[2]);
    const path = stack.join('');
    for (const method of (m[3] ?? '').split(',').map((s) => s.trim())) {
      if (['GET', 'POST', 'PATCH', 'DELETE'].includes(method) && /^\/(v1|v2|admin)\//.test(path)) {
        routes.push({ method: method as Method, path });
      }
    }
  }
  return routes;
}

const paramNames = (path: string) => [...path.matchAll(/:([A-Za-z_]+)/g)].map((m) => m[1]);

const CONTENT_TYPES = [
  'text/plain',
  'application/x-www-form-urlencoded',
  'application/xml',
  'multipart/form-data; boundary=x',
];

/** The body's JSON text: a value (most of the time), or text that is not JSON at all. */
const bodyText = (value: fc.Arbitrary<Json>): fc.Arbitrary<{ body: string; contentType: string }> =>
  fc.oneof(
    { weight: 30, arbitrary: value.map((v) => ({ body: toJsonText(v), contentType: 'application/json' })) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(value, fc.constantFrom(...CONTENT_TYPES))
        .map(([v, contentType]) => ({ body: toJsonText(v), contentType })),
    },
    {
      weight: 1,
      arbitrary: fc.tuple(value, fc.nat()).map(([v, cut]) => {
        const text = toJsonText(v);
        return { body: text.slice(0, cut % Math.max(1, text.length)), contentType: 'application/json' };
      }),
    },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom(
          '',
          'null',
          '"x"',
          '[]',
          '{',
          '{"a":}',
          '\u0000',
          'undefined',
          '{"a":1}garbage',
          '\ufeff{}',
        )
        .map((body) => ({ body, contentType: 'application/json' })),
    },
    {
      weight: 1,
      arbitrary: value.map((v) => ({ body: toJsonText(v), contentType: 'application/json; charset=utf-16' })),
    },
  );

/** Percent-encoded path segments: mostly UTF-8, sometimes malformed escapes. */
const segment = (valid: readonly string[]): fc.Arbitrary<{ encoded: string; decoded: string }> =>
  fc.oneof(
    { weight: 12, arbitrary: pathParam(valid).map((v) => ({ encoded: encodeSegment(v), decoded: v })) },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom(
          '%',
          '%zz',
          '%C0%AF',
          '%ED%A0%80',
          '%FF',
          '%E2%82',
          '..',
          '.',
          '%2e%2e',
          '%2F',
          '%5C',
          '~',
          '*',
        )
        .map((s) => ({ encoded: s, decoded: safeDecode(s) })),
    },
  );

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

const queryString: fc.Arbitrary<Record<string, string>> = fc.oneof(
  { weight: 6, arbitrary: fc.constant({}) },
  { weight: 1, arbitrary: fc.dictionary(oddKey, oddString, { maxKeys: 2 }) },
);

function encodeQuery(q: Record<string, string>): string {
  const keys = Object.keys(q);
  return keys.length === 0
    ? ''
    : `?${keys.map((k) => `${encodeSegment(k)}=${encodeSegment(q[k])}`).join('&')}`;
}

interface SpecParts {
  name: string;
  auth?: Auth;
  /** Valid values of each path parameter, by name. */
  params?: Record<string, readonly string[]>;
  /** A valid body (or several) to mutate. */
  body?: fc.Arbitrary<Json>;
  /** Extra whole-body generators. */
  extraBodies?: fc.Arbitrary<Json>[];
  query?: fc.Arbitrary<Record<string, string>>;
  attrRoots?: EndpointSpec['attrRoots'];
  altErrorBody?: EndpointSpec['altErrorBody'];
  documented5xx?: EndpointSpec['documented5xx'];
  settlesThroughWorker?: boolean;
  remoteAddress?: boolean;
  /** Bodies sent as NDJSON, one generated value a line (some lines broken). */
  ndjson?: fc.Arbitrary<Json[]>;
  lineResults?: EndpointSpec['lineResults'];
}

const genericBody: fc.Arbitrary<Json> = fc.oneof(
  hostileValue,
  fc.jsonValue({ maxDepth: 3 }),
  fc.dictionary(oddKey, hostileValue, { maxKeys: 4 }),
);

function buildSpec(route: Route, parts: SpecParts, generic: boolean): EndpointSpec {
  const names = paramNames(route.path);
  const segments = fc.tuple(...names.map((n) => segment(parts.params?.[n] ?? ['x'])));
  const hasBody = route.method === 'POST' || route.method === 'PATCH';
  const bodies: fc.Arbitrary<Json>[] = [];
  if (parts.body)
    bodies.push(
      parts.body.chain((b) => mutated(b)),
      parts.body.chain((b) => mutated(b)),
      parts.body,
    );
  bodies.push(...(parts.extraBodies ?? []), genericBody);
  const jsonBody = bodyText(fc.oneof(...bodies));
  const body = !hasBody
    ? fc.constant(undefined)
    : parts.ndjson
      ? fc.oneof(jsonBody, ndjsonText(parts.ndjson))
      : jsonBody;
  const address = parts.remoteAddress
    ? fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255)).map(([a, b, c]) => `10.${a}.${b}.${c}`)
    : fc.constant(undefined);
  const request = fc
    .tuple(segments, parts.query ?? queryString, body, address)
    .map(([segs, query, b, remoteAddress]): FuzzRequest => {
      let i = 0;
      const params: Record<string, string> = {};
      const path = route.path.replace(/:([A-Za-z_]+)/g, (_m, name: string) => {
        const s = segs[i++];
        params[name] = s.decoded;
        return s.encoded;
      });
      return {
        method: route.method,
        url: `${path}${encodeQuery(query)}`,
        params,
        query,
        ...(b ? { body: b.body, contentType: b.contentType } : {}),
        ...(remoteAddress ? { remoteAddress } : {}),
      };
    });
  const auth = parts.auth ?? (route.path.startsWith('/admin/') ? 'operator' : 'token');
  return {
    name: parts.name,
    route,
    auth,
    generic,
    request,
    attrRoots: parts.attrRoots ?? ((b, req) => [b, req.query, req.params]),
    altErrorBody: parts.altErrorBody,
    documented5xx: parts.documented5xx,
    settlesThroughWorker: parts.settlesThroughWorker,
    ...(parts.ndjson ? { contentTypes: ['application/x-ndjson'] } : {}),
    lineResults: parts.lineResults,
  };
}

/** NDJSON text: one value a line, now and then a line cut short or left blank. */
const ndjsonText = (values: fc.Arbitrary<Json[]>) =>
  fc.tuple(values, fc.array(fc.nat(), { maxLength: 3 })).map(([lines, cuts]) => {
    const texts = lines.map((v) => toJsonText(v));
    for (const cut of cuts) {
      const i = cut % Math.max(1, texts.length);
      if (texts[i] !== undefined)
        texts[i] = cut % 5 === 0 ? '' : texts[i].slice(0, cut % (texts[i].length + 1));
    }
    return { body: texts.join('\n'), contentType: 'application/x-ndjson' };
  });

/** The bodies a bulk request carried, in the order of its results (blank NDJSON lines skipped). */
function bulkInputs(req: FuzzRequest): unknown[] | null {
  if (req.body === undefined) return null;
  const parse = (text: string): unknown => {
    try {
      return JSON.parse(text);
    } catch {
      return undefined;
    }
  };
  if (req.contentType === 'application/x-ndjson')
    return req.body
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map(parse);
  const whole = parse(req.body);
  return Array.isArray(whole) ? whole : null;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

/** Account attrs are relative to the payload, bare or wrapped; task_params ones to the wrapper. */
const accountRoots: EndpointSpec['attrRoots'] = (b, req) =>
  isObject(b) && Object.hasOwn(b, 'payload')
    ? [b.payload, b, req.query, req.params]
    : [b, req.query, req.params];

const taskParams = fc.record(
  {
    is_dry_run: fc.oneof(fc.boolean(), hostileValue),
    schedule_window_start: fc.oneof(fc.constantFrom(...BOUNDARY_DATETIMES), hostileValue),
    schedule_window_end: fc.oneof(fc.constantFrom(...BOUNDARY_DATETIMES), hostileValue),
  },
  { requiredKeys: [] },
);

/** The specific generators, keyed by `METHOD path`. */
function catalogue(w: FuzzWorld): Record<string, SpecParts> {
  const suppliers = [FUZZ_SUPPLIER, PAUSED_SUPPLIER, 'NOPE'];
  const externals = [...w.imported, ...w.processes, 'NOPE-1'];
  const account = fc.oneof(
    { weight: 4, arbitrary: fc.nat(1_000_000).map((n) => accountFor(FUZZ_SUPPLIER, 1_000 + n)) },
    {
      weight: 1,
      arbitrary: fc.constant(null).map(() => ({
        ...kitchenSinkAccount(),
        import_supplier: FUZZ_SUPPLIER,
      })),
    },
  );
  const accountExtras = [
    fc.tuple(account, taskParams).map(([payload, task_params]) => ({ payload, task_params })),
    fc.tuple(account, deepValue).map(([a, deep]) => ({ ...a, metadata: [{ key: 'deep', value: deep }] })),
    fc.tuple(account, hostileValue).map(([payload, task_params]) => ({ payload, task_params })),
  ];
  const followUp = (key: string, items: Json[]) =>
    fc.constantFrom(...w.imported, 'NOPE-1', w.processes[0]).map((ext) => ({
      import_supplier: FUZZ_SUPPLIER,
      external_account_number: ext,
      [key]: items,
    }));
  const flag = fc.constantFrom('true', 'false');
  const vendorRefs: [string, string, string][] = [
    ['GOCARDLESS', 'MD000SIMACTIVE', 'DIRECT_DEBIT'],
    ['GOCARDLESS', 'MD000SIMCANCELLED', 'DIRECT_DEBIT'],
    ['STRIPE', 'pm_sim_card_visa', 'CARD'],
    ['STRIPE', 'pm_sim_bacs_debit', 'DIRECT_DEBIT'],
  ];
  const graphqlBodies = fc.constantFrom(
    {
      query:
        'mutation($k: String) { obtainToken(input: {APIKey: $k}) { token refreshToken refreshExpiresIn } }',
      variables: { k: w.apiKey },
    },
    {
      query: 'mutation($r: String) { obtainToken(input: {refreshToken: $r}) { token refreshExpiresIn } }',
      variables: { r: w.refreshToken },
    },
    { query: 'mutation { obtainToken(input: {APIKey: "not-a-key"}) { token } }' },
    { query: '{ ok }' },
    { query: 'query Q($x: Int) { ok }', variables: { x: 1 }, operationName: 'Q' },
  );
  return {
    'POST /v2/data-import/accounts/validate/': {
      name: 'accounts.validate',
      body: account,
      extraBodies: accountExtras,
      attrRoots: accountRoots,
    },
    'POST /v2/data-import/accounts/': {
      name: 'accounts.create',
      settlesThroughWorker: true,
      body: account,
      extraBodies: accountExtras,
      attrRoots: accountRoots,
      altErrorBody: alreadyImported,
    },
    'POST /v2/data-import/accounts/bulk/': {
      name: 'accounts.bulk',
      settlesThroughWorker: true,
      body: fc.array(account, { minLength: 1, maxLength: 3 }),
      extraBodies: [fc.array(fc.oneof(account, ...accountExtras, genericBody), { maxLength: 4 })],
      ndjson: fc.array(
        fc.oneof(
          account,
          account.chain((a) => mutated(a)),
          ...accountExtras,
          genericBody,
        ),
        {
          maxLength: 4,
        },
      ),
      lineResults: (answer, req) => {
        const inputs = bulkInputs(req);
        if (!isObject(answer) || !Array.isArray(answer.results) || inputs === null) return null;
        return answer.results.map((r: Json, i: number) => ({
          status: isObject(r) && typeof r.status === 'number' ? r.status : 0,
          body: isObject(r) ? (r.body as Json) : null,
          input: inputs[i],
        }));
      },
      attrRoots: accountRoots,
      altErrorBody: alreadyImported,
    },
    'GET /v2/data-import/accounts/:import_supplier_code/:external_identifier/': {
      name: 'accounts.status',
      params: { import_supplier_code: suppliers, external_identifier: externals },
    },
    'POST /v2/data-import/accounts/statuses/': {
      name: 'accounts.statuses',
      body: fc.record({
        import_supplier: fc.constantFrom(...suppliers),
        external_identifiers: fc.array(fc.constantFrom(...externals), { minLength: 1, maxLength: 20 }),
      }),
    },
    'GET /v1/data-import/account-transfer-status/:import_supplier_code/:external_account_number/': {
      name: 'transfer-status',
      params: { import_supplier_code: suppliers, external_account_number: externals },
    },
    'GET /v1/data-import/all-account-import-processes/:import_supplier_code/': {
      name: 'list.all',
      params: { import_supplier_code: suppliers },
    },
    'GET /v1/data-import/pending-account-import-processes/:import_supplier_code/': {
      name: 'list.pending',
      params: { import_supplier_code: suppliers },
    },
    'GET /v1/data-import/imported-account-import-processes/:import_supplier_code/': {
      name: 'list.imported',
      params: { import_supplier_code: suppliers },
    },
    'POST /v1/data-import/notes/create/': {
      name: 'notes.create',
      body: followUp('notes', [
        {
          body: 'Fuzz note ✓',
          created_at: '2020-01-01T09:00:00Z',
          is_pinned: true,
          unpin_at: '2030-01-01T00:00:00+01:00',
          document_paths: [{ document_path: 'notes/n1.pdf' }],
        },
        { body: 'Second note' },
      ]),
    },
    'POST /v1/data-import/transactions/create/': {
      name: 'transactions.create',
      query: fc.oneof(
        fc.record(
          { check_previously_added: flag, force_add_to_current_statement: flag },
          { requiredKeys: [] },
        ),
        queryString,
      ),
      body: followUp('transactions', [
        {
          transaction_id: 'FZ-1',
          transaction_date: '2020-01-15',
          amount: '12.50',
          type: 'PAYMENT',
          reason: 'ACCOUNT_CHARGE_PAYMENT',
          payment_type: 'DD_REGULAR_COLLECTION',
          reference: 'ref-1',
        },
        {
          transaction_id: 'FZ-2',
          transaction_date: '2020-01-16',
          amount: new RawJson('53.24'),
          type: 'SUPPLY_CHARGE',
          product_code: 'SOME-PRODUCT-CODE-4321',
          line_items: [
            {
              rate_band: 'CONSUMPTION_STANDARD',
              start_date: '2019-10-01',
              end_date: '2019-11-01',
              number_of_units: 4,
              net_amount: 44,
              price_per_unit: 11,
              units: [4, 8],
            },
          ],
          tax_items: [
            { amount: 9.24, tax_type: 'VAT', value_taxed: 44, rate: 0.21, unit_type: 'PROPORTION' },
          ],
        },
      ]),
      // Interface 4.2: a well-formed transaction that cannot be added.
      altErrorBody: (j) =>
        j.status === 'TRANSACTION_IMPORT_ERROR' &&
        typeof j.code === 'string' &&
        typeof j.error_detail === 'string' &&
        isObject(j.transaction_data),
    },
    'POST /v1/data-import/historical-statements/create/': {
      name: 'statements.create',
      body: followUp('statements', [
        {
          bill_period_from_date: '2019-06-01',
          bill_period_to_date: '2019-06-30',
          statement_id: 'FZ-S1',
          issued_date: '2019-07-02',
          number: '1',
          gross_amount: 10000,
          statement_path: 'statements/s1.pdf',
        },
      ]),
    },
    'POST /v1/data-import/payment-instruction/create/': {
      name: 'payment-instruction.create',
      body: fc
        .tuple(fc.constantFrom(...w.imported, 'NOPE-1'), fc.constantFrom(...vendorRefs))
        .map(([ext, [vendor, reference, type]]) => ({
          import_supplier: FUZZ_SUPPLIER,
          external_account_number: ext,
          vendor,
          reference,
          type,
        })),
      // A reference that asks the simulated vendor to fail is the vendor failing (interface 4.4).
      documented5xx: (j, b) =>
        j?.code === 'vendor_unavailable' &&
        isObject(b) &&
        typeof b.reference === 'string' &&
        faultEncodedIn(b.reference) !== null,
    },
    'POST /v1/graphql/': {
      name: 'graphql',
      auth: 'none',
      body: graphqlBodies,
      extraBodies: [
        oddString.map((query) => ({ query })),
        fc.tuple(fc.constantFrom(1_000, 10_000), fc.boolean()).map(([n, sel]) => ({
          query: sel ? `{ ${'ok '.repeat(n)}}` : `${'{ ok '.repeat(n)}${'}'.repeat(n)}`,
        })),
        hostileValue.map((k) => ({
          query: 'mutation($k: String) { obtainToken(input: {APIKey: $k}) { token } }',
          variables: { k },
        })),
      ],
      remoteAddress: true,
      altErrorBody: graphqlErrors,
    },
    'GET /v1/graphql/': {
      name: 'graphql.get',
      auth: 'none',
      query: fc.oneof(
        fc.record({ query: fc.oneof(fc.constant('{ ok }'), oddString) }),
        fc.record({ query: fc.constant('mutation { obtainToken(input: {APIKey: "x"}) { token } }') }),
        queryString,
      ),
      remoteAddress: true,
      altErrorBody: graphqlErrors,
    },
    'POST /admin/v1/import-suppliers/': {
      name: 'admin.suppliers.create',
      body: fc.nat(1_000_000).map((n) => ({
        code: `FZ_${n}`,
        status: 'Ongoing',
        document_root: `fz/${n}`,
        config: { send_welcome_emails: false, dry_run_only: false },
      })),
    },
    'GET /admin/v1/import-suppliers/': { name: 'admin.suppliers.list' },
    'GET /admin/v1/import-suppliers/:code/': {
      name: 'admin.suppliers.show',
      params: { code: [FUZZ_SUPPLIER, ADMIN_SUPPLIER, 'NOPE'] },
    },
    'PATCH /admin/v1/import-suppliers/:code/': {
      name: 'admin.suppliers.update',
      params: { code: [ADMIN_SUPPLIER, 'NOPE'] },
      body: fc.constant({
        status: 'Ongoing',
        document_root: 'fuzz-admin',
        config: { send_welcome_emails: true, dry_run_only: false },
      }),
    },
    'POST /admin/v1/api-keys/': {
      name: 'admin.api-keys.create',
      body: fc.constant({ name: 'fuzz key', import_suppliers: [FUZZ_SUPPLIER, ADMIN_SUPPLIER] }),
    },
    'GET /admin/v1/api-keys/': { name: 'admin.api-keys.list' },
    'DELETE /admin/v1/api-keys/:id/': {
      name: 'admin.api-keys.revoke',
      params: { id: [...w.spareKeyIds, 'nope'] },
    },
    'GET /admin/v1/import-processes/:supplier/:external/': {
      name: 'admin.processes.show',
      params: { supplier: suppliers, external: externals },
    },
    'POST /admin/v1/import-processes/:supplier/:external/cancel/': {
      name: 'admin.processes.cancel',
      params: { supplier: suppliers, external: w.processes },
      body: fc.constant({}),
    },
    'POST /admin/v1/import-processes/:supplier/:external/retry/': {
      name: 'admin.processes.retry',
      params: { supplier: suppliers, external: w.processes },
      body: fc.constant({}),
    },
  };
}

/** Interface 4.6: an account already imported. */
const alreadyImported = (j: Json): boolean =>
  isObject(j) &&
  isObject(j.non_field_errors) &&
  typeof j.non_field_errors.detail === 'string' &&
  typeof j.non_field_errors.code === 'string' &&
  typeof j.account_id === 'string';

/** GraphQL's own error shape: `{errors: [{message}, ...]}`. */
function graphqlErrors(j: Json): boolean {
  return (
    isObject(j) &&
    Array.isArray(j.errors) &&
    j.errors.length > 0 &&
    j.errors.every((e: Json) => isObject(e) && typeof e.message === 'string')
  );
}

/** Every data-import and admin endpoint of the app, with its generators. */
export function endpointSpecs(w: FuzzWorld): EndpointSpec[] {
  const known = catalogue(w);
  return routesOf(w.t.app.printRoutes({ commonPrefix: false })).map((route) => {
    const key = `${route.method} ${route.path}`;
    const parts = known[key];
    return parts ? buildSpec(route, parts, false) : buildSpec(route, { name: key }, true);
  });
}
