import swagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import {
  ITEM_CODES,
  renderErrorCodeReference,
  TOP_LEVEL_CODES,
  TRANSACTION_REFUSAL_CODES,
  VALIDATION_FAILURE_CODES,
} from '../errors/error-code-reference.ts';
import { registerApiReferencePage } from './api-reference-page.ts';
import { nameSchemaParts } from './openapi-components.ts';
import { operationIdOf } from './operation-ids.ts';
import { ERROR_BODY_SCHEMAS } from './schemas.ts';

const DESCRIPTION = `Ferry imports customer accounts from an import supplier: validate account data, schedule
account creation (done asynchronously by workers), follow its status, then attach notes, ledger
transactions, historical statements and payment instructions to imported accounts.

Authentication: obtain a token with the GraphQL mutation at \`POST /v1/graphql/\`
(\`mutation { obtainToken(input: {APIKey: "..."}) { token refreshToken refreshExpiresIn } }\`)
and send it as \`Authorization: Token <token>\`. Tokens last 60 minutes.

Errors: every error body is JSON \`{detail, code}\`; validation errors add \`errors: [{detail, code, attr}]\`
with \`attr\` a dot-delimited path from the payload root. Codes are stable; details are for people.
Every code, what it means and what to do: the Error codes section.`;

/** The reference section: a tag of its own with no operations (Redoc's \`x-traitTag\`). */
const ERROR_CODES_TAG = {
  name: 'Error codes',
  description: renderErrorCodeReference(),
  'x-traitTag': true,
};

/**
 * The codes each error schema's \`code\` can take, as an \`x-codes\` list (machine-readable) and a
 * pointer to the reference. Not an \`enum\`: a client generated with one would reject a code added
 * later (decision 0059).
 */
const CODE_LISTS: Record<string, readonly string[]> = {
  Error: TOP_LEVEL_CODES,
  ValidationError: VALIDATION_FAILURE_CODES,
  PaymentInstructionError: TOP_LEVEL_CODES,
  PaymentInstructionValidationError: ['validation_error'],
  TransactionImportError: TRANSACTION_REFUSAL_CODES,
  ErrorItem: ITEM_CODES,
};

function listErrorCodes(document: Record<string, unknown>) {
  const schemas = ((document.components as { schemas?: unknown } | undefined)?.schemas ?? {}) as Record<
    string,
    { properties?: Record<string, Record<string, unknown>> }
  >;
  for (const [name, codes] of Object.entries(CODE_LISTS)) {
    const code = schemas[name]?.properties?.code;
    if (!code) continue;
    code.description = `${code.description ?? ''} Every code is listed in x-codes and explained in the Error codes section of the API reference (/docs).`;
    code['x-codes'] = [...codes];
  }
}

const RESPONSE_DESCRIPTIONS: Record<string, string> = {
  '200': 'OK',
  '201': 'Created',
  '204': 'No content',
  '2XX': 'OK',
  '400': 'The request is not valid; nothing was changed.',
  '401': 'No, or no valid, credentials.',
  '403': 'The credentials do not cover this import supplier.',
  '404': 'Not found.',
  '413': 'The body is larger than 5 MiB.',
  '415': 'The body is not JSON.',
  '429': 'Too many requests: retry after the Retry-After header.',
  '500': 'A server or vendor error: safe to retry unchanged.',
  '503': 'The service is temporarily unavailable: retry after the Retry-After header.',
};

/**
 * Names every operation (operation-ids.ts) and documents the GraphQL endpoint's one mutation;
 * GraphQL's GET form is left out of the document.
 */
function describeOperations(app: FastifyInstance) {
  app.addHook('onRoute', (route) => {
    const methods = [route.method].flat();
    if (route.url === '/v1/graphql/' || route.url === '/graphql') {
      route.schema = !methods.includes('POST')
        ? { ...route.schema, hide: true }
        : {
            ...route.schema,
            body: graphqlBody(route.schema?.body),
            tags: ['authentication'],
            summary: 'Obtain a token (GraphQL mutation obtainToken)',
            description: 'The only unauthenticated operation: exchange an API key for a token.',
            security: [],
          };
    }
    const operationId = operationIdOf(String(methods[0]), route.url);
    if (operationId && !route.schema?.hide) route.schema = { ...route.schema, operationId };
  });
}

/** GraphQL's `variables` are free-form: say so, or generated clients type them as empty objects. */
function graphqlBody(body: unknown) {
  if (!body || typeof body !== 'object') return body;
  const schema = body as { properties?: Record<string, Record<string, unknown>> };
  const variables = schema.properties?.variables;
  if (!variables) return body;
  return {
    ...schema,
    properties: { ...schema.properties, variables: { ...variables, additionalProperties: true } },
  };
}

/**
 * GraphQL's answer names what the one mutation gives (`data.obtainToken`), so a generated client
 * reads the token without a cast. In the document only: the route's own schema, which serializes
 * the answer, stays mercurius's. Each field is optional, as a query selects the fields it wants.
 */
function describeGraphqlAnswer(document: Record<string, unknown>) {
  const paths = (document.paths ?? {}) as Record<string, Record<string, Record<string, unknown>>>;
  const responses = (paths['/v1/graphql/']?.post?.responses ?? {}) as Record<
    string,
    { content?: Record<string, { schema?: { properties?: Record<string, unknown> } }> }
  >;
  for (const response of Object.values(responses)) {
    const properties = response.content?.['application/json']?.schema?.properties;
    if (!properties?.data) continue;
    properties.data = {
      type: ['object', 'null'],
      description: 'What the operation selected: `obtainToken` for the mutation, `ok` for the query.',
      properties: {
        obtainToken: {
          type: ['object', 'null'],
          properties: {
            token: {
              type: 'string',
              description: "Send it as 'Authorization: Token <token>'. Valid 60 minutes.",
            },
            refreshToken: { type: 'string' },
            refreshExpiresIn: {
              type: 'integer',
              description: 'Unix time (seconds) at which refreshToken expires.',
            },
          },
        },
        ok: { type: 'boolean' },
      },
    };
  }
}

/** Response descriptions by status instead of @fastify/swagger's "Default Response". */
function describeResponses(document: Record<string, unknown>) {
  const paths = (document.paths ?? {}) as Record<
    string,
    Record<string, { responses?: Record<string, { description?: string }> }>
  >;
  for (const operations of Object.values(paths)) {
    for (const operation of Object.values(operations)) {
      for (const [status, response] of Object.entries(operation.responses ?? {})) {
        if (response.description === 'Default Response')
          response.description = RESPONSE_DESCRIPTIONS[status] ?? 'See the body.';
      }
    }
  }
  return document;
}

/** Generates the OpenAPI 3.1 document from the route schemas: /openapi.json and /docs. */
export async function registerOpenApi(app: FastifyInstance) {
  for (const schema of ERROR_BODY_SCHEMAS) app.addSchema(schema);
  describeOperations(app);
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Ferry data-import API',
        version: '1.0.0',
        description: DESCRIPTION,
        license: { name: 'Proprietary', identifier: 'LicenseRef-Ferry' },
      },
      servers: [{ url: '/', description: 'This service' }],
      components: {
        securitySchemes: {
          token: { type: 'apiKey', in: 'header', name: 'Authorization', description: 'Token <access token>' },
          operator: { type: 'http', scheme: 'bearer', description: 'The operator API key (admin API only).' },
        },
      },
      tags: [
        { name: 'account import', description: 'Validate, schedule and follow account creation.' },
        { name: 'query', description: "Lists of a supplier's import processes." },
        { name: 'post account import', description: 'Data attached to imported accounts.' },
        { name: 'events', description: 'What happened, as a feed, a live stream or webhooks.' },
        { name: 'authentication', description: 'Tokens for the data-import API.' },
        { name: 'admin', description: "The operator's API." },
        ERROR_CODES_TAG,
      ],
    },
    refResolver: { buildLocalReference: (json, _base, _fragment, i) => (json.$id as string) || `def-${i}` },
    transformObject: (document) => {
      const openapi = 'openapiObject' in document ? (document.openapiObject as Record<string, unknown>) : {};
      nameSchemaParts(openapi, 'AccountPayload');
      listErrorCodes(openapi);
      describeGraphqlAnswer(openapi);
      return describeResponses(openapi);
    },
  });

  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  registerApiReferencePage(app);
}
