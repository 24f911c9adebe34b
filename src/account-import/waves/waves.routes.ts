/**
 * The supplier's waves API (decision 0069): the waves of a supplier with their processes' states,
 * the source system's expectations for a wave (an NDJSON upload, streamed), and the wave's
 * reconciliation with what Ferry stores (totals, and the differing accounts streamed as NDJSON).
 * Registered in the data-import scope: the token hook refuses a key scoped to other suppliers
 * (403, from the path parameter) before anything is looked up.
 */
import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { notFound, unsupportedMediaType } from '../../errors/error-catalogue.ts';
import { documentedOnly } from '../../http/json-body.ts';
import {
  authErrorResponses,
  BadRequest,
  ErrorRef,
  StringEnum,
  SupplierCodeParam,
} from '../../http/schemas.ts';
import type { Db, Queryable } from '../../infra/db/db.ts';
import type { SupplierCache } from '../../suppliers/suppliers.queries.ts';
import { EXPORT_CONTENT_TYPES, textStream } from '../operator/process-exports.ts';
import { MAX_EXPECTATION_LINES, replaceExpectations } from './expectations.queries.ts';
import {
  ACCOUNT_MEASURES,
  DIFFERENCE_KINDS,
  MEASURE_DEFINITIONS,
  measureDefinitionLines,
} from './measures.ts';
import { reconcileWave, waveDifferences, waveRecord } from './reconciliation.queries.ts';
import {
  checkWaveName,
  DifferingMeasures,
  MeasureTotals,
  ReconciliationCounts,
  WaveName,
} from './wave.schemas.ts';
import { listSupplierWaves, waveExists, waveProcessCounts, waveStatus } from './wave-list.queries.ts';

const WaveParams = Type.Object({ import_supplier_code: SupplierCodeParam, wave: WaveName });
/** A wave of a million accounts is compared in seconds; its differences stream for as long as they are read. */
const LONG_REQUEST_MS = 600_000;

const ReconciliationView = Type.Object(
  {
    wave: Type.String(),
    status: Type.String({
      description:
        'The last act on the wave: approved (final), or rolled_back while nothing was scheduled in it since; else how it compares: no_expectations (none uploaded), differences or matched.',
    }),
    accounts: ReconciliationCounts,
    differing_measures: DifferingMeasures,
    totals: MeasureTotals,
    expectations_uploaded_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    approved_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    rolled_back_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    differences_url: Type.String(),
  },
  { description: "The wave's reconciliation: its accounts compared, and the totals of every measure." },
);
const WaveListView = Type.Object({
  results: Type.Array(
    Type.Object({
      wave: Type.String(),
      status: StringEnum(['approved', 'rolled_back', 'open'] as const, {
        description:
          'The last act on the wave: approved (final); rolled_back while nothing was scheduled in it since; else open (its reconciliation says how it compares).',
      }),
      processes: Type.Record(Type.String(), Type.Integer(), {
        description: 'How many of its import processes are in each state.',
        examples: [{ PROCESSED: 29_874, ERRORED: 112, PENDING: 14 }],
      }),
      expected_accounts: Type.Union([Type.Integer(), Type.Null()]),
      expectations_uploaded_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
      approved_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
      rolled_back_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    }),
  ),
});

const DifferencesQuery = Type.Object(
  {
    kind: Type.Optional(
      StringEnum(DIFFERENCE_KINDS, {
        description:
          'missing (expected, not imported), unexpected (imported, not expected) or differing (a measure given differs).',
      }),
    ),
    measure: Type.Optional(
      StringEnum(ACCOUNT_MEASURES, {
        description: `Only the differing accounts whose value of this measure differs. ${ACCOUNT_MEASURES.map((m) => `${m}: ${MEASURE_DEFINITIONS[m]}`).join(' ')}`,
      }),
    ),
  },
  { additionalProperties: false },
);

const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);

async function knownWave(db: Queryable, suppliers: SupplierCache, supplier: string, wave: string) {
  if (!(await suppliers.get(supplier))) throw notFound('No import supplier has that code.');
  if (!(await waveExists(db, supplier, wave)))
    throw notFound(
      `Supplier ${supplier} has no wave ${wave}: no process names it and no expectations were uploaded.`,
    );
}

/** The lines of a streamed body, whatever their length in total. */
async function* bodyLines(body: Readable): AsyncGenerator<string> {
  yield* createInterface({ input: body, crlfDelay: Number.POSITIVE_INFINITY });
}

export const waveRoutes: FastifyPluginAsyncTypebox<{ db: Db; suppliers: SupplierCache }> = async (
  app,
  { db, suppliers },
) => {
  // Expectations are streamed, never held whole: this scope reads NDJSON as a stream.
  app.removeContentTypeParser('application/x-ndjson');
  app.addContentTypeParser('application/x-ndjson', (_request, payload, done) => done(null, payload));
  const tags = ['waves'];

  app.get(
    '/v2/data-import/waves/:import_supplier_code/',
    {
      schema: {
        tags,
        summary: "A supplier's waves, with their processes' states",
        params: Type.Object({ import_supplier_code: SupplierCodeParam }),
        response: { 200: WaveListView, 400: BadRequest, 404: ErrorRef, ...authErrorResponses },
      },
    },
    async (request) => {
      const supplier = request.params.import_supplier_code;
      if (!(await suppliers.get(supplier))) throw notFound('No import supplier has that code.');
      const waves = await listSupplierWaves(db, supplier);
      return {
        results: waves.map((w) => ({
          ...w,
          expectations_uploaded_at: iso(w.expectations_uploaded_at),
          approved_at: iso(w.approved_at),
          rolled_back_at: iso(w.rolled_back_at),
        })),
      };
    },
  );

  app.put(
    '/v2/data-import/waves/:import_supplier_code/:wave/expectations/',
    {
      config: { requestTimeoutMs: LONG_REQUEST_MS },
      // The body is a stream, read line by line in the handler (which checks the path itself):
      // Fastify would otherwise validate it against the documented NDJSON text.
      validatorCompiler: () => () => true,
      preValidation: checkWaveName,
      schema: {
        tags,
        summary: "Upload the source system's figures for a wave (replaces the previous upload)",
        description:
          'NDJSON, one line per account the source system holds: {external_account_number, ledger_balance?, ' +
          'meter_points?, transactions?, transactions_total?, transactions_net?}; money as decimal strings (at ' +
          'most 2 decimal places), counts as whole numbers; a measure left out is not compared. Up to ' +
          `${MAX_EXPECTATION_LINES} lines, streamed. Any bad line stores nothing: every error is answered at once ` +
          '(up to 100), at `<line>.<field>` with lines counted from 1. 409 wave_approved once the wave is ' +
          `approved. Each measure, per account, as the reconciliation computes it:\n\n${measureDefinitionLines('- ')}`,
        params: WaveParams,
        body: documentedOnly(Type.Unsafe({ content: { 'application/x-ndjson': { schema: Type.String() } } })),
        response: {
          200: Type.Object({
            accounts: Type.Integer({ description: 'Accounts the expectations now hold.' }),
          }),
          400: BadRequest,
          404: ErrorRef,
          409: ErrorRef,
          ...authErrorResponses,
        },
      },
    },
    async (request) => {
      const { import_supplier_code: supplier, wave } = request.params;
      if (!(await suppliers.get(supplier))) throw notFound('No import supplier has that code.');
      // This scope's NDJSON parser hands the request's own stream on; any other body is not NDJSON.
      const body = request.body;
      if (!(body instanceof Readable))
        throw unsupportedMediaType('Send the expectations as application/x-ndjson.');
      return replaceExpectations(db, supplier, wave, bodyLines(body));
    },
  );

  app.get(
    '/v2/data-import/waves/:import_supplier_code/:wave/reconciliation/',
    {
      config: { requestTimeoutMs: LONG_REQUEST_MS },
      preValidation: checkWaveName,
      schema: {
        tags,
        summary: "A wave's reconciliation with the source system's figures",
        description:
          'Every account of the wave compared with its expectation: matched, differing (a measure given ' +
          'differs), missing (expected, not imported) or unexpected (imported, not expected). Stored values ' +
          'are read from the stored records at the time of the request: the ledger balance after every ' +
          'imported transaction, follow-ups included. Money is exact (decimal strings). `accounts` counts each ' +
          'kind and `differing_measures` each measure, so that the differences can be narrowed ' +
          `(?kind=…&measure=…). The measures, per account:\n\n${measureDefinitionLines('- ')}`,
        params: WaveParams,
        response: { 200: ReconciliationView, 400: BadRequest, 404: ErrorRef, ...authErrorResponses },
      },
    },
    async (request) => {
      const { import_supplier_code: supplier, wave } = request.params;
      await knownWave(db, suppliers, supplier, wave);
      const [reconciliation, record, processes] = await Promise.all([
        reconcileWave(db, supplier, wave),
        waveRecord(db, supplier, wave),
        waveProcessCounts(db, supplier, wave),
      ]);
      return {
        wave,
        status: waveStatus(record, processes, reconciliation),
        accounts: reconciliation.accounts,
        differing_measures: reconciliation.differing_measures,
        totals: reconciliation.totals,
        expectations_uploaded_at: iso(record?.expectations_uploaded_at),
        approved_at: iso(record?.approved_at),
        rolled_back_at: iso(record?.rolled_back_at),
        differences_url: `/v2/data-import/waves/${encodeURIComponent(supplier)}/${wave}/reconciliation/differences/`,
      };
    },
  );

  app.get(
    '/v2/data-import/waves/:import_supplier_code/:wave/reconciliation/differences/',
    {
      config: { requestTimeoutMs: LONG_REQUEST_MS },
      preValidation: checkWaveName,
      schema: {
        tags,
        summary: "The wave's accounts that do not match, streamed as NDJSON",
        description:
          'One line per account, in external account number order: {external_account_number, kind: ' +
          'missing|unexpected|differing, measures: [{measure, expected, stored}]} (for a differing account ' +
          'the measures that differ; otherwise every measure known on either side). `kind` keeps the ' +
          'accounts of one kind; `measure` keeps the differing accounts whose value of that measure differs ' +
          '(a missing or unexpected account differs in no single measure); both together narrow both ways. ' +
          'The reconciliation counts each kind and each measure first. A value outside the lists is 400 ' +
          '`invalid_choice` at `kind` or `measure`.',
        params: WaveParams,
        querystring: DifferencesQuery,
        response: {
          200: { description: 'NDJSON', content: { 'application/x-ndjson': { schema: Type.String() } } },
          400: BadRequest,
          404: ErrorRef,
          ...authErrorResponses,
        },
      },
    },
    async (request, reply) => {
      const { import_supplier_code: supplier, wave } = request.params;
      await knownWave(db, suppliers, supplier, wave);
      const { kind, measure } = request.query;
      const stream = textStream(waveDifferences(db, supplier, wave, { kind, measure }), {
        line: (d) => `${JSON.stringify(d)}\n`,
      });
      return reply.type(EXPORT_CONTENT_TYPES.ndjson).send(stream);
    },
  );
};
