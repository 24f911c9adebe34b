import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import {
  emailOutboxSummary,
  OUTBOX_VIEW_STATES,
  type OutboxViewState,
} from '../accounts/welcome-emails/outbox.queries.ts';
import { AdminObject, BadRequest } from '../http/schemas.ts';
import type { Db } from '../infra/db/db.ts';

const Query = Type.Object(
  {
    // Text, as every query parameter arrives (the validator coerces nothing): 0 to 1000.
    failures: Type.Optional(
      Type.String({
        pattern: '^(?:[0-9]{1,3}|1000)$',
        description: 'How many of the latest failures to list, 0 to 1000 (default 100).',
      }),
    ),
  },
  { additionalProperties: false },
);

const OutboxView = AdminObject(
  {
    counts: Type.Object(
      Object.fromEntries(OUTBOX_VIEW_STATES.map((s) => [s, Type.Integer()])) as Record<
        OutboxViewState,
        ReturnType<typeof Type.Integer>
      >,
      {
        description:
          "E-mails per state: HELD (waiting for their wave's approval, not a delivery problem), PENDING (due, or retrying later), SENDING, SENT, FAILED.",
      },
    ),
    retrying: Type.Integer({ description: 'PENDING e-mails whose last attempt failed transiently.' }),
    held: Type.Array(
      AdminObject({
        supplier: Type.String(),
        wave: Type.String(),
        emails: Type.Integer({ description: 'Welcome e-mails held until the wave is approved.' }),
      }),
      { description: 'The HELD e-mails per supplier and wave.' },
    ),
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
        summary: 'E-mail delivery: counts per state, held e-mails per wave and the latest permanent failures',
        querystring: Query,
        response: { 200: OutboxView, 400: BadRequest },
      },
    },
    async (request) => emailOutboxSummary(db, Number(request.query.failures ?? 100)),
  );
};
