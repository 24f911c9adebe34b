import type { FastifyInstance, FastifyReply } from 'fastify';
import mercurius from 'mercurius';
import type { Db } from '../infra/db/db.ts';
import { verifyApiKey } from './api-keys.ts';
import type { CredentialThrottle } from './credential-throttle.ts';
import type { KeyScopes } from './key-scopes.ts';
import type { TokenService } from './tokens.ts';

const schema = /* GraphQL */ `
  input ObtainTokenInput {
    "An API key issued by the operator."
    APIKey: String
    "A refresh token from an earlier obtainToken."
    refreshToken: String
  }
  type ObtainToken {
    "Access token for the REST API: send it as 'Authorization: Token <token>'. Valid 60 minutes."
    token: String!
    refreshToken: String!
    "Unix time (seconds) at which refreshToken expires."
    refreshExpiresIn: Int!
  }
  type Query {
    "Liveness of the GraphQL endpoint."
    ok: Boolean!
  }
  type Mutation {
    obtainToken(input: ObtainTokenInput!): ObtainToken!
  }
`;

const fail = (code: string, message: string) => new mercurius.ErrorWithProps(message, { code }, 200);

/**
 * Too many failed checks from this address: a GraphQL error like every other answer of this
 * endpoint, with HTTP 429 and Retry-After (docs/decisions/0020-credential-throttling.md).
 */
function throttledError(reply: FastifyReply, retryAfter: number) {
  reply.header('retry-after', String(retryAfter));
  return new mercurius.ErrorWithProps(
    'Too many failed credential checks from this address; retry later.',
    { code: 'throttled', retry_after: retryAfter },
    429,
  );
}

/** `POST /v1/graphql/`: the obtainToken mutation, by API key or by refresh token. */
export async function registerTokenMutation(
  app: FastifyInstance,
  deps: { db: Db; tokens: TokenService; keyScopes: KeyScopes; throttle: CredentialThrottle },
) {
  await app.register(mercurius, {
    schema,
    path: '/v1/graphql/',
    graphiql: false,
    jit: 1,
    resolvers: {
      Query: { ok: () => true },
      Mutation: {
        obtainToken: async (
          _: unknown,
          { input }: { input: { APIKey?: string; refreshToken?: string } },
          { reply }: { reply: FastifyReply },
        ) => {
          if ((input.APIKey ? 1 : 0) + (input.refreshToken ? 1 : 0) !== 1) {
            throw fail('invalid_input', 'Give exactly one of APIKey or refreshToken.');
          }
          // Checked per field, not per request: one document may alias obtainToken many times.
          const address = reply.request.ip;
          const wait = await deps.throttle.retryAfter(address);
          if (wait > 0) throw throttledError(reply, wait);
          if (input.APIKey) {
            const scope = await verifyApiKey(deps.db, input.APIKey);
            if (!scope) {
              await deps.throttle.recordFailure(address);
              throw fail('invalid_api_key', 'Invalid API key.');
            }
            return deps.tokens.issue(scope.id);
          }
          const keyId = await deps.tokens.verify(input.refreshToken!, 'refresh');
          if (keyId === null) {
            await deps.throttle.recordFailure(address);
            throw fail('invalid_refresh_token', 'Invalid or expired refresh token.');
          }
          // A refresh token of a revoked key is worthless.
          if ((await deps.keyScopes.active(keyId)) === null) {
            throw fail('invalid_refresh_token', 'The API key behind this refresh token has been revoked.');
          }
          return deps.tokens.issue(keyId);
        },
      },
    },
  });
}
