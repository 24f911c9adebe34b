import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
/**
 * The real deployments' V1 account endpoints: validate-account, account-import-process
 * create-or-update (stage) and process (docs/product.md, V1 account endpoints; docs/decisions/0018).
 */
import { Type } from '@sinclair/typebox';
import type { FerryConfig } from '../../config.ts';
import { throttled } from '../../errors/error-catalogue.ts';
import { checkedInService } from '../../http/json-body.ts';
import { AnyOf, authErrorResponses, bodyErrorResponses } from '../../http/schemas.ts';
import type { Db } from '../../infra/db/db.ts';
import type { SupplierCache } from '../../suppliers/suppliers.queries.ts';
import { logProcessEvents } from '../process-event-log.ts';
import { countingRefusal, type RefusalRecorder } from '../refusals/schedule-refusals.ts';
import {
  ProcessRequestSchema,
  processStagedAccount,
  stageAccount,
  validateAccountV1,
} from './staging.service.ts';

// Documented here, validated by the payload module (our codes and attr paths), as on V2.
const AccountRef = Type.Unsafe({ $ref: 'AccountPayload' });

const AlreadyImportedOrError = AnyOf(
  ['AccountAlreadyImportedV1', 'ValidationError', 'Error'],
  'The account exists, or a validation or state error.',
);

const StagedProcess = Type.Object({
  external_account_number: Type.String(),
  import_supplier_code: Type.String(),
});

const ProcessedAccount = Type.Object({
  external_account_number: Type.String(),
  service_account_number: Type.String(),
  account_number: Type.String({ description: 'Deprecated: the same as service_account_number.' }),
});

export const stagedImportRoutes: FastifyPluginAsyncTypebox<{
  db: Db;
  config: FerryConfig;
  suppliers: SupplierCache;
  /** Counts refusals at staging, with those of the V2 routes that register these. */
  refusals: RefusalRecorder;
}> = async (app, { db, config, suppliers, refusals }) => {
  app.post(
    '/v1/data-import/validate-account/',
    {
      ...checkedInService({ writesNothing: true }),
      schema: {
        tags: ['account import'],
        summary: 'Validate account data and answer it as validated (V1)',
        description: 'The account itself is the body. 200 with the validated, normalised account.',
        body: AccountRef,
        response: {
          200: AccountRef,
          400: AlreadyImportedOrError,
          ...bodyErrorResponses,
          ...authErrorResponses,
        },
      },
    },
    async (request) => validateAccountV1(db, suppliers, request.body, config.serviceTimezone),
  );

  app.post(
    '/v1/data-import/account-import-process/create-or-update/',
    {
      ...checkedInService(),
      schema: {
        tags: ['account import'],
        summary: 'Stage account data without creating the account',
        description:
          'Validated like validate-account, then kept: 201 the first time, 200 when it replaces staged data. ' +
          'No worker takes staged data; the process endpoint turns it into an account.',
        body: AccountRef,
        response: {
          200: StagedProcess,
          201: StagedProcess,
          400: AlreadyImportedOrError,
          ...bodyErrorResponses,
          ...authErrorResponses,
        },
      },
    },
    async (request, reply) => {
      const { created, ...staged } = await countingRefusal(refusals, request.body, () =>
        stageAccount(db, suppliers, request.body, config.serviceTimezone),
      );
      logProcessEvents(request.log, 'stage', [
        { supplier: staged.import_supplier_code, externalAccountNumber: staged.external_account_number },
      ]);
      return reply.code(created ? 201 : 200).send(staged);
    },
  );

  const inFlight = new InFlightCounter(config.processInFlightPerSupplier);
  app.post(
    '/v1/data-import/account-import-process/process/',
    {
      schema: {
        tags: ['account import'],
        summary: 'Create the account from staged data, in this request',
        description:
          `Re-validates the staged data and creates the account. At most ${config.processInFlightPerSupplier} accounts of one ` +
          'supplier are created this way at once: beyond that, 429 with Retry-After.',
        body: ProcessRequestSchema,
        response: {
          201: ProcessedAccount,
          400: AlreadyImportedOrError,
          ...bodyErrorResponses,
          ...authErrorResponses,
        },
      },
    },
    async (request, reply) => {
      const { body } = request;
      if (!inFlight.take(body.import_supplier_code)) throw throttled(1);
      try {
        const deps = { db, suppliers, timeZone: config.serviceTimezone, log: request.log };
        return reply.code(201).send(await processStagedAccount(deps, body));
      } finally {
        inFlight.release(body.import_supplier_code);
      }
    },
  );
};

/** How many requests per key are running, refusing a new one at the limit (this process only). */
export class InFlightCounter {
  readonly #running = new Map<string, number>();
  constructor(readonly limit: number) {}

  /** True, counted, when below the limit; false when the key is at it. */
  take(key: string): boolean {
    const running = this.#running.get(key) ?? 0;
    if (running >= this.limit) return false;
    this.#running.set(key, running + 1);
    return true;
  }

  release(key: string): void {
    const left = (this.#running.get(key) ?? 1) - 1;
    if (left <= 0) this.#running.delete(key);
    else this.#running.set(key, left);
  }
}
