/**
 * Stopping webhooks (fan-out and the sender) stops their loops even when the notices' connection
 * cannot be released: a database that went away must not leave them polling after shutdown.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startWebhooks } from '../../src/events/webhooks/start-webhooks.ts';
import { countingDb } from '../helpers/counting-db.ts';
import { createTestDb, type TestDb } from '../helpers/test-db.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const silent = { info() {}, warn() {}, error() {} };

describe('stopping webhooks', () => {
  let t: TestDb;
  before(async () => {
    t = await createTestDb();
  });
  after(() => t.cleanup());

  it('stops fan-out and the sender when their LISTEN cannot be released', async () => {
    const faulty = countingDb(t.db, { releaseFails: true });
    const webhooks = startWebhooks(
      { leaseSeconds: 30, pollMs: 20, concurrency: 4 },
      { db: faulty.db, logger: silent },
    );
    await sleep(200);
    assert.ok(faulty.calls() > 0, 'the loops were polling');
    await webhooks.stop();
    const atStop = faulty.calls();
    await sleep(500);
    assert.equal(faulty.calls(), atStop, 'no statement after stop()');
  });
});
