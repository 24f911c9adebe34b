import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import {
  emailOutboxSummary,
  OUTBOX_STATUSES,
  type OutboxStatus,
} from '../accounts/welcome-emails/outbox.queries.ts';
import { AdminObject } from '../http/schemas.ts';
import type { Db } from '../infra/db/db.ts';

const Query = Type.Object(
  {
    failures: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: 1000,
        default: 100,
        description: 'How many of the latest failures to list.',
      }),
    ),
  },
  { additionalProperties: false },
);

const OutboxView = AdminObject(
  {
    counts: Type.Object(
      Object.fromEntries(OUTBOX_STATUSES.map((s) => [s, Type.Integer()])) as Record<
        OutboxStatus,
        ReturnType<typeof Type.Integer>
      >,
      { description: 'E-mails per state: PENDING (waiting, or retrying later), SENDING, SENT, FAILED.' },
    ),
    retrying: Type.Integer({ description: 'PENDING e-mails whose last attempt failed transiently.' }),
    failures: Type.Array(
      AdminObject({
        id: Type.String(),
        account_number: Type.String(),
        supplier: Type.String(),
        kind: Type.String(),
        recipient: Type.Union([Type.String(), Type.Null()]),
        attempts: Type.Integer(),
        reason: Type.String({ description: "The SMTP server's reply, or why Ferry gave up." }),
        failed_at: Type.String({ format: 'date-time' }),
      }),
      { description: 'Permanent failures (never retried), newest first.' },
    ),
  },
  'The e-mail outbox: delivery states and permanent failures.',
);

export const emailOutboxAdminRoutes: FastifyPluginAsyncTypebox<{ db: Db }> = async (app, { db }) => {
  app.get(
    '/email-outbox/',
    {
      schema: {
        tags: ['admin'],
        summary: 'E-mail delivery: counts per state and the latest permanent failures',
        querystring: Query,
        response: { 200: OutboxView },
      },
    },
    async (request) => emailOutboxSummary(db, request.query.failures ?? 100),
  );
};
