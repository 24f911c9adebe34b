/**
 * How statements are planned on a PostgreSQL server. Planned at every call (decision 0101): the
 * lookups of taken account references (account creation) and of identifier holders (conflict
 * checks) run more often than a server needs to choose a generic plan, and are never prepared, so
 * no connection keeps a plan made while their tables were small; other statements still are.
 * Always the generic plan (decision 0109): the bulk path's insert of new processes and account
 * creation's insert of every record are never planned for their batches' JSON, and the setting
 * that asks for it goes back to the connection's own after each. PGlite prepares nothing, so
 * there is nothing to check there.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { findConflicts } from '../../src/account-import/reservations/reservations.queries.ts';
import { type Db, sql, sqlGenericPlan } from '../../src/infra/db/db.ts';
import { accountFor } from '../helpers/account-fixtures.ts';
import { countingDb } from '../helpers/counting-db.ts';
import { importAccounts } from '../helpers/imported-accounts.ts';
import { buildTestAppOn, type TestApp, tokenFor } from '../helpers/test-app.ts';
import { createFreshDb, type TestDb, usingPostgresServer } from '../helpers/test-db.ts';
import { runWorkerUntilIdle } from '../helpers/worker-run.ts';

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

describe('statements always given their generic plan', {
  skip: !usingPostgresServer() && 'PGlite prepares no statement',
}, () => {
  let fresh: TestDb;
  let t: Pick<TestApp, 'app' | 'db' | 'config'>;
  let headers: Record<string, string>;
  /** The connection's own setting, as it was before anything below ran. */
  let own: string;
  const mode = sql('', "SELECT current_setting('plan_cache_mode') AS mode");
  const modeNow = async (db: Pick<Db, 'query'>) => (await db.query<{ mode: string }>(mode)).rows[0].mode;
  const plans = async (name: string) =>
    (
      await t.db.query<{ generic: number; custom: number }>(
        sql(
          '',
          `SELECT generic_plans::int AS generic, custom_plans::int AS custom FROM pg_prepared_statements WHERE name = '${name}'`,
        ),
      )
    ).rows;

  before(async () => {
    // One connection: every statement below is prepared on the one read after.
    fresh = await createFreshDb({ url: process.env.DATABASE_URL, poolSize: 1, schemaPrefix: 'generic' });
    const built = await buildTestAppOn(fresh.db);
    t = { app: built.app, db: fresh.db, config: built.config };
    ({ headers } = await tokenFor(t.app, [SUPPLIER]));
    own = await modeNow(t.db);
  });
  after(async () => {
    await t?.app.close();
    await fresh?.cleanup();
  });

  it('gives the bulk insert of processes and the insert of account records no custom plan', async () => {
    // More calls than the five custom plans a server makes before it may choose the generic one.
    for (let n = 0; n < CALLS; n++) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/v2/data-import/accounts/bulk/',
        headers: { ...headers, 'content-type': 'application/x-ndjson' },
        payload: [1, 2].map((k) => JSON.stringify(accountFor(SUPPLIER, 100 * n + k))).join('\n'),
      });
      assert.equal(res.statusCode, 200, res.body);
      await runWorkerUntilIdle(t.config, t.db);
    }
    assert.deepEqual(await plans('insertImportProcessesAtOnce'), [{ generic: CALLS, custom: 0 }]);
    const records = await plans('insertAccountRecords');
    assert.equal(records.length, 1, 'account creation ran on this connection');
    assert.equal(records[0].custom, 0);
    assert.ok(records[0].generic >= CALLS, `${records[0].generic} generic plans`);
    assert.equal(await modeNow(t.db), own, 'the connection is back to its own setting');
  });

  it('holds the setting for its one statement, in a transaction or not, and after a failure', async () => {
    const asked = sqlGenericPlan(
      'genericPlanProbe',
      "SELECT current_setting('plan_cache_mode') AS mode, $1::json AS j",
    );
    const probe = async (db: Pick<Db, 'query'>) =>
      (await db.query<{ mode: string }>(asked, ['{}'])).rows[0].mode;
    const failing = sqlGenericPlan(
      'genericPlanFailing',
      'SELECT count(*) FROM json_to_recordset($1::json) AS r(a int)',
    );
    assert.equal(await probe(t.db), 'force_generic_plan');
    assert.equal(await modeNow(t.db), own);
    await t.db.transaction(async (tx) => {
      assert.equal(await probe(tx), 'force_generic_plan');
      assert.equal(await modeNow(tx), own, 'the rest of the transaction plans as before');
      // As the worker and staging do: a savepoint, a statement that fails, the rollback to it.
      await tx.exec('SAVEPOINT generic');
      await assert.rejects(tx.query(failing, ['not json']), { code: '22P02' });
      await tx.exec('ROLLBACK TO SAVEPOINT generic');
      assert.equal(await modeNow(tx), own, 'after a failure in the transaction');
    });
    // The server's own error comes through unchanged (callers read its code).
    await assert.rejects(t.db.query(failing, ['not json']), { code: '22P02' });
    assert.equal(await modeNow(t.db), own, 'a failed statement leaves the connection as it was');
  });
});
