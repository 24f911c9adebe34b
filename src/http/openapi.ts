import swagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import { registerApiReferencePage } from './api-reference-page.ts';
import { ErrorBodySchema } from './schemas.ts';

const DESCRIPTION = `Ferry imports customer accounts from an import supplier: validate account data, schedule
account creation (done asynchronously by workers), follow its status, then attach notes, ledger
transactions, historical statements and payment instructions to imported accounts.

Authentication: obtain a token with the GraphQL mutation at \`POST /v1/graphql/\`
(\`mutation { obtainToken(input: {APIKey: "..."}) { token refreshToken refreshExpiresIn } }\`)
and send it as \`Authorization: Token <token>\`. Tokens last 60 minutes.

Errors: every error body is JSON \`{detail, code}\`; validation errors add \`errors: [{detail, code, attr}]\`
with \`attr\` a dot-delimited path from the payload root. Codes are stable; details are for people.`;

/** Generates the OpenAPI 3.1 document from the route schemas: /openapi.json and /docs. */
export async function registerOpenApi(app: FastifyInstance) {
  app.addSchema(ErrorBodySchema);
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Ferry data-import API', version: '1.0.0', description: DESCRIPTION },
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
        { name: 'admin', description: "The operator's API." },
      ],
    },
    refResolver: { buildLocalReference: (json, _base, _fragment, i) => (json.$id as string) || `def-${i}` },
  });

  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  registerApiReferencePage(app);
}
