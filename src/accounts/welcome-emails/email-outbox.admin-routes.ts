import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { AdminObject } from '../../http/schemas.ts';
import { wireDatetime } from '../../http/wire-format.ts';
import type { Db } from '../../infra/db/db.ts';
import {
  countEmailsByStatus,
  type FailedEmail,
  listFailedEmails,
  OUTBOX_STATUSES,
  type OutboxStatus,
} from './outbox.queries.ts';

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
    async (request) => {
      const counts = Object.fromEntries(OUTBOX_STATUSES.map((s) => [s, 0])) as Record<OutboxStatus, number>;
      let retrying = 0;
      const byStatus = await db.query<{ status: OutboxStatus; n: number; with_error: number }>(
        countEmailsByStatus,
      );
      for (const row of byStatus.rows) {
        counts[row.status] = row.n;
        if (row.status === 'PENDING') retrying = row.with_error;
      }
      const failed = await db.query<FailedEmail>(listFailedEmails, [request.query.failures ?? 100]);
      return {
        counts,
        retrying,
        failures: failed.rows.map(({ last_error, failed_at, ...f }) => ({
          ...f,
          reason: last_error,
          failed_at: wireDatetime(failed_at),
        })),
      };
    },
  );
};
