import type { FastifyInstance } from 'fastify';
import { OPERATOR_KEY } from './test-app.ts';

/** The session cookie of a Set-Cookie answer (name=value only). */
export function sessionCookie(setCookie: string | string[] | undefined): string {
  const first = [setCookie ?? []].flat().find((c) => c.startsWith('ferry_dashboard='));
  if (!first) throw new Error(`no session cookie in ${JSON.stringify(setCookie)}`);
  return first.split(';')[0];
}

/** The CSRF token a dashboard page's forms carry. */
export function csrfOf(page: string): string {
  const m = /name="_csrf" value="([^"]+)"/.exec(page);
  if (!m) throw new Error('no CSRF token on the page');
  return m[1];
}

export const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();

/** A signed-in operator driving the dashboard through inject (`name`: the name given at sign-in). */
export async function dashboardSession(app: FastifyInstance, opts: { name?: string } = {}) {
  const signIn = await app.inject({
    method: 'POST',
    url: '/dashboard/sign-in',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: form({ key: OPERATOR_KEY, ...(opts.name === undefined ? {} : { name: opts.name }) }),
  });
  if (signIn.statusCode !== 303) throw new Error(`sign-in answered ${signIn.statusCode}: ${signIn.body}`);
  const cookie = sessionCookie(signIn.headers['set-cookie']);
  const home = await app.inject({ method: 'GET', url: '/dashboard/', headers: { cookie } });
  const csrf = csrfOf(home.body);
  return {
    cookie,
    csrf,
    get: (url: string) => app.inject({ method: 'GET', url, headers: { cookie } }),
    /** Posts a form; the session's CSRF token is added unless `_csrf` is given (null leaves it out). */
    post: (url: string, fields: Record<string, string | null> = {}) => {
      const withToken: Record<string, string> = { _csrf: csrf };
      for (const [k, v] of Object.entries(fields)) {
        if (v === null) delete withToken[k];
        else withToken[k] = v;
      }
      return app.inject({
        method: 'POST',
        url,
        headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
        payload: form(withToken),
      });
    },
  };
}
