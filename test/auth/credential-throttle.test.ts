import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { CredentialThrottle, LocalCredentialThrottle } from '../../src/auth/credential-throttle.ts';
import { type Db, sql } from '../../src/infra/db/db.ts';
import { openPgDb } from '../../src/infra/db/pg-db.ts';
import {
  admin,
  adminHeaders,
  buildTestAppOn,
  createTestApp,
  OPERATOR_KEY,
  type TestApp,
} from '../helpers/test-app.ts';
import { createFreshDb, createTestDb, type TestDb, usingPostgresServer } from '../helpers/test-db.ts';

// biome-ignore lint/suspicious/noExplicitAny: JSON bodies
type Obj = Record<string, any>;

describe('LocalCredentialThrottle', () => {
  it('refuses an address after 10 failures within a minute, until the oldest is a minute old', () => {
    let now = 1_000_000;
    const throttle = new LocalCredentialThrottle({ now: () => now });
    for (let i = 0; i < 10; i++) {
      assert.equal(throttle.retryAfter('a'), 0, `check ${i + 1}`);
      throttle.recordFailure('a');
      now += 1_000;
    }
    // The first failure was 10 s ago: 50 s to wait.
    assert.equal(throttle.retryAfter('a'), 50);
    assert.equal(throttle.retryAfter('b'), 0, 'other addresses are not affected');
    now += 49_500;
    assert.equal(throttle.retryAfter('a'), 1);
    now += 500;
    assert.equal(throttle.retryAfter('a'), 0, 'the first failure has left the window');
    throttle.recordFailure('a');
    assert.equal(throttle.retryAfter('a'), 1, 'nine recent failures and this one: refused again');
  });

  it('remembers a bounded number of addresses, forgetting the least recently failing', () => {
    const throttle = new LocalCredentialThrottle({ maxAddresses: 100, now: () => 0 });
    for (let i = 0; i < 10; i++) throttle.recordFailure('persistent');
    for (let i = 0; i < 5_000; i++) {
      throttle.recordFailure(`10.0.${i >> 8}.${i & 255}`);
      if (i % 50 === 0) throttle.recordFailure('persistent');
      assert.ok(throttle.size <= 100);
    }
    assert.ok(throttle.retryAfter('persistent') > 0, 'a recently failing address is kept');
    assert.equal(throttle.retryAfter('10.0.0.0'), 0);
  });

  it('forgets an address whose failures have all expired', () => {
    let now = 0;
    const throttle = new LocalCredentialThrottle({ now: () => now });
    throttle.recordFailure('a');
    now += 60_001;
    assert.equal(throttle.retryAfter('a'), 0);
    assert.equal(throttle.size, 0);
  });
});

/** A PostgreSQL server nobody listens for: every statement fails at once (ECONNREFUSED). */
const unreachableDb = () =>
  openPgDb({ connectionString: 'postgres://postgres@127.0.0.1:1/nowhere', connectionTimeoutMs: 1_000 });

const logSink = () => {
  const events: unknown[] = [];
  return {
    events,
    warn: (obj: Record<string, unknown>) => events.push(obj.event),
    info: (obj: Record<string, unknown>) => events.push(obj.event),
  };
};

describe('CredentialThrottle (failures counted in the database)', () => {
  let tdb: TestDb;
  before(async () => {
    tdb = await createTestDb();
  });
  after(() => tdb.cleanup());

  const rowsLike = async (pattern: string) =>
    (
      await tdb.db.query<{ n: number }>(
        sql('', 'SELECT count(*)::int AS n FROM credential_failures WHERE address LIKE $1'),
        [pattern],
      )
    ).rows[0].n;

  it('counts the failures of every process sharing the database', async () => {
    const [a, b] = [new CredentialThrottle(tdb.db), new CredentialThrottle(tdb.db)];
    for (let i = 0; i < 5; i++) {
      assert.equal(await a.retryAfter('fleet'), 0);
      await a.recordFailure('fleet');
      assert.equal(await b.retryAfter('fleet'), 0);
      await b.recordFailure('fleet');
    }
    // Each saw five; the database saw ten, so both refuse, and so does a process that saw none.
    for (const throttle of [a, b, new CredentialThrottle(tdb.db)]) {
      const wait = await throttle.retryAfter('fleet');
      assert.ok(wait >= 59 && wait <= 60, String(wait));
    }
    assert.equal(await a.retryAfter('fleet-other'), 0);
  });

  it('lets an address check again once its failures have left the window, and then deletes them', async () => {
    const throttle = new CredentialThrottle(tdb.db, { maxFailures: 3, windowMs: 400 });
    for (let i = 0; i < 3; i++) await throttle.recordFailure('expiring');
    assert.equal(await throttle.retryAfter('expiring'), 1);
    await new Promise((r) => setTimeout(r, 450));
    assert.equal(await throttle.retryAfter('expiring'), 0);
    await throttle.recordFailure('expiring');
    assert.equal(await rowsLike('expiring'), 1, "the address's expired failures went with the new one");
  });

  it("purges everyone's expired failures, a bounded batch per failure", async () => {
    await tdb.db.query(
      sql(
        '',
        `INSERT INTO credential_failures (address, failed_at)
         SELECT 'gone-' || i, now() - interval '2 minutes' FROM generate_series(1, 2500) i`,
      ),
    );
    const throttle = new CredentialThrottle(tdb.db);
    const left: number[] = [];
    for (let i = 0; i < 4; i++) {
      await throttle.recordFailure(`purging-${i}`);
      left.push(await rowsLike('gone-%'));
    }
    assert.deepEqual(left, [1_500, 500, 0, 0]);
    assert.equal(await rowsLike('purging-%'), 4, 'failures within the window stay');
  });

  it('answers from its own count while the database cannot be reached, and says so once', async () => {
    const db = await unreachableDb();
    const log = logSink();
    const throttle = new CredentialThrottle(db, { logger: log });
    for (let i = 0; i < 10; i++) {
      assert.equal(await throttle.retryAfter('outage'), 0);
      await throttle.recordFailure('outage');
    }
    assert.ok((await throttle.retryAfter('outage')) > 0, 'still throttled, per process');
    assert.deepEqual(log.events, ['credential_throttle_local']);
    await db.close();
  });
});

describe('credential checks are throttled per client address', () => {
  let t: TestApp;
  let apiKey: string;
  before(async () => {
    t = await createTestApp();
    await admin(t.app, 'POST', '/import-suppliers/', { code: 'ACME' });
    apiKey = (
      await admin<{ key: string }>(t.app, 'POST', '/api-keys/', { name: 'k', import_suppliers: ['ACME'] })
    ).key;
  });
  after(() => t.close());

  const obtain = (key: string, remoteAddress: string) =>
    t.app.inject({
      method: 'POST',
      url: '/v1/graphql/',
      remoteAddress,
      payload: {
        query: 'mutation($k: String) { obtainToken(input: {APIKey: $k}) { token } }',
        variables: { k: key },
      },
    });
  const wrongKey = (i: number) => `ferry_0123456789abcdef_${String(i).padStart(43, 'A')}`;

  it('obtainToken: 10 wrong keys, then 429 throttled in the GraphQL error shape, even for the right key', async () => {
    const address = '203.0.113.1';
    for (let i = 0; i < 10; i++) {
      const res = await obtain(wrongKey(i), address);
      assert.equal(res.statusCode, 200);
      assert.equal(res.json().errors[0].extensions.code, 'invalid_api_key');
    }
    for (const key of [wrongKey(11), apiKey]) {
      const res = await obtain(key, address);
      assert.equal(res.statusCode, 429, res.body);
      const body: Obj = res.json();
      assert.equal(body.data, null);
      assert.equal(body.errors[0].extensions.code, 'throttled');
      const retryAfter = Number(res.headers['retry-after']);
      assert.ok(retryAfter >= 1 && retryAfter <= 60, String(res.headers['retry-after']));
      assert.equal(body.errors[0].extensions.retry_after, retryAfter);
    }
    // Another address is not affected.
    const other = await obtain(apiKey, '203.0.113.2');
    assert.equal(other.statusCode, 200);
    assert.ok(other.json().data.obtainToken.token);
  });

  it('obtainToken: successful checks do not count', async () => {
    const address = '203.0.113.3';
    for (let i = 0; i < 9; i++) await obtain(wrongKey(i), address);
    for (let i = 0; i < 5; i++) assert.ok((await obtain(apiKey, address)).json().data.obtainToken.token);
    assert.equal((await obtain(wrongKey(10), address)).json().errors[0].extensions.code, 'invalid_api_key');
    assert.equal((await obtain(apiKey, address)).statusCode, 429);
  });

  it('obtainToken: many guesses aliased in one document get no more than one check each', async () => {
    const guesses = (n: number) =>
      Array.from(
        { length: 30 },
        (_, i) => `g${i}: obtainToken(input: {APIKey: "${wrongKey(n * 30 + i)}"}) { token }`,
      );
    const send = (n: number) =>
      t.app.inject({
        method: 'POST',
        url: '/v1/graphql/',
        remoteAddress: '203.0.113.4',
        payload: { query: `mutation { ${guesses(n).join(' ')} }` },
      });
    // A failed obtainToken (non-null) ends the mutation: the first guess is the only one checked.
    const checked: string[] = [];
    for (let n = 0; n < 10; n++) {
      checked.push(...((await send(n)).json().errors as Obj[]).map((e) => e.extensions.code));
    }
    assert.deepEqual(checked, Array(10).fill('invalid_api_key'));
    const res = await send(10);
    assert.equal(res.statusCode, 429);
    assert.deepEqual(
      (res.json().errors as Obj[]).map((e) => e.extensions.code),
      ['throttled'],
    );
  });

  it('obtainToken: wrong refresh tokens count as failures', async () => {
    const address = '203.0.113.5';
    for (let i = 0; i < 10; i++) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/v1/graphql/',
        remoteAddress: address,
        payload: { query: `mutation { obtainToken(input: {refreshToken: "nope.${i}.x"}) { token } }` },
      });
      assert.equal(res.json().errors[0].extensions.code, 'invalid_refresh_token');
    }
    assert.equal((await obtain(apiKey, address)).statusCode, 429);
  });

  it('operator key: 10 wrong keys, then 429 throttled with Retry-After, even for the right key', async () => {
    const address = '198.51.100.1';
    const call = (authorization: string, remoteAddress = address) =>
      t.app.inject({
        method: 'GET',
        url: '/admin/v1/import-suppliers/',
        headers: { authorization },
        remoteAddress,
      });
    // A request without credentials is no guess.
    const none = await t.app.inject({
      method: 'GET',
      url: '/admin/v1/import-suppliers/',
      remoteAddress: address,
    });
    assert.equal(none.json().code, 'not_authenticated');
    for (let i = 0; i < 10; i++) {
      const res = await call(`Bearer wrong-operator-key-${i}`);
      assert.equal(res.statusCode, 401);
      assert.equal(res.json().code, 'authentication_failed');
    }
    for (const authorization of ['Bearer wrong-again', adminHeaders.authorization]) {
      const res = await call(authorization);
      assert.equal(res.statusCode, 429, res.body);
      assert.deepEqual(Object.keys(res.json()).sort(), ['code', 'detail']);
      assert.equal(res.json().code, 'throttled');
      assert.ok(Number(res.headers['retry-after']) >= 1);
    }
    assert.equal((await call(adminHeaders.authorization, '198.51.100.2')).statusCode, 200);
  });

  it('operator key: successful checks do not count', async () => {
    const address = '198.51.100.3';
    const call = (authorization: string) =>
      t.app.inject({
        method: 'GET',
        url: '/admin/v1/import-suppliers/',
        headers: { authorization },
        remoteAddress: address,
      });
    for (let i = 0; i < 9; i++) await call('Bearer wrong');
    for (let i = 0; i < 20; i++) assert.equal((await call(adminHeaders.authorization)).statusCode, 200);
    assert.equal((await call('Bearer wrong')).statusCode, 401);
    assert.equal((await call(adminHeaders.authorization)).statusCode, 429);
  });
});

/** Two API processes as the fleet has them: two apps, each on its own pool of one database. */
describe('the credential throttle holds for the fleet', {
  skip: !usingPostgresServer() && 'needs DATABASE_URL (a PostgreSQL server; the embedded one is one process)',
}, () => {
  let fresh: Awaited<ReturnType<typeof createFreshDb>>;
  let secondDb: Db;
  let apps: FastifyInstance[];
  let apiKey: string;
  before(async () => {
    fresh = await createFreshDb({ url: process.env.DATABASE_URL, schemaPrefix: 'fleet_throttle' });
    secondDb = await openPgDb({ connectionString: process.env.DATABASE_URL!, schema: fresh.schema, max: 5 });
    apps = [(await buildTestAppOn(fresh.db)).app, (await buildTestAppOn(secondDb)).app];
    await admin(apps[0], 'POST', '/import-suppliers/', { code: 'ACME' });
    apiKey = (
      await admin<{ key: string }>(apps[0], 'POST', '/api-keys/', { name: 'k', import_suppliers: ['ACME'] })
    ).key;
  });
  after(async () => {
    for (const app of apps) await app.close();
    await secondDb.close();
    await fresh.cleanup();
  });

  const obtain = (app: FastifyInstance, key: string, remoteAddress: string) =>
    app.inject({
      method: 'POST',
      url: '/v1/graphql/',
      remoteAddress,
      payload: {
        query: 'mutation($k: String) { obtainToken(input: {APIKey: $k}) { token } }',
        variables: { k: key },
      },
    });
  const operator = (app: FastifyInstance, key: string, remoteAddress: string) =>
    app.inject({
      method: 'GET',
      url: '/admin/v1/import-suppliers/',
      headers: { authorization: `Bearer ${key}` },
      remoteAddress,
    });

  it('10 failures split across two API processes lock the address on both', async () => {
    const address = '192.0.2.10';
    for (let i = 0; i < 5; i++) {
      assert.equal(
        (await obtain(apps[0], `ferry_0123456789abcdef_${'B'.repeat(43)}`, address)).statusCode,
        200,
      );
      assert.equal((await operator(apps[1], `wrong-${i}`, address)).statusCode, 401);
    }
    for (const app of apps) {
      const token = await obtain(app, apiKey, address);
      assert.equal(token.statusCode, 429, token.body);
      assert.equal(token.json().errors[0].extensions.code, 'throttled');
      const retryAfter = Number(token.headers['retry-after']);
      assert.ok(retryAfter >= 1 && retryAfter <= 60, String(retryAfter));
      const admin = await operator(app, OPERATOR_KEY, address);
      assert.equal(admin.statusCode, 429, admin.body);
      assert.deepEqual(admin.json().code, 'throttled');
      assert.ok(Number(admin.headers['retry-after']) >= 1);
    }
    for (const app of apps) {
      assert.ok((await obtain(app, apiKey, '192.0.2.11')).json().data.obtainToken.token, 'others may check');
    }
  });
});
