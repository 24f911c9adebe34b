import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import exampleAccount from '../../examples/account.json' with { type: 'json' };
import { AccountPayloadSchema, TaskParamsSchema } from '../accounts/payload/account-payload.schema.ts';
import type { FerryConfig } from '../config.ts';
import { checkedInService } from '../http/json-body.ts';
import { authErrorResponses, ErrorRef, OneOf } from '../http/schemas.ts';
import type { Db } from '../infra/db/db.ts';
import type { SupplierCache } from '../suppliers/suppliers.queries.ts';
import { scheduleAccountCreation, validateAccount } from './account-import.service.ts';
import { processStager } from './import-process.queries.ts';
import { stagedImportRoutes } from './staged-import.routes.ts';

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
  const stage = processStager(db);
  app.addSchema({ ...AccountPayloadSchema, $id: 'AccountPayload', examples: [exampleAccount] });
  // The V1 account endpoints share the payload schema registered above.
  await app.register(stagedImportRoutes, { db, config, suppliers });

  app.post(
    '/v2/data-import/accounts/validate/',
    {
      ...checkedInService({ accountEnvelope: true }),
      schema: {
        tags: ['account import'],
        summary: 'Validate account data (nothing is created)',
        description:
          'The account payload, bare or wrapped as {payload}. 200 {} when valid; otherwise every error at once.',
        body: AccountBody,
        response: { 200: Type.Object({}), 400: ErrorRef, ...authErrorResponses },
      },
    },
    async (request) => {
      await validateAccount(suppliers, request.body, config.serviceTimezone);
      return {};
    },
  );

  app.post(
    '/v2/data-import/accounts/',
    {
      ...checkedInService({ accountEnvelope: true }),
      schema: {
        tags: ['account import'],
        summary: 'Schedule account creation',
        description:
          'Validates, then stages the account; a worker creates it asynchronously (poll the status endpoint). ' +
          'Re-sending a PENDING, ERRORED, CANCELLED or DRY_RUN_* account replaces its data.',
        body: AccountBody,
        response: {
          201: Type.Object({}),
          400: OneOf(
            ['Error', 'AccountAlreadyImported'],
            'A validation or state error, or the account exists.',
          ),
          ...authErrorResponses,
        },
      },
    },
    async (request, reply) => {
      await scheduleAccountCreation(db, suppliers, stage, request.body, config.serviceTimezone);
      return reply.code(201).send({});
    },
  );
};
