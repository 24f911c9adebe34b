import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { CredentialThrottle } from '../auth/credential-throttle.ts';
import { secretsEqual } from '../auth/operator-key.ts';
import { apiError, throttled } from '../errors/error-catalogue.ts';
import type { Db } from '../infra/db/db.ts';
import { CONTENT_SECURITY_POLICY, signInPage } from './layout.ts';
import {
  closeSession,
  type DashboardSession,
  findSession,
  openSession,
  SESSION_COOKIE,
  SESSION_TTL_MS,
} from './sessions.ts';

export const SIGN_IN_PATH = '/dashboard/sign-in';

const sessions = new WeakMap<FastifyRequest, DashboardSession>();

/** The session of a request that passed the guard. */
export function sessionOf(request: FastifyRequest): DashboardSession {
  const s = sessions.get(request);
  if (!s) throw new Error('dashboard page without a session (is it outside the guarded scope?)');
  return s;
}

/** Every dashboard answer: HTML (or JSON) that is never cached and never framed. */
export function sendPage(reply: FastifyReply, body: unknown, status = 200) {
  return reply
    .code(status)
    .type('text/html; charset=utf-8')
    .header('content-security-policy', CONTENT_SECURITY_POLICY)
    .header('cache-control', 'no-store')
    .header('referrer-policy', 'same-origin')
    .header('x-content-type-options', 'nosniff')
    .send(String(body));
}

function setSessionCookie(request: FastifyRequest, reply: FastifyReply, value: string, maxAge: number) {
  reply.setCookie(SESSION_COOKIE, value, {
    path: '/dashboard',
    httpOnly: true,
    sameSite: 'strict',
    // Behind a TLS-terminating proxy, set trustProxy so the protocol is seen as https.
    secure: request.protocol === 'https',
    maxAge,
  });
}

const SignInBody = Type.Object(
  {
    key: Type.String({ maxLength: 1024 }),
    // Who is signing in, recorded on their acts (a wave's approval, its rollback); optional.
    name: Type.Optional(Type.String({ maxLength: 200 })),
  },
  { additionalProperties: false },
);
const CsrfOnly = Type.Object({ _csrf: Type.String({ maxLength: 128 }) }, { additionalProperties: false });

/** Sign-in and sign-out: the only dashboard routes reachable without a session (sign-out needs one). */
export const signInRoutes: FastifyPluginAsyncTypebox<{
  db: Db;
  operatorKey: string;
  throttle: CredentialThrottle;
}> = async (app, { db, operatorKey, throttle }) => {
  const hide = true;
  app.get('/sign-in', { schema: { hide } }, async (request, reply) => {
    if (await findSession(db, request.cookies[SESSION_COOKIE])) return reply.redirect('/dashboard/', 303);
    return sendPage(reply, signInPage(null));
  });

  // The same throttle as the admin API's operator key: failures from one address add up across both.
  app.post('/sign-in', { schema: { hide, body: SignInBody } }, async (request, reply) => {
    const wait = await throttle.retryAfter(request.ip);
    if (wait > 0) throw throttled(wait);
    if (!secretsEqual(request.body.key, operatorKey)) {
      await throttle.recordFailure(request.ip);
      request.log.info({ event: 'dashboard_sign_in_failed' }, 'dashboard sign-in refused');
      return sendPage(reply, signInPage('The operator key is not valid.'), 401);
    }
    const session = await openSession(db, { operatorName: request.body.name?.trim() });
    setSessionCookie(request, reply, session.id, SESSION_TTL_MS / 1000);
    request.log.info({ event: 'dashboard_signed_in' }, 'operator signed in to the dashboard');
    return reply.redirect('/dashboard/', 303);
  });

  app.post('/sign-out', { schema: { hide, body: CsrfOnly } }, async (request, reply) => {
    const id = request.cookies[SESSION_COOKIE];
    const session = await findSession(db, id);
    if (session) {
      checkCsrf(session, request.body._csrf);
      await closeSession(db, id);
    }
    setSessionCookie(request, reply, '', 0);
    return reply.redirect(SIGN_IN_PATH, 303);
  });
};

/** What every dashboard form carries (each form's body schema lists `_csrf` as well). */
const CsrfForm = Type.Object({ _csrf: Type.String() });

function checkCsrf(session: DashboardSession, token: string | undefined) {
  if (token === undefined || !secretsEqual(token, session.csrfToken)) {
    throw apiError(
      'permission_denied',
      'The form did not carry this session’s token (it may come from another site, or from before you signed in again). Reload the page and try again.',
    );
  }
}

/**
 * Guards a scope of dashboard pages. Without a live session a page visit goes to the sign-in
 * form; anything else is refused (401). Every POST must carry the session's CSRF token in
 * `_csrf`: the cookie is SameSite=Strict already, the token is the second lock. Runs before
 * validation, so a stranger learns nothing about a form from its validation errors.
 */
export function guardWithSession(scope: FastifyInstance, db: Db) {
  scope.addHook('preValidation', async (request, reply) => {
    const session = await findSession(db, request.cookies[SESSION_COOKIE]);
    if (!session) {
      if (request.method === 'GET' && !request.url.endsWith('.json'))
        return reply.redirect(SIGN_IN_PATH, 303);
      throw apiError('not_authenticated', 'Sign in to the dashboard first.');
    }
    if (request.method === 'POST') {
      // The route's own schema has not run yet: CsrfForm alone checks, and types, the token.
      checkCsrf(session, Value.Check(CsrfForm, request.body) ? request.body._csrf : undefined);
    }
    sessions.set(request, session);
  });
}
