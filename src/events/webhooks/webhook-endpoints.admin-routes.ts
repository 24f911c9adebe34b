/**
 * The operator's webhook endpoints under /admin/v1/webhook-endpoints/ (decision 0072): register
 * one (its secret answered only then), list, read, enable or disable, delete, its recent
 * deliveries with their attempts, and a test event. Thin: each route calls webhook-endpoints.ts.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { notFound } from '../../errors/error-catalogue.ts';
import { AdminObject, BadRequest, ErrorRef, NoContent } from '../../http/schemas.ts';
import type { Db } from '../../infra/db/db.ts';
import {
  createEndpoint,
  findEndpoint,
  listEndpoints,
  queueTestEvent,
  recentDeliveries,
  removeEndpoint,
  setEnabled,
} from './webhook-endpoints.ts';

const DateTime = Type.String({ format: 'date-time' });
const NullableDateTime = Type.Union([DateTime, Type.Null()]);

const CreateBody = Type.Object(
  {
    url: Type.String({
      minLength: 1,
      maxLength: 2048,
      description: 'Where each event is POSTed: an http or https URL (`invalid_webhook_url` otherwise).',
    }),
    import_suppliers: Type.Array(Type.String({ pattern: '^([A-Za-z0-9_-]{1,64}|\\*)$' }), {
      minItems: 1,
      maxItems: 1000,
      description:
        'The suppliers whose events it hears, or ["*"] for every supplier. A code that names no import supplier is refused (`import_supplier_not_found`).',
    }),
    types: Type.Optional(
      Type.Union([Type.Array(Type.String(), { maxItems: 100 }), Type.Null()], {
        description:
          'Only these event types (`unknown_event_type` for a name the feed does not have); all when left out.',
      }),
    ),
  },
  { additionalProperties: false },
);

const endpointFields = {
  id: Type.String({ format: 'uuid' }),
  url: Type.String(),
  import_suppliers: Type.Array(Type.String(), {
    description: 'Supplier codes, or ["*"] for every supplier.',
  }),
  types: Type.Union([Type.Array(Type.String()), Type.Null()], { description: 'Event types; null for all.' }),
  enabled: Type.Boolean(),
  created_at: DateTime,
};

const EndpointView = AdminObject(
  {
    ...endpointFields,
    failing_since: Type.Union([DateTime, Type.Null()], {
      description:
        'Its first failed attempt since its last delivery; after 24 hours of failures it is disabled.',
    }),
    disabled_at: NullableDateTime,
    disabled_reason: Type.Union([Type.String(), Type.Null()], {
      description: 'Why it is disabled: by the operator, or since when every delivery failed.',
    }),
    pending: Type.Integer({ description: 'Deliveries waiting to go out (due, retrying, or in flight).' }),
    failed: Type.Integer({ description: 'Deliveries given up after 72 hours of failed attempts.' }),
  },
  'A webhook endpoint (never its secret).',
);

const CreatedEndpoint = AdminObject(
  {
    ...endpointFields,
    secret: Type.String({
      description:
        'The key of Ferry-Signature (HMAC-SHA256 over "<t>.<raw body>"): shown only in this answer, keep it.',
    }),
  },
  'The new endpoint, with its secret (shown only here).',
);

const DeliveryView = AdminObject(
  {
    id: Type.String(),
    event_id: Type.String({ description: 'The event’s id: the Ferry-Event-Id header.' }),
    type: Type.String(),
    state: Type.String({ enum: ['pending', 'delivered', 'failed'] }),
    created_at: DateTime,
    next_attempt_at: Type.Union([DateTime, Type.Null()], { description: 'When pending: the next attempt.' }),
    delivered_at: NullableDateTime,
    failed_at: NullableDateTime,
    attempts: Type.Array(
      AdminObject({
        at: DateTime,
        status_code: Type.Union([Type.Integer(), Type.Null()], {
          description: 'The receiver’s status; null when none came (timeout, connection refused).',
        }),
        error: Type.Union([Type.String(), Type.Null()], { description: 'Why it failed; null for a 2xx.' }),
        duration_ms: Type.Integer(),
      }),
      { description: 'Every attempt, oldest first.' },
    ),
  },
  'One event’s delivery to the endpoint.',
);

const Params = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });
const PatchBody = Type.Object(
  {
    enabled: Type.Boolean({
      description: 'false stops its deliveries (they wait); true resumes them and clears its failing state.',
    }),
  },
  { additionalProperties: false },
);
const DeliveriesQuery = Type.Object(
  {
    limit: Type.Optional(
      Type.String({
        pattern: '^([1-9][0-9]?|[1-4][0-9]{2}|500)$',
        description: 'How many, 1 to 500 (default 50).',
      }),
    ),
  },
  { additionalProperties: false },
);

const NO_ENDPOINT = 'No webhook endpoint has this id.';

export const webhookEndpointAdminRoutes: FastifyPluginAsyncTypebox<{ db: Db }> = async (app, { db }) => {
  const tags = ['admin'];

  app.post(
    '/webhook-endpoints/',
    {
      schema: {
        tags,
        summary: 'Register a webhook endpoint (its secret is shown only in this answer)',
        description:
          'It hears of every event from now on. Each event is POSTed alone as JSON with Ferry-Event-Id and Ferry-Signature headers; a 2xx within 10 s is delivered, anything else is retried for 72 hours.',
        body: CreateBody,
        response: { 201: CreatedEndpoint, 400: BadRequest },
      },
    },
    async (request, reply) => {
      const { url, import_suppliers, types } = request.body;
      const created = await createEndpoint(db, { url, importSuppliers: import_suppliers, types });
      // Where and what for, never the secret.
      request.log.info(
        {
          event: 'webhook_endpoint_created',
          endpointId: created.id,
          url,
          importSuppliers: created.import_suppliers,
        },
        'webhook endpoint created',
      );
      const { id, enabled, created_at } = created;
      return reply.code(201).send({
        id,
        url,
        import_suppliers: created.import_suppliers,
        types: created.types,
        enabled,
        created_at,
        secret: created.secret,
      });
    },
  );

  app.get(
    '/webhook-endpoints/',
    {
      schema: {
        tags,
        summary: 'List webhook endpoints with their pending and failed deliveries (never their secrets)',
        response: { 200: Type.Array(EndpointView) },
      },
    },
    async () => listEndpoints(db),
  );

  app.get(
    '/webhook-endpoints/:id/',
    {
      schema: {
        tags,
        summary: 'One webhook endpoint (never its secret)',
        params: Params,
        response: { 200: EndpointView, 404: ErrorRef },
      },
    },
    async (request) => {
      const endpoint = await findEndpoint(db, request.params.id);
      if (!endpoint) throw notFound(NO_ENDPOINT);
      return endpoint;
    },
  );

  app.patch(
    '/webhook-endpoints/:id/',
    {
      schema: {
        tags,
        summary: 'Enable or disable a webhook endpoint',
        params: Params,
        body: PatchBody,
        response: { 200: EndpointView, 400: BadRequest, 404: ErrorRef },
      },
    },
    async (request) => {
      const { id } = request.params;
      const { enabled } = request.body;
      if (!(await setEnabled(db, id, enabled))) throw notFound(NO_ENDPOINT);
      request.log.info(
        {
          event: enabled ? 'webhook_endpoint_enabled' : 'webhook_endpoint_disabled',
          endpointId: id,
          by: 'operator',
        },
        `webhook endpoint ${enabled ? 'enabled' : 'disabled'}`,
      );
      return (await findEndpoint(db, id))!;
    },
  );

  app.delete(
    '/webhook-endpoints/:id/',
    {
      schema: {
        tags,
        summary: 'Delete a webhook endpoint and its deliveries',
        params: Params,
        response: { 204: NoContent, 404: ErrorRef },
      },
    },
    async (request, reply) => {
      if (!(await removeEndpoint(db, request.params.id))) throw notFound(NO_ENDPOINT);
      request.log.info(
        { event: 'webhook_endpoint_deleted', endpointId: request.params.id },
        'webhook endpoint deleted',
      );
      return reply.code(204).send();
    },
  );

  app.get(
    '/webhook-endpoints/:id/deliveries/',
    {
      schema: {
        tags,
        summary: 'A webhook endpoint’s recent deliveries, newest first, each with its attempts',
        params: Params,
        querystring: DeliveriesQuery,
        response: { 200: Type.Array(DeliveryView), 400: BadRequest, 404: ErrorRef },
      },
    },
    async (request) => {
      const { id } = request.params;
      if (!(await findEndpoint(db, id))) throw notFound(NO_ENDPOINT);
      return recentDeliveries(db, id, Number(request.query.limit ?? 50));
    },
  );

  app.post(
    '/webhook-endpoints/:id/test/',
    {
      schema: {
        tags,
        summary: 'Send a test event (EVENT_WEBHOOK_TEST) to this endpoint only',
        params: Params,
        response: {
          202: AdminObject(
            { event_id: Type.String({ description: 'Its Ferry-Event-Id: `test_<uuid>`.' }) },
            'The test event is queued; its delivery shows in the endpoint’s deliveries.',
          ),
          404: ErrorRef,
        },
      },
    },
    async (request, reply) => {
      const eventId = await queueTestEvent(db, request.params.id);
      if (eventId === null) throw notFound(NO_ENDPOINT);
      return reply.code(202).send({ event_id: eventId });
    },
  );
};
