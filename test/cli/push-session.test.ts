/**
 * The token handling of `ferry push`'s session against a small fake service: tokens are renewed
 * before they expire and once on a 401, and Retry-After is honoured.
 */
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { PushAbort, PushSession, retryAfterMs } from '../../src/cli/push/push-session.ts';

/** A JWT-shaped token whose claims say when it expires (the session reads, never checks, them). */
const tokenExpiringIn = (seconds: number, n: number) =>
  `x.${Buffer.from(JSON.stringify({ exp: Math.floor(Date.now() / 1000) + seconds, n })).toString('base64url')}.y`;

describe('ferry push session', () => {
  let server: http.Server;
  let url: string;
  const calls = { byKey: 0, byRefresh: 0, status: [] as string[] };
  let lifetime = 3600;
  let answer401Once = false;
  let answer429Once = false;

  before(async () => {
    server = http.createServer(async (req, res) => {
      let body = '';
      for await (const c of req) body += c;
      if (req.url === '/v1/graphql/') {
        const { variables } = JSON.parse(body);
        if (variables.i.APIKey === 'bad') {
          res.end(
            JSON.stringify({
              data: null,
              errors: [{ message: 'Invalid API key.', extensions: { code: 'invalid_api_key' } }],
            }),
          );
          return;
        }
        if (variables.i.refreshToken) calls.byRefresh++;
        else calls.byKey++;
        const n = calls.byKey + calls.byRefresh;
        res.setHeader('content-type', 'application/json');
        res.end(
          JSON.stringify({
            data: {
              obtainToken: {
                token: tokenExpiringIn(lifetime, n),
                refreshToken: `r${n}`,
                refreshExpiresIn: 0,
              },
            },
          }),
        );
        return;
      }
      calls.status.push(req.headers.authorization ?? '');
      res.setHeader('content-type', 'application/json');
      if (answer401Once) {
        answer401Once = false;
        res.writeHead(401).end(JSON.stringify({ detail: 'expired', code: 'authentication_failed' }));
        return;
      }
      if (answer429Once) {
        answer429Once = false;
        res
          .writeHead(429, { 'retry-after': '1' })
          .end(JSON.stringify({ detail: 'slow down', code: 'throttled' }));
        return;
      }
      res.end(JSON.stringify({ status: 'PENDING' }));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise((r) => server.close(r)));

  const status = (s: PushSession) => () =>
    s.client.GET('/v2/data-import/accounts/{import_supplier_code}/{external_identifier}/', {
      params: { path: { import_supplier_code: 'S', external_identifier: 'E' } },
    });

  it('renews a token close to its expiry before using it, by its refresh token', async () => {
    lifetime = 2;
    const session = new PushSession({ baseUrl: url, apiKey: 'k', concurrency: 2 });
    await session.start();
    const before = { ...calls };
    await session.request(status(session));
    assert.equal(calls.byRefresh, before.byRefresh, 'not yet');
    lifetime = 3600;
    await new Promise((r) => setTimeout(r, 2_000));
    await session.request(status(session));
    assert.equal(calls.byRefresh, before.byRefresh + 1);
    assert.equal(calls.byKey, before.byKey);
  });

  it('renews the token once on a 401 and sends the request again', async () => {
    const session = new PushSession({ baseUrl: url, apiKey: 'k', concurrency: 2 });
    await session.start();
    const refreshes = calls.byRefresh;
    answer401Once = true;
    const answer = await session.request(status(session));
    assert.equal(answer.status, 200);
    assert.equal(calls.byRefresh, refreshes + 1);
    const [first, second] = calls.status.slice(-2);
    assert.notEqual(first, second, 'the second attempt carries the new token');
  });

  it('waits for Retry-After on a 429', async () => {
    const session = new PushSession({ baseUrl: url, apiKey: 'k', concurrency: 2 });
    await session.start();
    answer429Once = true;
    const started = Date.now();
    const answer = await session.request(status(session));
    assert.equal(answer.status, 200);
    assert.ok(Date.now() - started >= 1000, 'waited the second the service asked for');
  });

  it('refuses a bad key with its code', async () => {
    const session = new PushSession({ baseUrl: url, apiKey: 'bad', concurrency: 1 });
    await assert.rejects(
      session.start(),
      (err) => err instanceof PushAbort && /invalid_api_key/.test(err.message),
    );
  });

  it('reads Retry-After as seconds or as a date', () => {
    assert.equal(retryAfterMs(new Headers({ 'retry-after': '2' })), 2000);
    const later = new Date(Date.now() + 60_000).toUTCString();
    const ms = retryAfterMs(new Headers({ 'retry-after': later })) ?? 0;
    assert.ok(ms > 55_000 && ms <= 60_000, String(ms));
    assert.equal(retryAfterMs(new Headers()), null);
  });
});
