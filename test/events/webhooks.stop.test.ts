/**
 * Stopping webhooks (fan-out and the sender) stops their loops even when the notices' connection
 * cannot be released: a database that went away must not leave them polling after shutdown.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startWebhooks } from '../../src/events/webhooks/start-webhooks.ts';
import type { Db, Queryable } from '../../src/infra/db/db.ts';
import { createTestDb, type TestDb } from '../helpers/test-db.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const silent = { info() {}, warn() {}, error() {} };

/** The test database, counting the statements run on it, whose LISTENs fail to be released. */
function releaseFails(db: Db) {
  let statements = 0;
  const counted = (q: Queryable): Queryable => ({
    query: (s, params) => {
      statements++;
      return q.query(s, params);
    },
    exec: (script) => q.exec(script),
  });
  const wrapped: Db = {
    kind: db.kind,
    ...counted(db),
    transaction: (fn) => db.transaction((tx) => fn(counted(tx))),
    async listen(channel, handlers) {
      const release = await db.listen(channel, handlers);
      return async () => {
        await release();
        throw new Error('the connection was lost');
      };
    },
    close: () => db.close(),
  };
  return { db: wrapped, statements: () => statements };
}

describe('stopping webhooks', () => {
  let t: TestDb;
  before(async () => {
    t = await createTestDb();
  });
  after(() => t.cleanup());

  it('stops fan-out and the sender when their LISTEN cannot be released', async () => {
    const faulty = releaseFails(t.db);
    const webhooks = startWebhooks(
      { leaseSeconds: 30, pollMs: 20, concurrency: 4 },
      { db: faulty.db, logger: silent },
    );
    await sleep(200);
    assert.ok(faulty.statements() > 0, 'the loops were polling');
    await webhooks.stop();
    const atStop = faulty.statements();
    await sleep(500);
    assert.equal(faulty.statements(), atStop, 'no statement after stop()');
  });
});
