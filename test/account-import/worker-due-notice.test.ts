/**
 * An idle worker looks for due accounts less and less often (decision 0100); what keeps scheduled
 * accounts from waiting is the API's notice on the import queue's channel, which wakes every
 * listening worker at once. The worker here would not look again for a minute by itself.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { IMPORTS_DUE_CHANNEL } from '../../src/account-import/queue/due-notice.ts';
import { startWorker, type WorkerHandle } from '../../src/account-import/queue/worker.ts';
import { scheduleImportProcess } from '../../src/account-import/scheduling/scheduling.queries.ts';
import { findImportProcessStatus } from '../../src/account-import/status/status.queries.ts';
import { EVENTS_CHANNEL } from '../../src/events/event-hub.ts';
import { accountFor } from '../helpers/account-fixtures.ts';
import { createTestApp, type TestApp, tokenFor } from '../helpers/test-app.ts';
import { usingPostgresServer } from '../helpers/test-db.ts';

const SUPPLIER = 'NOTICED';
const quiet = { info() {}, warn() {}, error() {} };
const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('the worker hears of scheduled accounts', () => {
  let t: TestApp;
  let worker: WorkerHandle;
  let headers: Record<string, string>;
  before(async () => {
    t = await createTestApp();
    ({ headers } = await tokenFor(t.app, [SUPPLIER]));
    worker = startWorker(t.config, { db: t.db, logger: quiet, idlePollMs: 60_000 });
    await wait(300); // its first claim found nothing: the next look is a minute away
  });
  after(async () => {
    await worker.stop();
    await t.close();
  });

  const post = (url: string, payload: Record<string, unknown>) =>
    t.app.inject({ method: 'POST', url, headers, payload });
  const statusOf = async (external: string) =>
    (await findImportProcessStatus(t.db, SUPPLIER, external))?.status;
  async function untilProcessed(external: string, ms: number) {
    const deadline = Date.now() + ms;
    while (Date.now() < deadline) {
      if ((await statusOf(external)) === 'PROCESSED') return true;
      await wait(20);
    }
    return false;
  }

  it('an account staged without the API waits for the next look; one scheduled through it is created at once', async () => {
    // Control: written straight to the queue, no notice goes out, and the worker does not look.
    const quietOne = accountFor(SUPPLIER, 1);
    const start = new Date();
    await scheduleImportProcess(t.db, {
      supplier: SUPPLIER,
      externalAccountNumber: String(quietOne.external_account_number),
      payload: quietOne,
      isDryRun: false,
      scheduleWindowStart: start,
      scheduleWindowEnd: new Date(start.getTime() + 86_400_000),
      explicitWindow: false,
    });
    // On a server the channel is the whole database's: test files running beside this one in other
    // schemas send their own notices, which wake this worker too. The control holds on PGlite only.
    if (!usingPostgresServer())
      assert.equal(await untilProcessed(String(quietOne.external_account_number), 1_000), false);

    // Through the API: the notice wakes the worker, which claims both.
    const account = accountFor(SUPPLIER, 2);
    const res = await post('/v2/data-import/accounts/', account);
    assert.equal(res.statusCode, 201, res.body);
    assert.equal(await untilProcessed(String(account.external_account_number), 10_000), true);
    assert.equal(await statusOf(String(quietOne.external_account_number)), 'PROCESSED');
  });
  it('validation sends no notice; scheduling sends both, that events were written and that accounts are due', async () => {
    const heard = { events: 0, due: 0 };
    const unlisten = [
      await t.db.listen(EVENTS_CHANNEL, { onMessage: () => heard.events++, onLive: () => {} }),
      await t.db.listen(IMPORTS_DUE_CHANNEL, { onMessage: () => heard.due++, onLive: () => {} }),
    ];
    try {
      const account = accountFor(SUPPLIER, 3);
      const checked = await post('/v2/data-import/accounts/validate/', account);
      assert.equal(checked.statusCode, 200, checked.body);
      await wait(200); // past the notifiers' 50 ms coalescing
      // On a server, other test files' notices reach this database-wide channel too.
      if (!usingPostgresServer()) assert.deepEqual(heard, { events: 0, due: 0 });
      const scheduled = await post('/v2/data-import/accounts/', account);
      assert.equal(scheduled.statusCode, 201, scheduled.body);
      const deadline = Date.now() + 5_000;
      while ((heard.events === 0 || heard.due === 0) && Date.now() < deadline) await wait(20);
      assert.ok(heard.events > 0 && heard.due > 0, JSON.stringify(heard));
    } finally {
      for (const stop of unlisten) await stop();
    }
  });
});
