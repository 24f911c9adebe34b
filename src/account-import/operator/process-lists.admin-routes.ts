import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { type Static, Type } from '@sinclair/typebox';
import { notFound, validationFailed } from '../../errors/error-catalogue.ts';
import { item } from '../../errors/error-items.ts';
import { AdminObject, BadRequest, ErrorRef, StringEnum } from '../../http/schemas.ts';
import type { Db } from '../../infra/db/db.ts';
import { findSupplier } from '../../suppliers/suppliers.queries.ts';
import { IMPORT_PROCESS_STATUSES } from '../../vocabulary/import-process-states.ts';
import { bulkTransition } from './process-actions.queries.ts';
import { EXPORT_CONTENT_TYPES, EXPORT_FORMATS, exportProcesses } from './process-exports.ts';
import { type ProcessFilter, supplierCodes } from './process-filter.queries.ts';
import { listProcessesPage } from './process-lists.queries.ts';
import { supplierProgress } from './supplier-activity.queries.ts';

const FilterProperties = {
  supplier: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'Import supplier code.' })),
  status: Type.Optional(StringEnum(IMPORT_PROCESS_STATUSES, { description: 'The process state.' })),
  error_code: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 100,
      pattern: '^[A-Za-z0-9_.-]+$',
      description: "The code of the process's latest error.",
    }),
  ),
};
const FilterQuery = Type.Object(FilterProperties, { additionalProperties: false });
const FilterBody = Type.Object(FilterProperties, {
  additionalProperties: false,
  description: 'Which processes: every part given must hold; at least one part is required.',
  examples: [{ supplier: 'ACME', error_code: 'meter_point_on_another_account' }],
});

const MAX_PAGE = 1_000;
const ListQuery = Type.Object(
  {
    ...FilterProperties,
    cursor: Type.Optional(
      Type.String({ pattern: '^[0-9]{1,19}$', description: 'next_cursor of the previous page.' }),
    ),
    limit: Type.Optional(
      Type.String({
        pattern: '^[0-9]{1,4}$',
        description: `Processes per page, 1 to ${MAX_PAGE} (default 100).`,
      }),
    ),
  },
  { additionalProperties: false },
);
const ExportQuery = Type.Object(
  {
    ...FilterProperties,
    format: Type.Optional(StringEnum(EXPORT_FORMATS, { description: 'csv or ndjson (default).' })),
  },
  { additionalProperties: false },
);
const ProgressQuery = Type.Object(
  {
    minutes: Type.Optional(
      Type.String({ pattern: '^[0-9]{1,4}$', description: 'How many minutes back, 1 to 1440 (default 60).' }),
    ),
  },
  { additionalProperties: false },
);

/** A process's provenance: the mapping profile that built its payload (task_params.mapping_profile). */
export const MappingProfileRef = Type.Union(
  [
    Type.Object(
      {
        name: Type.String({ description: "The profile's name (its `profile:` key)." }),
        version: Type.Integer({ description: "The profile's version (its `version:` key)." }),
      },
      { additionalProperties: false },
    ),
    Type.Null(),
  ],
  {
    description:
      'The mapping profile that built the payload from flat files (ferry push accounts --profile); null when the account was sent without one.',
  },
);

const ProcessListItem = AdminObject(
  {
    import_supplier: Type.String(),
    external_account_number: Type.String(),
    status: StringEnum(IMPORT_PROCESS_STATUSES),
    is_dry_run: Type.Boolean(),
    attempts: Type.Integer(),
    latest_error: Type.Union([
      AdminObject({ code: Type.String(), detail: Type.String(), domain: Type.Optional(Type.String()) }),
      Type.Null(),
    ]),
    service_account_number: Type.Union([Type.String(), Type.Null()]),
    created_at: Type.String({ format: 'date-time' }),
    modified_at: Type.String({ format: 'date-time' }),
    mapping_profile: MappingProfileRef,
  },
  'An import process in a list (its payload and events are in the process detail).',
);
const ProcessPage = Type.Object({
  results: Type.Array(ProcessListItem),
  next_cursor: Type.Union([Type.String(), Type.Null()], {
    description: 'Pass as `cursor` for the next page; null on the last page.',
  }),
});
/** The answer of a bulk cancel or retry, with an example of each (the reference page shows it). */
const BULK_EXAMPLES = {
  cancel: { matched: 120, changed: 118, skipped: 2, skipped_by_status: { PROCESSED: 2 }, pages: 1 },
  retry: { matched: 42, changed: 40, skipped: 2, skipped_by_status: { CANCELLED: 2 }, pages: 1 },
} as const;
const bulkOutcome = (action: keyof typeof BULK_EXAMPLES) =>
  Type.Object(
    {
      action: Type.Literal(action),
      matched: Type.Integer({ description: 'Processes the filter matched.' }),
      changed: Type.Integer({ description: `Processes ${action === 'cancel' ? 'cancelled' : 'retried'}.` }),
      skipped: Type.Integer({ description: 'Processes in a state the action is not allowed from.' }),
      skipped_by_status: Type.Object(
        Object.fromEntries(IMPORT_PROCESS_STATUSES.map((status) => [status, Type.Optional(Type.Integer())])),
        { additionalProperties: false, description: 'The skipped processes by their state.' },
      ),
      pages: Type.Integer({ description: 'Pages walked, one transaction each.' }),
    },
    { examples: [{ action, ...BULK_EXAMPLES[action] }] },
  );
const Progress = Type.Object({
  import_supplier: Type.String(),
  since: Type.String({ format: 'date-time', description: 'The first minute of the series.' }),
  per_minute: Type.Array(
    Type.Object({ minute: Type.String({ format: 'date-time' }), created: Type.Integer() }),
  ),
  created: Type.Integer({ description: 'Accounts created in the whole series.' }),
});

/** A supplier filter naming no supplier is a wrong value: 400, listing the codes there are. */
async function checkSupplier(db: Db, filter: ProcessFilter) {
  if (filter.supplier === undefined || (await findSupplier(db, filter.supplier))) return;
  const codes = await supplierCodes(db, 51);
  const shown = codes.length > 50 ? `${codes.slice(0, 50).join(', ')}, …` : codes.join(', ');
  throw validationFailed('validation_error', [
    item(
      'supplier',
      'invalid_choice',
      `No import supplier has this code. Allowed: ${shown || '(none yet)'}.`,
    ),
  ]);
}

const filterOf = ({ supplier, status, error_code }: Static<typeof FilterQuery>): ProcessFilter => ({
  ...(supplier !== undefined ? { supplier } : {}),
  ...(status !== undefined ? { status } : {}),
  ...(error_code !== undefined ? { error_code } : {}),
});

const numberIn = (text: string | undefined, fallback: number, attr: string, max: number) => {
  const n = text === undefined ? fallback : Number(text);
  if (n < 1 || n > max) {
    throw validationFailed('validation_error', [item(attr, 'invalid', `Must be from 1 to ${max}.`)]);
  }
  return n;
};

/**
 * An export streams for as long as its client reads, and a bulk action over a cohort takes as
 * many transactions as it has pages: the request timeout cuts neither (each query still has
 * the statement timeout).
 */
const LONG_REQUEST_TIMEOUT_MS = 3_600_000;

export const processListAdminRoutes: FastifyPluginAsyncTypebox<{ db: Db }> = async (app, { db }) => {
  const tags = ['admin'];
  app.get(
    '/import-processes/',
    {
      schema: {
        tags,
        summary: 'Processes by supplier, status and latest error code, one keyset page at a time',
        querystring: ListQuery,
        response: { 200: ProcessPage, 400: BadRequest },
      },
    },
    async (request) => {
      const { cursor, limit, ...filterPart } = request.query;
      const filter = filterOf(filterPart);
      await checkSupplier(db, filter);
      return listProcessesPage(db, filter, {
        cursor: cursor ?? '0',
        limit: numberIn(limit, 100, 'limit', MAX_PAGE),
      });
    },
  );

  app.get(
    '/import-processes/export/',
    {
      config: { requestTimeoutMs: LONG_REQUEST_TIMEOUT_MS },
      schema: {
        tags,
        summary: 'The same list as one streamed CSV or NDJSON export',
        querystring: ExportQuery,
        response: {
          200: {
            description:
              'CSV with a header line (the mapping profile as two columns, mapping_profile and mapping_profile_version, empty when none), or NDJSON: one process (as in the list) a line.',
            content: {
              'text/csv': { schema: Type.String() },
              'application/x-ndjson': { schema: Type.String() },
            },
          },
          400: BadRequest,
        },
      },
    },
    async (request, reply) => {
      const { format = 'ndjson', ...filterPart } = request.query;
      const filter = filterOf(filterPart);
      await checkSupplier(db, filter);
      const name = `import-processes-${filter.supplier ?? 'all'}.${format}`;
      return reply
        .type(EXPORT_CONTENT_TYPES[format])
        .header('content-disposition', `attachment; filename="${name}"`)
        .send(exportProcesses(db, filter, format));
    },
  );

  for (const action of ['cancel', 'retry'] as const) {
    app.post(
      `/import-processes/${action}/`,
      {
        // A retry sends processes back to PENDING: the workers are told (decision 0100).
        config: { requestTimeoutMs: LONG_REQUEST_TIMEOUT_MS, makesWorkDue: true },
        schema: {
          tags,
          summary:
            action === 'cancel'
              ? 'Cancel every process a filter matches (where the state table allows it)'
              : 'Retry every ERRORED process a filter matches',
          body: FilterBody,
          response: { 200: bulkOutcome(action), 400: BadRequest },
        },
      },
      async (request) => {
        const filter = filterOf(request.body);
        if (Object.keys(filter).length === 0) {
          throw validationFailed('validation_error', [
            item('', 'required', 'Name at least one of supplier, status or error_code.'),
          ]);
        }
        await checkSupplier(db, filter);
        return bulkTransition(db, filter, action, { log: request.log });
      },
    );
  }

  app.get(
    '/import-suppliers/:code/progress/',
    {
      schema: {
        tags,
        summary: "A supplier's accounts created per minute, for charts",
        params: Type.Object({ code: Type.String() }),
        querystring: ProgressQuery,
        response: { 200: Progress, 400: BadRequest, 404: ErrorRef },
      },
    },
    async (request) => {
      const { code } = request.params;
      if (!(await findSupplier(db, code))) throw notFound('No import supplier has that code.');
      return supplierProgress(db, code, numberIn(request.query.minutes, 60, 'minutes', 1440));
    },
  );
};
