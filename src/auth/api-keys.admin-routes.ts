import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { notFound } from '../errors/error-catalogue.ts';
import { AdminObject, BadRequest, ErrorRef, NoContent } from '../http/schemas.ts';
import type { Db } from '../infra/db/db.ts';
import { wireDatetime } from '../vocabulary/wire-datetime.ts';
import { type ApiKeyRecord, createApiKey, listApiKeys } from './api-keys.ts';
import type { KeyScopes } from './key-scopes.ts';

const CreateBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200 }),
    import_suppliers: Type.Array(Type.String({ pattern: '^([A-Za-z0-9_-]{1,64}|\\*)$' }), {
      minItems: 1,
      description:
        'Supplier codes this key may act for, or ["*"] for all. A code that names no import supplier is refused (`import_supplier_not_found`).',
    }),
  },
  { additionalProperties: false },
);

const keyView = (k: ApiKeyRecord) => ({
  id: k.id,
  name: k.name,
  import_suppliers: k.import_suppliers,
  created_at: wireDatetime(k.created_at),
  revoked_at: wireDatetime(k.revoked_at),
});

const ApiKeyView = AdminObject(
  {
    id: Type.String(),
    name: Type.String(),
    import_suppliers: Type.Array(Type.String(), { description: 'Supplier codes, or ["*"] for all.' }),
    created_at: Type.String({ format: 'date-time' }),
    revoked_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  },
  'An API key (its secret only in the answer that issues it).',
);

export const apiKeyAdminRoutes: FastifyPluginAsyncTypebox<{ db: Db; keyScopes: KeyScopes }> = async (
  app,
  { db, keyScopes },
) => {
  const tags = ['admin'];
  app.post(
    '/api-keys/',
    {
      schema: {
        tags,
        summary: 'Issue an API key (the key is shown only in this answer)',
        body: CreateBody,
        response: { 201: AdminObject({ ...ApiKeyView.properties, key: Type.String() }), 400: BadRequest },
      },
    },
    async (request, reply) => {
      const { body } = request;
      const k = await createApiKey(db, {
        name: body.name,
        importSuppliers: body.import_suppliers,
      });
      // Who and what for, never the key.
      request.log.info(
        { event: 'api_key_created', apiKeyId: k.id, name: k.name, importSuppliers: k.import_suppliers },
        'API key created',
      );
      return reply.code(201).send({ ...keyView(k), key: k.key });
    },
  );

  app.get(
    '/api-keys/',
    {
      schema: {
        tags,
        summary: 'List API keys (never the keys themselves)',
        response: { 200: Type.Array(ApiKeyView) },
      },
    },
    async () => (await listApiKeys(db)).map(keyView),
  );

  app.delete(
    '/api-keys/:id/',
    {
      schema: {
        tags,
        summary: 'Revoke an API key; its tokens stop working at once',
        params: Type.Object({ id: Type.String() }),
        response: { 204: NoContent, 404: ErrorRef },
      },
    },
    async (request, reply) => {
      if (!(await keyScopes.revoke(request.params.id))) throw notFound('No API key has that id.');
      request.log.info({ event: 'api_key_revoked', apiKeyId: request.params.id }, 'API key revoked');
      return reply.code(204).send();
    },
  );
};
