/**
 * The fleet (decisions 0072, 0074, 0075): two API processes (`ferry serve --no-worker`, each on a
 * port of its own, as on two machines) and three worker processes (`ferry worker --processes 3`,
 * one machine's cluster) share one PostgreSQL server and nothing else. 10,000 accounts are pushed
 * in bulk through both API processes, then 1,500 notes, through both, by two keys each limited
 * to 25 requests a second and asking far more; a webhook endpoint on a loopback port receives every
 * event. One API process is SIGKILLed while a bulk request to it is unanswered (and started again,
 * as a supervisor would); one worker process is SIGKILLed while accounts are being created (its
 * cluster primary starts another). Then: every account created exactly once, every note added
 * once, every event delivered, and each key served at its limit for the fleet, not per process.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import type { FeedEvent } from '../../src/events/event-feed.ts';
import { sql } from '../../src/infra/db/db.ts';
import {
  deliveredIds,
  type Receiver,
  signatureValid,
  startReceiver,
  wholeFeed,
} from '../events/webhooks-helpers.ts';
import { accountFor } from '../helpers/account-fixtures.ts';
import { childPids } from '../helpers/child-processes.ts';
import { freePort } from '../helpers/ports.ts';
import { admin, buildTestAppOn, OPERATOR_KEY, tokenFor } from '../helpers/test-app.ts';
import { createTestDb, type TestDb, usingPostgresServer } from '../helpers/test-db.ts';

const SUPPLIER = 'FLEET';
const ACCOUNTS = 10_000;
const CHUNK = 100;
/**
 * Each key's limit. Two keys each asking far more than 25/s: what a 2-core machine serves with
 * room to spare while another test file runs beside this one. At 50/s a key, CI's machine served
 * about 41/s each and refused nothing: the limit was never reached, so nothing of it was shown.
 */
const RATE = 25;
const NOTE_KEYS = 2;
const NOTES_PER_KEY = 750;
const NOTES = NOTE_KEYS * NOTES_PER_KEY;
const WORKERS = 3;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const ext = (n: number) => accountFor(SUPPLIER, n).external_account_number as string;

/** A Ferry process the test started, with what it wrote to stderr. */
interface Started {
  child: ChildProcess;
  stderr: () => string;
}

describe('the fleet: two API processes and three workers on one PostgreSQL server', {
  skip: !usingPostgresServer() && 'needs DATABASE_URL (processes share a server, not the embedded database)',
}, () => {
  let tdb: TestDb;
  let app: FastifyInstance;
  let receiver: Receiver;
  let secret: string;
  let dataDir: string;
  const started = new Set<ChildProcess>();

  before(async () => {
    tdb = await createTestDb();
    dataDir = mkdtempSync(join(tmpdir(), 'ferry-fleet-'));
    ({ app } = await buildTestAppOn(tdb.db));
    receiver = await startReceiver(() => 200);
    await admin(app, 'POST', '/import-suppliers/', { code: SUPPLIER });
    ({ secret } = await admin<{ secret: string }>(app, 'POST', '/webhook-endpoints/', {
      url: `${receiver.url}/ferry`,
      import_suppliers: [SUPPLIER],
    }));
  });
  after(async () => {
    const kill = (pid: number) => {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {} // ended meanwhile
    };
    for (const child of started) for (const pid of childPids(child.pid!)) kill(pid);
    for (const child of started) child.kill('SIGKILL');
    await receiver?.close();
    await app?.close();
    await tdb?.cleanup();
    rmSync(dataDir, { recursive: true, force: true });
  });

  function ferry(args: string[], env: Record<string, string>): Started {
    const child = spawn(process.execPath, ['bin/ferry.js', ...args], {
      env: {
        ...process.env,
        DATABASE_URL: tdb.url,
        DATA_DIR: dataDir,
        OPERATOR_API_KEY: OPERATOR_KEY,
        LOG_LEVEL: 'error',
        ...env,
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr!.setEncoding('utf8').on('data', (s: string) => {
      stderr += s;
    });
    started.add(child);
    child.on('exit', () => started.delete(child));
    return { child, stderr: () => stderr };
  }

  async function api(port: number): Promise<Started> {
    const p = ferry(['serve', '--no-worker'], {
      PORT: String(port),
      HOST: '127.0.0.1',
      RATE_LIMIT_PER_SECOND: String(RATE),
    });
    // An API process is ready in about 4 s on an idle 2-core machine; restarted during the push,
    // with the other files of the suite running beside it, it once took more than 30 s.
    const startedAt = Date.now();
    for (const deadline = startedAt + 90_000; ; ) {
      const ready = await fetch(`http://127.0.0.1:${port}/readyz`).then(
        (r) => r.ok,
        () => false,
      );
      if (ready) return p;
      assert.ok(
        Date.now() < deadline && p.child.exitCode === null,
        `API on ${port}, not ready after ${Date.now() - startedAt} ms: ${p.stderr()}`,
      );
      await sleep(100);
    }
  }

  /**
   * The supplier's feed, once every event in it has reached the receiver and the senders have
   * recorded it (a batch is marked delivered once all its POSTs are answered).
   */
  async function everyEventDelivered(): Promise<FeedEvent[]> {
    const owed = () => count("SELECT count(*)::int AS n FROM webhook_deliveries WHERE state <> 'delivered'");
    for (const deadline = Date.now() + 90_000; ; await sleep(200)) {
      const events = await wholeFeed(tdb.db, SUPPLIER);
      const now = deliveredIds(receiver);
      const missing = events.filter((e) => !now.has(e.id)).length;
      if (missing === 0 && (await owed()) === 0) return events;
      assert.ok(Date.now() < deadline, `${missing} of ${events.length} events undelivered after 90 s`);
    }
  }

  const count = async (text: string, params: unknown[] = []) =>
    (await tdb.db.query<{ n: number }>(sql('', text), params)).rows[0].n;
  const processed = () => count("SELECT count(*)::int AS n FROM import_processes WHERE status = 'PROCESSED'");

  it('creates every accepted account once, delivers every event, and holds each key to its rate', async () => {
    const ports = [await freePort(), await freePort()];
    const apis = [await api(ports[0]), await api(ports[1])];
    const workers = ferry(['worker', '--processes', String(WORKERS)], {
      WORKER_LEASE_SECONDS: '3',
      WEBHOOK_LEASE_SECONDS: '2',
      WEBHOOK_POLL_MS: '50',
    });
    const base = (i: number) => `http://127.0.0.1:${ports[i]}`;
    const post = (i: number, path: string, headers: Record<string, string>, body: unknown) =>
      fetch(`${base(i)}${path}`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });

    // 1. 10,000 accounts, 100 a request, alternately to each API process; the second is killed
    // once 30 requests have been answered, while one of its requests is unanswered.
    const { headers } = await tokenFor(app, [SUPPLIER], []);
    const inFlight = [0, 0];
    let answered = 0;
    let unanswered = 0;
    const retried = new Set<number>();
    const refusedOnRetry: string[] = [];
    const accepted = new Set<string>();
    const sendChunk = async (chunk: number) => {
      const accounts = Array.from({ length: CHUNK }, (_, j) => accountFor(SUPPLIER, chunk * CHUNK + j + 1));
      for (let attempt = 0; ; attempt++) {
        assert.ok(attempt < 100, `chunk ${chunk}: no answer after 100 attempts`);
        // A failed request goes to the other process next.
        const target = (chunk + attempt) % 2;
        inFlight[target]++;
        let res: Response;
        try {
          res = await post(target, '/v2/data-import/accounts/bulk/', headers, accounts);
        } catch {
          if (target === 1) unanswered++;
          retried.add(chunk);
          await sleep(50);
          continue;
        } finally {
          inFlight[target]--;
        }
        if (res.status === 429) {
          await sleep(Number(res.headers.get('retry-after')) * 1000);
          continue;
        }
        const text = await res.text();
        assert.equal(res.status, 200, text);
        const { results } = JSON.parse(text) as { results: { status: number; [k: string]: unknown }[] };
        for (const [j, r] of results.entries()) {
          if (r.status === 201) accepted.add(accounts[j].external_account_number as string);
          // Sent again after a lost answer: the first attempt had scheduled it, and a worker may have
          // started or created it since.
          else if (retried.has(chunk)) refusedOnRetry.push(JSON.stringify(r));
          else assert.fail(`account ${accounts[j].external_account_number}: ${JSON.stringify(r)}`);
        }
        answered++;
        return;
      }
    };
    let nextChunk = 0;
    const scheduling = Promise.all(
      Array.from({ length: 4 }, async () => {
        while (nextChunk < ACCOUNTS / CHUNK) await sendChunk(nextChunk++);
      }),
    );
    let schedulingEnded = false;
    scheduling.then(
      () => {
        schedulingEnded = true;
      },
      () => {
        schedulingEnded = true;
      },
    );
    while (answered < 30 || inFlight[1] === 0) {
      assert.ok(!schedulingEnded, `the push ended before the kill (${answered} answered)`);
      await sleep(2);
    }
    apis[1].child.kill('SIGKILL');
    await new Promise((r) => apis[1].child.once('exit', r));
    apis[1] = await api(ports[1]);

    // 2. One worker process is killed once 30 % of the accounts are created; its primary starts another.
    const primary = workers.child.pid!;
    for (const deadline = Date.now() + 60_000; (await processed()) < ACCOUNTS * 0.3; await sleep(50))
      assert.ok(Date.now() < deadline, `${await processed()} accounts created after 60 s`);
    const [victim] = childPids(primary);
    process.kill(victim, 'SIGKILL');
    await scheduling;
    for (const deadline = Date.now() + 90_000; (await processed()) < ACCOUNTS; await sleep(200))
      assert.ok(Date.now() < deadline, `${await processed()} of ${ACCOUNTS} created after 90 s`);
    assert.ok(unanswered >= 1, 'requests to the killed API process went unanswered, and were sent again');
    const restarted = new RegExp(`process ${victim} ended \\(SIGKILL\\) after \\d+ s; starting another`);
    for (const deadline = Date.now() + 10_000; !restarted.test(workers.stderr()); await sleep(50))
      assert.ok(Date.now() < deadline, `the primary did not restart ${victim}: ${workers.stderr()}`);
    assert.equal(childPids(primary).length, WORKERS, 'the primary replaced the killed worker');
    assert.ok(!childPids(primary).includes(victim));

    // Every account created exactly once: one account and one PROCESSED transition each; the
    // accounts refused on a retry were those the lost attempt had scheduled.
    assert.equal(accepted.size + refusedOnRetry.length, ACCOUNTS);
    for (const r of refusedOnRetry) assert.match(r, /account_import_process_(already_imported|in_progress)/);
    assert.equal(
      await count(
        'SELECT count(DISTINCT external_account_number)::int AS n FROM accounts WHERE import_supplier = $1',
        [SUPPLIER],
      ),
      ACCOUNTS,
    );
    assert.equal(await count('SELECT count(*)::int AS n FROM accounts'), ACCOUNTS);

    // The account events' deliveries done first: the notes' rate is measured on a machine busy
    // with the notes (and their own events), not with 30,000 deliveries still going out.
    await everyEventDelivered();

    // 3. A note for every other account of the first 5,000, through both API processes, by two keys at once.
    const keys = await Promise.all(Array.from({ length: NOTE_KEYS }, () => tokenFor(app, [SUPPLIER], [])));
    const rates = await Promise.all(
      keys.map(async ({ headers: keyHeaders }, k) => {
        const servedBy = [0, 0];
        const acceptedAt: number[] = [];
        let refused = 0;
        let next = 0;
        const start = performance.now();
        await Promise.all(
          [0, 0, 0, 0, 1, 1, 1, 1].map(async (target) => {
            while (next < NOTES_PER_KEY) {
              const n = 2 * (k * NOTES_PER_KEY + next++) + 1;
              const note = {
                import_supplier: SUPPLIER,
                external_account_number: ext(n),
                notes: [{ body: `fleet note ${n}` }],
              };
              for (let attempt = 0; ; attempt++) {
                assert.ok(attempt < 1_000, `note ${n}: refused 1,000 times`);
                const res = await post(target, '/v1/data-import/notes/create/', keyHeaders, note);
                if (res.status === 429) {
                  await res.arrayBuffer();
                  refused++;
                  await sleep(10);
                  continue;
                }
                const text = await res.text();
                assert.equal(res.status, 201, text);
                acceptedAt.push(performance.now() - start);
                servedBy[target]++;
                break;
              }
            }
          }),
        );
        // Past the first second (the bucket starts full: a second's worth at once).
        const end = acceptedAt.at(-1)!;
        const rate = acceptedAt.filter((t) => t > 1_000).length / ((end - 1_000) / 1000);
        return { rate, servedBy, refused };
      }),
    );
    const detail = rates.map(
      (r) => `${r.rate.toFixed(1)}/s (${r.servedBy.join(' + ')}, ${r.refused} refused)`,
    );
    console.log(`notes per key: ${detail.join('; ')}`);
    // The limit is the fleet's: never above it by more than 10 % (two processes each at the limit
    // would give 50/s). Below it only as far as a busy machine serves less than asked while the
    // key is refused (the suite runs another file beside this one).
    for (const r of rates) {
      assert.ok(r.rate <= RATE * 1.1 && r.rate >= RATE * 0.8, detail.join('; '));
      assert.ok(r.refused >= 20, `each key was offered more than its limit: ${detail.join('; ')}`);
      for (const served of r.servedBy)
        assert.ok(served > NOTES_PER_KEY / 4, `both processes served: ${detail}`);
    }
    assert.equal(
      await count(
        "SELECT count(DISTINCT (account_id, body))::int AS n FROM notes WHERE body LIKE 'fleet note %'",
      ),
      NOTES,
    );
    assert.equal(await count("SELECT count(*)::int AS n FROM notes WHERE body LIKE 'fleet note %'"), NOTES);

    // 4. Every event of the supplier's feed reaches the endpoint, signed; one delivery row each.
    const events = await everyEventDelivered();
    const ofType = (type: string) => events.filter((e) => e.type === type);
    const processedEvents = ofType('EVENT_ACCOUNT_IMPORT_PROCESS_PROCESSED');
    assert.equal(new Set(processedEvents.map((e) => e.external_account_number)).size, ACCOUNTS);
    assert.equal(processedEvents.length, ACCOUNTS, 'no account was created twice');
    assert.equal(ofType('EVENT_NOTE_ADDED').length, NOTES);
    for (const p of receiver.received)
      assert.ok(signatureValid(secret, p.headers['ferry-signature'], p.body), p.body);
    const states = await tdb.db.query<{ state: string; n: number }>(
      sql('', 'SELECT state, count(*)::int AS n FROM webhook_deliveries GROUP BY state'),
    );
    assert.deepEqual(states.rows, [{ state: 'delivered', n: events.length }]);
    console.log(
      `${events.length} events, ${receiver.received.length} POSTs; ${unanswered} bulk requests unanswered by the killed API process (in flight, or refused while it restarted), ${refusedOnRetry.length} accounts refused on their retry`,
    );

    for (const p of [...apis, workers]) p.child.kill('SIGTERM');
    await Promise.all([...started].map((c) => new Promise((r) => c.once('exit', r))));
  });
});
