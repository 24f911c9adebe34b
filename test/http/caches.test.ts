import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { KEY_REVOKED_CHANNEL } from '../../src/auth/api-keys.ts';
import { TokenService } from '../../src/auth/tokens.ts';
import { type Db, type ListenHandlers, sql } from '../../src/infra/db/db.ts';
import { openPgDb } from '../../src/infra/db/pg-db.ts';
import { accountFor } from '../helpers/account-fixtures.ts';
import { admin, buildTestAppOn, tokenFor } from '../helpers/test-app.ts';
import { createTestDb, type TestDb } from '../helpers/test-db.ts';

const pending = (app: FastifyInstance, headers: Record<string, string>) =>
  app.inject({ method: 'GET', url: '/v1/data-import/pending-account-import-processes/ACME/', headers });

/**
 * Requests are answered from in-memory caches (verified tokens, active key scopes,
 * suppliers); these tests pin that revocation, expiry and supplier changes still take effect.
 */
describe('in-memory caches: revocation, expiry and supplier changes stay immediate', () => {
  let tdb: TestDb;
  /** A second connection pool on the same database: another API process, as far as PostgreSQL can tell. */
  let otherDb: Db;
  let here: FastifyInstance;
  let there: FastifyInstance;
  /** The handlers the second app's key cache subscribed with, to play a lost feed. */
  let feed: ListenHandlers | null = null;

  before(async () => {
    tdb = await createTestDb();
    const second = tdb.url ? await openPgDb({ connectionString: tdb.url, max: 2 }) : tdb.db;
    otherDb = {
      ...second,
      listen: (channel, handlers) => {
        if (channel === KEY_REVOKED_CHANNEL) feed = handlers;
        return second.listen(channel, handlers);
      },
      close: () => (second === tdb.db ? Promise.resolve() : second.close()),
    };
    ({ app: here } = await buildTestAppOn(tdb.db));
    ({ app: there } = await buildTestAppOn(otherDb));
    await admin(here, 'POST', '/import-suppliers/', { code: 'ACME' });
  });
  after(async () => {
    await there.close();
    await here.close();
    await otherDb.close();
    await tdb.cleanup();
  });

  it('a key revoked through one process stops its tokens in another that had it cached', async () => {
    const { keyId, headers } = await tokenFor(here, ['ACME'], []);
    for (let i = 0; i < 3; i++) assert.equal((await pending(there, headers)).statusCode, 200);
    await admin(here, 'DELETE', `/api-keys/${keyId}/`);
    assert.equal((await pending(here, headers)).statusCode, 401, 'the revoking process: at once');
    // The other process hears the revoke's NOTIFY, sent at its commit.
    const until = Date.now() + 5_000;
    let status = 200;
    while (status === 200 && Date.now() < until) {
      status = (await pending(there, headers)).statusCode;
      if (status === 200) await new Promise((r) => setTimeout(r, 5));
    }
    assert.equal(status, 401);
    assert.equal((await pending(there, headers)).statusCode, 401);
  });

  it('while the revocation feed is down nothing is cached, so a missed revoke still counts', async () => {
    const { keyId, headers } = await tokenFor(here, ['ACME'], []);
    assert.equal((await pending(there, headers)).statusCode, 200);
    assert.ok(feed);
    feed.onLive(false);
    try {
      // A revoke whose NOTIFY this process never hears.
      await tdb.db.query(sql('', 'UPDATE api_keys SET revoked_at = now() WHERE id = $1'), [keyId]);
      assert.equal((await pending(there, headers)).statusCode, 401);
    } finally {
      feed.onLive(true);
    }
  });

  it('a supplier paused through one process refuses new accounts in another that had it cached', async () => {
    const { headers } = await tokenFor(here, ['ACME'], []);
    let n = 0;
    const create = () =>
      there.inject({
        method: 'POST',
        url: '/v2/data-import/accounts/',
        headers,
        payload: accountFor('ACME', 7_000 + ++n),
      });
    assert.equal((await create()).statusCode, 201);
    await admin(here, 'PATCH', '/import-suppliers/ACME/', { status: 'Paused' });
    try {
      const until = Date.now() + 5_000;
      let res = await create();
      while (res.statusCode === 201 && Date.now() < until) res = await create();
      assert.equal(res.statusCode, 400);
      assert.equal(res.json().code, 'import_supplier_paused');
    } finally {
      await admin(here, 'PATCH', '/import-suppliers/ACME/', { status: 'Ongoing' });
    }
    const until = Date.now() + 5_000;
    let res = await create();
    while (res.statusCode !== 201 && Date.now() < until) res = await create();
    assert.equal(res.statusCode, 201, 'and takes them again once Ongoing');
  });

  it('a verified token stops working when it expires, though its verification was cached', async () => {
    const tokens = await TokenService.load(tdb.db);
    const { keyId } = await tokenFor(here, ['ACME'], []);
    const expiresAt = Math.floor(Date.now() / 1000) + 2;
    const token = await tokens.sign(keyId, 'access', expiresAt);
    assert.equal(await tokens.verify(token, 'access'), keyId);
    assert.equal(await tokens.verify(token, 'refresh'), null, 'the cached claims keep the token use');
    assert.equal(await tokens.verify(token, 'access'), keyId);
    await new Promise((r) => setTimeout(r, expiresAt * 1000 - Date.now() + 50));
    assert.equal(await tokens.verify(token, 'access'), null);
  });
});
