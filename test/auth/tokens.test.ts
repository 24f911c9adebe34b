import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { TokenService } from '../../src/auth/tokens.ts';
import { admin, createTestApp, type TestApp, tokenFor } from '../helpers/test-app.ts';

const mutation = (input: string) => ({
  query: `mutation { obtainToken(input: ${input}) { token refreshToken refreshExpiresIn } }`,
});

describe('tokens: obtainToken and the Token header', () => {
  let t: TestApp;
  let tokens: TokenService;
  before(async () => {
    t = await createTestApp();
    tokens = await TokenService.load(t.db);
    await admin(t.app, 'POST', '/import-suppliers/', { code: 'ACME' });
  });
  after(() => t.close());

  const gql = (payload: unknown) =>
    t.app.inject({ method: 'POST', url: '/v1/graphql/', payload: payload as never });
  const status = (headers: Record<string, string>) =>
    t.app.inject({ method: 'GET', url: '/v1/data-import/pending-account-import-processes/ACME/', headers });

  it('issues an access token, a refresh token and its expiry for a valid API key', async () => {
    const key = await admin<{ key: string }>(t.app, 'POST', '/api-keys/', {
      name: 'k',
      import_suppliers: ['ACME'],
    });
    const res = await gql(mutation(`{APIKey: "${key.key}"}`));
    assert.equal(res.statusCode, 200);
    const out = res.json().data.obtainToken;
    assert.match(out.token, /^[\w-]+\.[\w-]+\.[\w-]+$/);
    assert.match(out.refreshToken, /^[\w-]+\.[\w-]+\.[\w-]+$/);
    const now = Date.now() / 1000;
    assert.ok(out.refreshExpiresIn > now + 6 * 86400 && out.refreshExpiresIn <= now + 7 * 86400 + 5);
    const [, payload] = out.token.split('.');
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
    assert.ok(Math.abs(claims.exp - claims.iat - 3600) <= 1, 'access token lasts 60 minutes');
    assert.equal((await status({ authorization: `Token ${out.token}` })).statusCode, 200);
  });

  it('answers a bad API key with the invalid_api_key GraphQL error', async () => {
    for (const k of ['nonsense', 'ferry_0123456789abcdef_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA']) {
      const res = await gql(mutation(`{APIKey: "${k}"}`));
      const body = res.json();
      assert.equal(body.data, null);
      assert.equal(body.errors[0].extensions.code, 'invalid_api_key');
    }
  });

  it('refreshes: a refresh token yields a new working access token', async () => {
    const { apiKey } = await tokenFor(t.app, ['ACME'], []);
    const first = (await gql(mutation(`{APIKey: "${apiKey}"}`))).json().data.obtainToken;
    const res = (await gql(mutation(`{refreshToken: "${first.refreshToken}"}`))).json();
    assert.ok(res.data.obtainToken.token);
    assert.equal((await status({ authorization: `Token ${res.data.obtainToken.token}` })).statusCode, 200);
  });

  it('refuses an access token used as a refresh token, and a refresh token used as an access token', async () => {
    const { apiKey } = await tokenFor(t.app, ['ACME'], []);
    const first = (await gql(mutation(`{APIKey: "${apiKey}"}`))).json().data.obtainToken;
    const res = (await gql(mutation(`{refreshToken: "${first.token}"}`))).json();
    assert.equal(res.errors[0].extensions.code, 'invalid_refresh_token');
    const r = await status({ authorization: `Token ${first.refreshToken}` });
    assert.equal(r.statusCode, 401);
    assert.equal(r.json().code, 'authentication_failed');
  });

  it('rejects a missing header with not_authenticated', async () => {
    const res = await status({});
    assert.equal(res.statusCode, 401);
    assert.deepEqual(Object.keys(res.json()).sort(), ['code', 'detail']);
    assert.equal(res.json().code, 'not_authenticated');
  });

  it('rejects expired, tampered, alg:none, wrongly signed and malformed tokens with authentication_failed', async () => {
    const { keyId, token } = await tokenFor(t.app, ['ACME'], []);
    const expired = await tokens.sign(keyId, 'access', Math.floor(Date.now() / 1000) - 10);
    const [h, p, s] = token.split('.');
    const claims = JSON.parse(Buffer.from(p, 'base64url').toString());
    const widened = Buffer.from(JSON.stringify({ ...claims, sub: 'someone-else' })).toString('base64url');
    const none = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${p}.`;
    const flipped = `${h}.${p}.${s.slice(0, -2)}${s.endsWith('AA') ? 'BB' : 'AA'}`;
    const cases: Record<string, string> = {
      expired: `Token ${expired}`,
      tampered: `Token ${h}.${widened}.${s}`,
      'alg none': `Token ${none}`,
      'bad signature': `Token ${flipped}`,
      garbage: 'Token abc.def',
      'wrong scheme': `Bearer ${token}`,
      empty: 'Token ',
    };
    for (const [name, header] of Object.entries(cases)) {
      const res = await status({ authorization: header });
      assert.equal(res.statusCode, 401, name);
      assert.equal(res.json().code, 'authentication_failed', name);
    }
  });

  it("stops a revoked key's tokens at once, and its refresh tokens too", async () => {
    const { keyId, apiKey, headers } = await tokenFor(t.app, ['ACME'], []);
    const refresh = (await gql(mutation(`{APIKey: "${apiKey}"}`))).json().data.obtainToken.refreshToken;
    assert.equal((await status(headers)).statusCode, 200);
    await admin(t.app, 'DELETE', `/api-keys/${keyId}/`);
    const res = await status(headers);
    assert.equal(res.statusCode, 401);
    assert.equal(res.json().code, 'authentication_failed');
    const again = (await gql(mutation(`{APIKey: "${apiKey}"}`))).json();
    assert.equal(again.errors[0].extensions.code, 'invalid_api_key');
    const refreshed = (await gql(mutation(`{refreshToken: "${refresh}"}`))).json();
    assert.equal(refreshed.errors[0].extensions.code, 'invalid_refresh_token');
  });

  it('stores API keys only as hashes', async () => {
    const key = await admin<{ key: string; id: string }>(t.app, 'POST', '/api-keys/', {
      name: 'h',
      import_suppliers: ['*'],
    });
    const { rows } = await t.db.query<Record<string, unknown>>(
      { name: '', text: 'SELECT * FROM api_keys WHERE id = $1' },
      [key.id],
    );
    const stored = JSON.stringify(rows[0]);
    const secret = key.key.split('_').slice(2).join('_');
    assert.ok(!stored.includes(secret));
    assert.match(String(rows[0].secret_hash), /^[0-9a-f]{64}$/);
  });
});
