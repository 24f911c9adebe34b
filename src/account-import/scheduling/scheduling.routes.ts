import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { type TSchema, Type } from '@sinclair/typebox';
import exampleAccount from '../../../examples/account.json' with { type: 'json' };
import { sharedAccountCheckPool } from '../../accounts/account-checks.ts';
import { AccountPayloadSchema, TaskParamsSchema } from '../../accounts/payload/account-payload.schema.ts';
import { refuseSuppliersOutsideScope } from '../../auth/token-auth.ts';
import type { FerryConfig } from '../../config.ts';
import { validationFailed } from '../../errors/error-catalogue.ts';
import { item } from '../../errors/error-items.ts';
import {
  type BodyLine,
  BodyLines,
  checkedInService,
  documentedOnly,
  isJsonObject,
} from '../../http/json-body.ts';
import { AnyOf, authErrorResponses, BadRequest, bodyErrorResponses } from '../../http/schemas.ts';
import type { Db } from '../../infra/db/db.ts';
import type { SupplierCache } from '../../suppliers/suppliers.queries.ts';
import { logProcessEvents } from '../process-event-log.ts';
import {
  countBulkRefusals,
  countingRefusal,
  scheduleRefusalRecorder,
} from '../refusals/schedule-refusals.ts';
import { ReservationFilter } from '../reservations/reservation-filter.ts';
import { conflictReader } from '../reservations/reservations.queries.ts';
import { stagedImportRoutes } from '../staging/staging.routes.ts';
import { processStager } from './scheduling.queries.ts';
import {
  type LineAnswer,
  lineAnswerOf,
  scheduleAccountCreation,
  scheduleAccountCreations,
} from './scheduling.service.ts';
import { validateAccount } from './validate-account.ts';

// Documented here, validated by the payload module (our codes and attr paths), so Fastify's
// own validator is switched off for these two routes.
const AccountRef = Type.Unsafe({ $ref: 'AccountPayload' });
const AccountBody = Type.Union([
  AccountRef,
  Type.Object(
    { payload: AccountRef, task_params: Type.Optional(TaskParamsSchema) },
    { additionalProperties: false },
  ),
]);

export const accountImportRoutes: FastifyPluginAsyncTypebox<{
  db: Db;
  config: FerryConfig;
  suppliers: SupplierCache;
}> = async (app, { db, config, suppliers }) => {
  const reserved = new ReservationFilter(db, (err) =>
    app.log.warn({ err }, 'the filter of reserved identifiers could not be refreshed'),
  );
  // One account a request: concurrent requests share one INSERT, and the filter spares most lookups.
  const how = { insertNew: processStager(db), filter: reserved };
  app.addHook('onClose', async () => reserved.close());
  const conflictsOf = conflictReader(db, reserved);
  const refusals = scheduleRefusalRecorder(db, app.log);
  // The validate endpoint's payload rules run in check threads (decision 0049).
  const checks = sharedAccountCheckPool(config.checkThreads);
  app.addSchema({ ...AccountPayloadSchema, $id: 'AccountPayload', examples: [exampleAccount] });
  app.addSchema(Type.Object({}, { $id: 'BulkCreated', description: 'Scheduled (201): an empty object.' }));
  app.addSchema(Type.Object({}, { $id: 'BulkValid', description: 'Valid (200): an empty object.' }));
  // The V1 account endpoints share the payload schema registered above.
  await app.register(stagedImportRoutes, { db, config, suppliers, refusals });

  app.post(
    '/v2/data-import/accounts/validate/',
    {
      // Unread until a check thread reads it (validate-account.ts): the query's refusals and the
      // key's supplier scope are applied there, once the body is read.
      ...checkedInService({
        accountEnvelope: true,
        keepsBodyText: true,
        writesNothing: true,
        bodyReadLater: true,
      }),
      schema: {
        tags: ['account import'],
        summary: 'Validate account data (nothing is created)',
        description:
          'The account payload, bare or wrapped as {payload}. 200 {} when valid; otherwise every error at once.',
        body: AccountBody,
        response: { 200: Type.Object({}), 400: BadRequest, ...bodyErrorResponses, ...authErrorResponses },
      },
    },
    async (request) => {
      await validateAccount({
        suppliers,
        checks,
        body: request.body,
        request,
        timeZone: config.serviceTimezone,
        conflictsOf,
      });
      return {};
    },
  );

  app.post(
    '/v2/data-import/accounts/validate/bulk/',
    {
      ...checkedInService({
        accountEnvelope: true,
        bodyLines: true,
        keepsBodyText: true,
        writesNothing: true,
      }),
      bodyLimit: BULK_BODY_LIMIT_BYTES,
      schema: {
        tags: ['account import'],
        summary: 'Validate up to 1,000 accounts (nothing is created)',
        description:
          'Each account, bare or wrapped as {payload}, one JSON value per line (NDJSON) or as the elements ' +
          'of a JSON array, checked exactly as the validate endpoint checks it alone (identifier conflicts ' +
          'with other accounts and processes included; two lines of one request are not compared). One ' +
          'result per account, in order, with the status and body the validate endpoint would have answered. ' +
          `More than ${MAX_BULK_ACCOUNTS} accounts, or a body over 32 MiB, are refused whole.`,
        ...bulkSchemas(BulkValidateResult),
      },
    },
    async (request) => {
      const lines = bulkLinesOf(request.body);
      const scope = request.apiKey!;
      const answers = await Promise.all(
        lines.map(async (line): Promise<LineAnswer> => {
          if (!line.ok) return lineAnswerOf(line.error);
          try {
            refuseSuppliersOutsideScope(scope, line.value);
            await validateAccount({
              suppliers,
              checks,
              body: line.value,
              request,
              timeZone: config.serviceTimezone,
              conflictsOf,
            });
            return { status: 200, body: {} };
          } catch (error) {
            return lineAnswerOf(error);
          }
        }),
      );
      return {
        results: lines.map((line, i) => ({
          external_account_number: externalAccountNumberOf(line.value),
          ...answers[i],
        })),
      };
    },
  );

  app.post(
    '/v2/data-import/accounts/',
    {
      ...checkedInService({ accountEnvelope: true, makesWorkDue: true }),
      schema: {
        tags: ['account import'],
        summary: 'Schedule account creation',
        description:
          'Validates, then stages the account; a worker creates it asynchronously (poll the status endpoint). ' +
          'Re-sending a PENDING, ERRORED, CANCELLED or DRY_RUN_* account replaces its data.',
        body: AccountBody,
        response: {
          201: Type.Object({}),
          400: AnyOf(
            ['AccountAlreadyImported', 'ValidationError', 'Error'],
            'The account exists, or a validation or state error.',
          ),
          ...bodyErrorResponses,
          ...authErrorResponses,
        },
      },
    },
    async (request, reply) => {
      const scheduled = await countingRefusal(refusals, request.body, () =>
        scheduleAccountCreation(db, suppliers, how, request.body, config.serviceTimezone),
      );
      logProcessEvents(request.log, 'schedule', scheduled);
      return reply.code(201).send({});
    },
  );

  app.post(
    '/v2/data-import/accounts/bulk/',
    {
      ...checkedInService({ accountEnvelope: true, bodyLines: true, makesWorkDue: true }),
      // 1,000 realistic accounts exceed one body's 5 MiB; each NDJSON line is still held to it.
      bodyLimit: BULK_BODY_LIMIT_BYTES,
      schema: {
        tags: ['account import'],
        summary: 'Schedule the creation of up to 1,000 accounts',
        description:
          'Each account, bare or wrapped as {payload, task_params}, one JSON value per line (NDJSON) or ' +
          'as the elements of a JSON array. Each is checked and scheduled exactly as the create endpoint ' +
          'would (a line that cannot be read is refused alone); the answer holds one result per ' +
          'account, in order, with the status and body the create endpoint would have answered. ' +
          `Blank NDJSON lines are skipped; more than ${MAX_BULK_ACCOUNTS} accounts, or a body over 32 MiB, are ` +
          'refused whole; a line over 5 MiB is refused alone (413 payload_too_large).',
        ...bulkSchemas(BulkResult),
      },
    },
    async (request) => {
      const lines = bulkLinesOf(request.body);
      const scope = request.apiKey!;
      const answers: (LineAnswer | null)[] = lines.map((line) => {
        if (!line.ok) return lineAnswerOf(line.error);
        try {
          refuseSuppliersOutsideScope(scope, line.value);
          return null;
        } catch (error) {
          return lineAnswerOf(error);
        }
      });
      const accepted = lines.flatMap((line, i) => (line.ok && answers[i] === null ? [i] : []));
      const { answers: scheduled, scheduled: events } = await scheduleAccountCreations(
        db,
        suppliers,
        accepted.map((i) => (lines[i] as { value: unknown }).value),
        { timeZone: config.serviceTimezone, filter: reserved },
      );
      logProcessEvents(request.log, 'schedule', events, { bulk: true });
      accepted.forEach((i, k) => {
        answers[i] = scheduled[k];
      });
      countBulkRefusals(
        refusals,
        lines.map((line) => line.value),
        answers as LineAnswer[],
      );
      return {
        results: lines.map((line, i) => ({
          external_account_number: externalAccountNumberOf(line.value),
          ...(answers[i] as LineAnswer),
        })),
      };
    },
  );
};

/** Most accounts one bulk request may carry. */
export const MAX_BULK_ACCOUNTS = 1_000;
/** The largest bulk request body: about 32 KiB an account. */
export const BULK_BODY_LIMIT_BYTES = 32 * 1024 * 1024;

const BulkResult = Type.Object({
  external_account_number: Type.Union([Type.String(), Type.Null()], {
    description: 'As the line names it (bare or wrapped); null when it names none or cannot be read.',
  }),
  status: Type.Union([Type.Literal(201), Type.Literal(400), Type.Literal(403), Type.Literal(413)], {
    description: 'The status the create endpoint would have answered for this account alone.',
  }),
  body: AnyOf(
    ['AccountAlreadyImported', 'ValidationError', 'Error', 'BulkCreated'],
    "The create endpoint's body for this account: {} when scheduled.",
  ),
});

const BulkValidateResult = Type.Object({
  external_account_number: Type.Union([Type.String(), Type.Null()], {
    description: 'As the line names it (bare or wrapped); null when it names none or cannot be read.',
  }),
  status: Type.Union([Type.Literal(200), Type.Literal(400), Type.Literal(403), Type.Literal(413)], {
    description: 'The status the validate endpoint would have answered for this account alone.',
  }),
  body: AnyOf(
    ['ValidationError', 'Error', 'BulkValid'],
    "The validate endpoint's body for this account: {} when valid.",
  ),
});

/** The body and answers of a bulk route: up to 1,000 accounts, one result each, in order. */
function bulkSchemas(result: TSchema) {
  return {
    body: documentedOnly({
      content: {
        'application/json': { schema: Type.Array(AccountBody, { maxItems: MAX_BULK_ACCOUNTS }) },
        'application/x-ndjson': {
          schema: Type.String({ description: 'One account (bare or wrapped) per line.' }),
        },
      },
    } as unknown as TSchema),
    response: {
      200: Type.Object(
        { results: Type.Array(result) },
        { description: 'One result per account, in the order sent.' },
      ),
      400: BadRequest,
      ...bodyErrorResponses,
      ...authErrorResponses,
    },
  };
}

/** The bodies of a bulk request, one per account; a request that is not a list is refused whole. */
function bulkLinesOf(body: unknown): BodyLine[] {
  if (!(body instanceof BodyLines)) {
    throw validationFailed(
      'validation_error',
      [item('', 'invalid', 'Expected a JSON array of accounts, or NDJSON (one account per line).')],
      'The request body is not a list of accounts.',
    );
  }
  if (body.lines.length > MAX_BULK_ACCOUNTS) {
    throw validationFailed(
      'validation_error',
      [item('', 'too_many_items', `Ensure this list has no more than ${MAX_BULK_ACCOUNTS} items.`)],
      `A bulk request carries at most ${MAX_BULK_ACCOUNTS} accounts.`,
    );
  }
  return body.lines;
}

/** The external account number a body names, bare or wrapped, when it is a string. */
function externalAccountNumberOf(body: unknown): string | null {
  if (!isJsonObject(body)) return null;
  const account = isJsonObject(body.payload) ? body.payload : body;
  return typeof account.external_account_number === 'string' ? account.external_account_number : null;
}
