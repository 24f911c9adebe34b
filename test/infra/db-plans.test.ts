/**
 * Statements planned at every call (decision 0101): on a PostgreSQL server, the lookups of taken
 * account references (account creation) and of identifier holders (conflict checks) run, more
 * often than a server needs to choose a generic plan, and are never prepared, so no connection
 * keeps a plan made while their tables were small; other statements still are. PGlite prepares
 * nothing, so there is nothing to check there.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { findConflicts } from '../../src/account-import/reservations/reservations.queries.ts';
import { type Db, sql } from '../../src/infra/db/db.ts';
import { accountFor } from '../helpers/account-fixtures.ts';
import { countingDb } from '../helpers/counting-db.ts';
import { importAccounts } from '../helpers/imported-accounts.ts';
import { buildTestAppOn, type TestApp, tokenFor } from '../helpers/test-app.ts';
import { createFreshDb, type TestDb, usingPostgresServer } from '../helpers/test-db.ts';

const SUPPLIER = 'PLANS';
/** A server chooses a generic plan after five custom ones: six calls give it the chance. */
const CALLS = 6;

const prepared = async (db: Db) =>
  (await db.query<{ name: string }>(sql('', 'SELECT name FROM pg_prepared_statements'))).rows.map(
    (r) => r.name,
  );

describe('statements planned at every call', {
  skip: !usingPostgresServer() && 'PGlite prepares no statement',
}, () => {
  let fresh: TestDb;
  let counting: ReturnType<typeof countingDb>;
  let t: Pick<TestApp, 'app' | 'db' | 'config'>;
  let headers: Record<string, string>;

  before(async () => {
    // One connection, so that every statement below is prepared (or not) on the one read after.
    fresh = await createFreshDb({ url: process.env.DATABASE_URL, poolSize: 1, schemaPrefix: 'plans' });
    counting = countingDb(fresh.db);
    const built = await buildTestAppOn(counting.db);
    t = { app: built.app, db: counting.db, config: built.config };
    ({ headers } = await tokenFor(t.app, [SUPPLIER]));
  });
  after(async () => {
    await t?.app.close();
    await fresh?.cleanup();
  });

  it('never prepares the lookups of taken references and of identifier holders; prepares the rest', async () => {
    // Each import is a batch of its own: each runs the lookup of taken references once.
    for (let n = 1; n <= CALLS; n++) await importAccounts(t as TestApp, headers, [accountFor(SUPPLIER, n)]);
    const account = accountFor(SUPPLIER, 1);
    const identifier = account.supply_addresses[0].meter_points[0].identifier;
    for (let n = 0; n < CALLS; n++) {
      const conflicts = await findConflicts(
        t.db,
        [
          {
            supplier: SUPPLIER,
            external: 'ANOTHER',
            identifiers: [
              { kind: 'meter_point', key: identifier, attr: 'supply_addresses.0.meter_points.0.identifier' },
            ],
          },
        ],
        { inOrder: true },
      );
      assert.equal(conflicts[0].length, 1, 'the holder was found');
    }
    assert.ok(counting.calls('selectReferencesOnAccounts') >= CALLS, 'the lookup of taken references ran');
    assert.ok(counting.calls('selectIdentifierHolders') >= CALLS, 'the lookup of identifier holders ran');
    const names = await prepared(t.db);
    assert.ok(names.includes('insertAccounts'), `statements are prepared on this connection: ${names}`);
    assert.ok(!names.includes('selectReferencesOnAccounts'), 'the lookup of taken references');
    assert.ok(!names.includes('selectIdentifierHolders'), 'the lookup of identifier holders');
  });
});
