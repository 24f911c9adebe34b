import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { answerOf, notFound } from '../../errors/error-catalogue.ts';
import {
  authErrorResponses,
  BadRequest,
  bodyErrorResponses,
  ErrorRef,
  SupplierCodeParam,
} from '../../http/schemas.ts';
import type { Db } from '../../infra/db/db.ts';
import { findSupplier } from '../../suppliers/suppliers.queries.ts';
import type { ImportProcessStatus } from '../../vocabulary/import-process-states.ts';
import {
  findImportProcessStatuses,
  type ImportProcessStatusRow,
  importProcessStatusReader,
} from './status.queries.ts';
import { listAsJsonStream, type ProcessListKind } from './supplier-lists.ts';

/** The V1 (account-transfer-status) projection of a V2 state (docs/product.md, Status and lists). */
function toTransferStatusV1(status: ImportProcessStatus): 'UNKNOWN' | 'COMPLETED' | 'IN_PROGRESS' {
  if (status === 'PROCESSED') return 'COMPLETED';
  if (status === 'IN_PROGRESS') return 'IN_PROGRESS';
  return 'UNKNOWN';
}

const Nullable = <T extends ReturnType<typeof Type.String>>(s: T) => Type.Union([s, Type.Null()]);

const V2Status = Type.Object({
  status: Type.String({
    description: 'PENDING, IN_PROGRESS, PROCESSED, CANCELLED, DRY_RUN_SUCCEEDED, ERRORED or DRY_RUN_ERRORED.',
  }),
  service_identifier: Type.Union([Type.String(), Type.Null()], {
    description: 'The service account number; set only when PROCESSED.',
  }),
  created_at: Type.String({ format: 'date-time' }),
  modified_at: Type.String({ format: 'date-time' }),
  latest_error: Type.Union([
    Type.Object({ code: Type.String(), detail: Type.String(), domain: Type.String() }),
    Type.Null(),
  ]),
  latest_event: Type.Object({
    event: Type.String(),
    occurred_at: Type.String({ format: 'date-time' }),
    data: Type.Union([Type.Object({}, { additionalProperties: true }), Type.Null()]),
  }),
});

const NO_PROCESS = 'No import process exists for that supplier and external identifier.';

/** The V2 status record of a process (interface 3.2; its error and event: docs/product.md, Events). */
function v2StatusOf(row: ImportProcessStatusRow) {
  return {
    status: row.status,
    service_identifier: row.status === 'PROCESSED' ? row.account_number : null,
    created_at: row.created_at,
    modified_at: row.modified_at,
    latest_error: row.status === 'ERRORED' || row.status === 'DRY_RUN_ERRORED' ? row.latest_error : null,
    latest_event: row.latest_event,
  };
}

/** Most identifiers one statuses request may ask about. */
export const MAX_STATUSES = 1_000;

const StatusesBody = Type.Object(
  {
    import_supplier: SupplierCodeParam,
    external_identifiers: Type.Array(Type.String({ minLength: 1, maxLength: 255 }), {
      minItems: 1,
      maxItems: MAX_STATUSES,
      description: 'External identifiers (external account numbers) of the supplier, at most 1,000.',
    }),
  },
  { additionalProperties: false },
);

const StatusResult = Type.Object({
  external_identifier: Type.String(),
  status: Type.Union([Type.Literal(200), Type.Literal(404)], {
    description: 'The status the status endpoint would have answered for this identifier alone.',
  }),
  body: Type.Union([V2Status, ErrorRef], { description: 'Its body: the status record, or the 404 error.' }),
});

const V1Status = Type.Object({
  status: Type.String({ description: 'UNKNOWN, COMPLETED or IN_PROGRESS.' }),
  service_account_number: Type.String({ description: 'Empty until the account is created.' }),
});

const ListRecord = Type.Object({
  external_account_number: Type.String(),
  service_account_number: Nullable(Type.String()),
  account_created_at: Nullable(Type.String({ format: 'date-time' })),
});

const ProcessParams = Type.Object({
  import_supplier_code: SupplierCodeParam,
  external_identifier: Type.String({ minLength: 1 }),
});
const TransferParams = Type.Object({
  import_supplier_code: SupplierCodeParam,
  external_account_number: Type.String({ minLength: 1 }),
});
const SupplierParams = Type.Object({ import_supplier_code: SupplierCodeParam });

/**
 * A list streams for as long as its client reads (a million records take seconds, a slow
 * client longer), so REQUEST_TIMEOUT_MS does not cut it; each page's query still has the
 * statement timeout.
 */
const LIST_STREAM_TIMEOUT_MS = 3_600_000;

const LISTS: { kind: ProcessListKind; path: string; summary: string }[] = [
  {
    kind: 'all',
    path: 'all-account-import-processes',
    summary: 'All pending and imported accounts of a supplier',
  },
  {
    kind: 'pending',
    path: 'pending-account-import-processes',
    summary: 'Accounts with staged data and no account yet',
  },
  { kind: 'imported', path: 'imported-account-import-processes', summary: 'Accounts that have been created' },
];

export const statusRoutes: FastifyPluginAsyncTypebox<{ db: Db }> = async (app, { db }) => {
  const findStatus = importProcessStatusReader(db);
  app.get(
    '/v2/data-import/accounts/:import_supplier_code/:external_identifier/',
    {
      schema: {
        tags: ['account import'],
        summary: 'Status of an account import process',
        params: ProcessParams,
        response: { 200: V2Status, 400: BadRequest, 404: ErrorRef, ...authErrorResponses },
      },
    },
    async (request) => {
      const { import_supplier_code, external_identifier } = request.params;
      const row = await findStatus(import_supplier_code, external_identifier);
      if (!row) throw notFound(NO_PROCESS);
      return v2StatusOf(row);
    },
  );

  app.post(
    '/v2/data-import/accounts/statuses/',
    {
      schema: {
        tags: ['account import'],
        summary: 'Status of up to 1,000 account import processes',
        description:
          "One result per external identifier, in the order sent, each with the status and body the status endpoint would have answered for it alone (200 with the status, or 404). One query answers them all: a client polling a book's accounts asks for them in batches.",
        body: {
          ...StatusesBody,
          examples: [{ import_supplier: 'ACME', external_identifiers: ['EXT-0000001', 'EXT-0000002'] }],
        },
        response: {
          200: Type.Object(
            { results: Type.Array(StatusResult) },
            { description: 'One result per identifier, in order.' },
          ),
          400: BadRequest,
          ...bodyErrorResponses,
          ...authErrorResponses,
        },
      },
    },
    async (request) => {
      const { import_supplier, external_identifiers } = request.body;
      const rows = await findImportProcessStatuses(
        db,
        external_identifiers.map((external): [string, string] => [import_supplier, external]),
      );
      const missing = answerOf(notFound(NO_PROCESS))!.body;
      return {
        results: rows.map((row, i) => ({
          external_identifier: external_identifiers[i],
          ...(row
            ? { status: 200 as const, body: v2StatusOf(row) }
            : { status: 404 as const, body: missing }),
        })),
      };
    },
  );

  app.get(
    '/v1/data-import/account-transfer-status/:import_supplier_code/:external_account_number/',
    {
      schema: {
        tags: ['account import'],
        summary: 'Transfer status of an account (V1)',
        params: TransferParams,
        response: { 200: V1Status, 400: BadRequest, 404: ErrorRef, ...authErrorResponses },
      },
    },
    async (request) => {
      const { import_supplier_code, external_account_number } = request.params;
      const row = await findStatus(import_supplier_code, external_account_number);
      if (!row) throw notFound('No account import exists for that supplier and external account number.');
      return { status: toTransferStatusV1(row.status), service_account_number: row.account_number ?? '' };
    },
  );

  for (const list of LISTS) {
    app.get(
      `/v1/data-import/${list.path}/:import_supplier_code/`,
      {
        config: { requestTimeoutMs: LIST_STREAM_TIMEOUT_MS },
        schema: {
          tags: ['query'],
          summary: list.summary,
          params: SupplierParams,
          response: {
            200: Type.Array(ListRecord),
            400: BadRequest,
            404: ErrorRef,
            ...authErrorResponses,
          },
        },
      },
      async (request, reply) => {
        const { import_supplier_code } = request.params;
        if (!(await findSupplier(db, import_supplier_code)))
          throw notFound('No import supplier has that code.');
        // Streamed as it is read: a supplier's list may hold millions of records.
        return reply
          .type('application/json; charset=utf-8')
          .send(listAsJsonStream(db, import_supplier_code, list.kind));
      },
    );
  }
};
