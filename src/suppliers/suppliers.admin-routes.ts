import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import {
  apiError,
  notFound,
  type ValidationFailureCode,
  validationFailed,
} from '../errors/error-catalogue.ts';
import { item } from '../errors/error-items.ts';
import type { ItemCode } from '../errors/item-codes.ts';
import { AdminObject, BadRequest, ErrorRef, StringEnum } from '../http/schemas.ts';
import type { Db } from '../infra/db/db.ts';
import { Nullable } from '../validation/schema-builders.ts';
import { IMPORT_PROCESS_STATUSES } from '../vocabulary/import-process-states.ts';
import { wireDatetime } from '../vocabulary/wire-datetime.ts';
import {
  createSupplier,
  DocumentRootOverlapError,
  listSuppliersWithCounts,
  SUPPLIER_STATUSES,
  type Supplier,
  type SupplierCache,
  SupplierExistsError,
  type SupplierWithCounts,
  updateSupplierSettings,
} from './suppliers.queries.ts';

const SupplierConfigSchema = Type.Object(
  {
    send_welcome_emails: Type.Optional(
      Type.Boolean({ description: 'Record a welcome e-mail when an account is created.' }),
    ),
    hold_welcome_emails: Type.Optional(
      Type.Boolean({
        description:
          "The welcome e-mails of a wave's accounts wait in the outbox until the operator approves the wave (POST /admin/v1/waves/<supplier>/<wave>/approve/). Accounts of no wave are never held. Default false.",
      }),
    ),
    dry_run_only: Type.Optional(Type.Boolean({ description: 'Every scheduled creation is a dry run.' })),
    pause_when_errored: Type.Optional(
      Nullable(
        Type.Object(
          {
            window: Type.Integer({
              minimum: 10,
              maximum: 10_000,
              description: 'How many of the latest finished (PROCESSED or ERRORED) processes to look at.',
            }),
            share: Type.Number({
              exclusiveMinimum: 0,
              maximum: 1,
              description: 'The share of them ERRORED (0 < share ≤ 1) at which the supplier is paused.',
            }),
          },
          {
            additionalProperties: false,
            description:
              'Automatic pause: when at least `share` of the last `window` finished processes ended ERRORED, the worker sets the supplier Paused (`automatic_pause` says why); its PENDING processes wait until it is resumed. `null` switches it off.',
          },
        ),
      ),
    ),
  },
  { additionalProperties: false },
);
const AutomaticPauseView = Nullable(
  Type.Object(
    {
      paused_at: Type.String({ format: 'date-time' }),
      window: Type.Integer(),
      share: Type.Number(),
      errored: Type.Integer({ description: 'How many of the last `window` finished processes ERRORED.' }),
      top_error_codes: Type.Array(Type.Object({ code: Type.String(), count: Type.Integer() }), {
        description: 'Their most frequent error codes, most frequent first (at most 5).',
      }),
    },
    {
      description:
        'The automatic pause (config `pause_when_errored`) the supplier is in; null when it is not in one. Resuming the supplier clears it.',
    },
  ),
);
const StatusSchema = StringEnum(SUPPLIER_STATUSES);
const DocumentRootSchema = Type.String({
  maxLength: 512,
  pattern: '^[A-Za-z0-9._/-]*$',
  description:
    "Folder of this supplier's documents inside the document store (default: the code in lower case). It may neither contain nor lie inside another supplier's root.",
});

const CreateBody = Type.Object(
  {
    code: Type.String({ pattern: '^[A-Za-z0-9_-]{1,64}$' }),
    status: Type.Optional(StatusSchema),
    document_root: Type.Optional(DocumentRootSchema),
    config: Type.Optional(SupplierConfigSchema),
  },
  { additionalProperties: false },
);
const PatchBody = Type.Object(
  {
    status: Type.Optional(StatusSchema),
    document_root: Type.Optional(DocumentRootSchema),
    config: Type.Optional(SupplierConfigSchema),
  },
  { additionalProperties: false },
);
const CodeParams = Type.Object({ code: Type.String() });

const SupplierView = {
  ...AdminObject(
    {
      code: Type.String(),
      status: StatusSchema,
      document_root: Type.String(),
      config: Type.Object({}, { additionalProperties: true }),
      automatic_pause: AutomaticPauseView,
      created_at: Type.String({ format: 'date-time' }),
      modified_at: Type.String({ format: 'date-time' }),
      import_processes: Type.Optional(
        Type.Object(Object.fromEntries(IMPORT_PROCESS_STATUSES.map((status) => [status, Type.Integer()])), {
          additionalProperties: false,
          description: 'Import processes per status (not when just created).',
        }),
      ),
    },
    'An import supplier.',
  ),
  examples: [
    {
      code: 'ACME',
      status: 'Ongoing',
      document_root: 'acme',
      config: {
        send_welcome_emails: true,
        hold_welcome_emails: true,
        dry_run_only: false,
        pause_when_errored: { window: 200, share: 0.2 },
      },
      automatic_pause: null,
      created_at: '2025-03-01T09:00:00Z',
      modified_at: '2025-03-02T14:30:00Z',
      import_processes: {
        STAGED: 0,
        PENDING: 120,
        IN_PROGRESS: 8,
        PROCESSED: 4210,
        CANCELLED: 3,
        DRY_RUN_SUCCEEDED: 0,
        ERRORED: 17,
        DRY_RUN_ERRORED: 0,
      },
    },
  ],
};

const rootError = (code: ItemCode, detail: string, top: ValidationFailureCode = 'validation_error') =>
  validationFailed(top, [item('document_root', code, detail)]);

/** Normalises a document root: no leading/trailing slashes, no `.` or `..` segments, not empty. */
function documentRoot(raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  const parts = raw.split('/').filter((p) => p !== '');
  if (parts.some((p) => p === '.' || p === '..')) {
    throw rootError('invalid_document_path', 'The root may not contain . or .. segments.');
  }
  // "" or "/" would be the whole store, every other supplier's documents included.
  if (parts.length === 0) throw rootError('blank', 'The root must name a folder of the document store.');
  return parts.join('/');
}

/** Runs a supplier write, answering an overlapping document root as a 400 at `document_root`. */
async function refusingOverlaps<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (!(err instanceof DocumentRootOverlapError)) throw err;
    throw rootError(
      'document_root_overlaps',
      `The document root "${err.documentRoot}" overlaps the root "${err.other.document_root}" of import supplier ${err.other.code}; each supplier needs a folder of its own.`,
      'document_root_overlaps',
    );
  }
}

export const supplierView = (s: Supplier | SupplierWithCounts) => ({
  ...s,
  automatic_pause: s.automatic_pause && {
    ...s.automatic_pause,
    paused_at: wireDatetime(s.automatic_pause.paused_at),
  },
  created_at: wireDatetime(s.created_at),
  modified_at: wireDatetime(s.modified_at),
});

export const supplierAdminRoutes: FastifyPluginAsyncTypebox<{ db: Db; suppliers: SupplierCache }> = async (
  app,
  { db, suppliers },
) => {
  const tags = ['admin'];
  app.post(
    '/import-suppliers/',
    {
      schema: {
        tags,
        summary: 'Create an import supplier',
        body: CreateBody,
        response: { 201: SupplierView, 400: BadRequest },
      },
    },
    async (request, reply) => {
      const { body } = request;
      try {
        const root = documentRoot(body.document_root);
        const s = await refusingOverlaps(() => createSupplier(db, { ...body, document_root: root }));
        request.log.info(
          {
            event: 'import_supplier_created',
            importSupplier: s.code,
            status: s.status,
            documentRoot: s.document_root,
          },
          'import supplier created',
        );
        return reply.code(201).send(supplierView(s));
      } catch (err) {
        if (err instanceof SupplierExistsError)
          throw apiError('already_exists', `An import supplier with code "${body.code}" already exists.`);
        throw err;
      }
    },
  );

  app.get(
    '/import-suppliers/',
    {
      schema: {
        tags,
        summary: 'List import suppliers with process counts',
        response: { 200: Type.Array(SupplierView) },
      },
    },
    async () => (await listSuppliersWithCounts(db)).map(supplierView),
  );

  app.get(
    '/import-suppliers/:code/',
    {
      schema: {
        tags,
        summary: 'One import supplier with process counts',
        params: CodeParams,
        response: { 200: SupplierView, 404: ErrorRef },
      },
    },
    async (request) => {
      const [s] = await listSuppliersWithCounts(db, request.params.code);
      if (!s) throw notFound('No import supplier has that code.');
      return supplierView(s);
    },
  );

  app.patch(
    '/import-suppliers/:code/',
    {
      // Resuming a paused supplier makes its processes due: the workers are told (decision 0100).
      config: { makesWorkDue: true },
      schema: {
        tags,
        summary: 'Change status, document root or configuration',
        params: CodeParams,
        body: PatchBody,
        response: { 200: SupplierView, 400: BadRequest, 404: ErrorRef },
      },
    },
    async (request) => {
      const { body } = request;
      const { code } = request.params;
      const root = documentRoot(body.document_root);
      const s = await refusingOverlaps(() =>
        updateSupplierSettings(db, code, { ...body, document_root: root }),
      );
      suppliers.forget(code);
      if (!s) throw notFound('No import supplier has that code.');
      request.log.info(
        {
          event: 'import_supplier_changed',
          importSupplier: code,
          changed: Object.keys(body),
          status: s.status,
        },
        'import supplier changed',
      );
      return supplierView(s);
    },
  );
};
