/**
 * `ferry push accounts` following its accounts through the event feed (decision 0073): with the
 * feed offered, a book of 5,000 accounts is followed with no status poll, and the report is the
 * one a run that polls writes (the feed answered 404 by the proxy in front, as a service without
 * it answers). Some accounts end ERRORED (their schedule window closed) and CANCELLED (by the
 * operator) so that every kind of report line is compared, not only PROCESSED and REJECTED.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { sql } from '../../src/infra/db/db.ts';
import { accountFor } from '../helpers/account-fixtures.ts';
import { readNdjson, serviceForPush, startPush } from '../helpers/push-run.ts';
import { admin, tokenFor } from '../helpers/test-app.ts';

/** The size; FERRY_PUSH_TEST_ACCOUNTS sets another. */
const ACCOUNTS = Number(process.env.FERRY_PUSH_TEST_ACCOUNTS) || 5_000;
const INVALID = 20;
/** Scheduled an hour ahead, then ended by the test: EXPIRED of them ERRORED, the rest CANCELLED. */
const HELD = 10;
const EXPIRED = 6;
const SUPPLIER = 'PUSH_FEED';
const FEED = '/v2/data-import/events/';
const STATUSES = '/v2/data-import/accounts/statuses/';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * A proxy on loopback that counts the requests by what they ask, keeps the identifiers each
 * statuses request asks about, with `hideFeed` answers 404 for the feed, and forwards each
 * request once `before` lets it.
 */
async function countingProxy(
  target: string,
  opts: { hideFeed?: boolean; before?: (method: string, path: string) => Promise<void> } = {},
) {
  const upstream = new URL(target);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  const seen = { feed: 0, statuses: 0, polls: 0, schedules: 0 };
  const asked: string[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const body = Buffer.concat(chunks);
      const path = req.url ?? '';
      if (path.startsWith(FEED)) seen.feed++;
      if (path === STATUSES) {
        seen.statuses++;
        asked.push(...(JSON.parse(body.toString()).external_identifiers as string[]));
      }
      if (req.method === 'GET' && path.startsWith(`/v2/data-import/accounts/${SUPPLIER}/`)) seen.polls++;
      if (req.method === 'POST' && path.startsWith('/v2/data-import/accounts/bulk/')) seen.schedules++;
      if (opts.hideFeed && path.startsWith(FEED)) {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ detail: 'Not found.' }));
        return;
      }
      await opts.before?.(req.method ?? '', path);
      const out = http.request(
        {
          host: upstream.hostname,
          port: upstream.port,
          method: req.method,
          path,
          headers: req.headers,
          agent,
        },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      out.on('error', () => req.socket.destroy());
      out.end(body);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    asked,
    async close() {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
      agent.destroy();
    },
  };
}

/** When the held accounts are due: the same in both runs, so that their lines are the same. */
const DUE = new Date(Date.now() + 3_600_000).toISOString().replace(/\.\d+Z$/, 'Z');

/** The book: valid accounts, INVALID of them refused at scheduling, HELD of them due in an hour. */
function writeBook(path: string) {
  const invalid: string[] = [];
  const held: string[] = [];
  const lines: string[] = [];
  for (let n = 0; n < ACCOUNTS; n++) {
    const a = accountFor(SUPPLIER, n);
    if (n % Math.floor(ACCOUNTS / INVALID) === 7) {
      a.customers[0].landline = 'not a phone';
      invalid.push(a.external_account_number);
    }
    if (n % Math.floor(ACCOUNTS / HELD) === 11) {
      held.push(a.external_account_number);
      lines.push(JSON.stringify({ payload: a, task_params: { schedule_window_start: DUE } }));
    } else lines.push(JSON.stringify(a));
  }
  writeFileSync(path, `${lines.join('\n')}\n`);
  return { invalid, held };
}

const countFinal = sql(
  '',
  `SELECT count(*) FILTER (WHERE status IN ('PROCESSED', 'ERRORED', 'CANCELLED'))::int AS final,
          count(*) FILTER (WHERE status = 'PENDING' AND schedule_window_start > now())::int AS held
     FROM import_processes WHERE import_supplier = $1`,
);
const closeWindows = sql(
  '',
  `UPDATE import_processes SET schedule_window_end = now() - interval '1 second'
    WHERE import_supplier = $1 AND external_account_number = ANY($2::text[])`,
);

/** Pushes the book to a fresh service through the counting proxy; the report and what the service holds. */
async function pushBook(kind: 'feed' | 'poll') {
  const service = await serviceForPush(`ferry-push-${kind}-`);
  const { t, dir } = service;
  const proxy = await countingProxy(service.baseUrl, { hideFeed: kind === 'poll' });
  try {
    const { apiKey, headers } = await tokenFor(t.app, [SUPPLIER]);
    const file = join(dir, 'book.ndjson');
    const report = join(dir, 'book.report.ndjson');
    const { invalid, held } = writeBook(file);
    const started = Date.now();
    const run = startPush([file, '--url', proxy.url, '--api-key', apiKey, '--report', report]);
    const exited = run.done.then((code) => ({ code }));
    // Everything but the held accounts created: end those, some by their window, some by the operator.
    for (;;) {
      const { rows } = await t.db.query<{ final: number; held: number }>(countFinal, [SUPPLIER]);
      if (rows[0].final === ACCOUNTS - INVALID - HELD && rows[0].held === HELD) break;
      const early = await Promise.race([exited, sleep(100)]);
      if (early) assert.fail(`the push ended early: ${run.err()}`);
    }
    await t.db.query(closeWindows, [SUPPLIER, held.slice(0, EXPIRED)]);
    for (const ext of held.slice(EXPIRED))
      await admin(t.app, 'POST', `/import-processes/${SUPPLIER}/${ext}/cancel/`);
    const { code } = await exited;
    assert.equal(code, 1, run.err());
    const imported = await t.app.inject({
      url: `/v1/data-import/imported-account-import-processes/${SUPPLIER}/`,
      headers,
    });
    const numbers = new Map(
      (imported.json() as { external_account_number: string; service_account_number: string }[]).map((r) => [
        r.external_account_number,
        r.service_account_number,
      ]),
    );
    return {
      report: readNdjson(report),
      numbers,
      invalid,
      held,
      seen: { ...proxy.seen },
      asked: [...proxy.asked],
      seconds: (Date.now() - started) / 1000,
    };
  } finally {
    await proxy.close();
    await service.close();
  }
}

describe('ferry push following the event feed', () => {
  it(`follows ${ACCOUNTS} accounts with no status poll, and writes the report polling writes`, async () => {
    const polled = await pushBook('poll');
    const feed = await pushBook('feed');
    const processed = ACCOUNTS - INVALID - HELD;

    // With the feed: no status asked at all, not even the account numbers (the PROCESSED event
    // carries its service_identifier).
    assert.equal(feed.seen.polls, 0, 'no single status poll');
    assert.equal(feed.seen.statuses, 0, JSON.stringify(feed.seen));
    assert.equal(feed.asked.length, 0);
    assert.ok(feed.seen.feed >= 2, 'the probe, then pages');
    // Polling forced: the probe met a 404, and the statuses endpoint did the following.
    assert.equal(polled.seen.feed, 1);
    assert.ok(polled.seen.statuses > 0);

    for (const run of [feed, polled]) {
      const counts: Record<string, number> = {};
      for (const l of run.report) counts[l.status] = (counts[l.status] ?? 0) + 1;
      assert.deepEqual(counts, {
        PROCESSED: processed,
        REJECTED: INVALID,
        ERRORED: EXPIRED,
        CANCELLED: HELD - EXPIRED,
      });
      // Each account number is the one the service gave the account (they differ between services).
      for (const l of run.report)
        assert.equal(
          l.service_account_number,
          run.numbers.get(l.external_account_number) ?? null,
          JSON.stringify(l),
        );
    }
    const expired = feed.report.find((l) => l.status === 'ERRORED');
    assert.equal(expired?.errors[0]?.code, 'schedule_window_expired');
    // Line by line, the same report but for the account numbers each service drew.
    const comparable = (lines: typeof feed.report) =>
      lines
        .map((l): (typeof lines)[number] => ({
          ...l,
          service_account_number: l.service_account_number !== null,
        }))
        .sort((x, y) => x.line - y.line);
    const a = comparable(feed.report);
    const b = comparable(polled.report);
    assert.equal(a.length, ACCOUNTS);
    for (let i = 0; i < a.length; i++) assert.deepEqual(a[i], b[i], `line ${a[i].line}`);
    console.error(
      `feed ${feed.seconds} s, polling ${polled.seconds} s; requests ${JSON.stringify({ feed: feed.seen, poll: polled.seen })}`,
    );
  });

  it('takes for an account the outcome that follows its own scheduling, not an earlier process ending', async () => {
    const service = await serviceForPush('ferry-push-stale-');
    const { t, dir } = service;
    const supplier = 'PUSH_STALE';
    const { apiKey, headers } = await tokenFor(t.app, [supplier]);
    // An earlier process of the first account, due in an hour: it ends (ERRORED) after the push
    // has taken its cursor and before the push's scheduling replaces it.
    const accounts = [0, 1, 2].map((n) => accountFor(supplier, 9_000 + n));
    const earlier = await t.app.inject({
      method: 'POST',
      url: '/v2/data-import/accounts/',
      headers,
      payload: { payload: accounts[0], task_params: { schedule_window_start: DUE } },
    });
    assert.equal(earlier.statusCode, 201, earlier.body);
    let release!: () => void;
    const held = new Promise<void>((r) => {
      release = r;
    });
    let waiting = false;
    const proxy = await countingProxy(service.baseUrl, {
      before: async (method, path) => {
        if (method === 'POST' && path.startsWith('/v2/data-import/accounts/bulk/')) {
          waiting = true;
          await held;
        }
      },
    });
    try {
      const file = join(dir, 'stale.ndjson');
      const report = join(dir, 'stale.report.ndjson');
      writeFileSync(file, `${accounts.map((a) => JSON.stringify(a)).join('\n')}\n`);
      const run = startPush([file, '--url', proxy.url, '--api-key', apiKey, '--report', report]);
      while (!waiting) await sleep(20);
      assert.equal(proxy.seen.feed, 1, 'the cursor was taken first');
      await t.db.query(closeWindows, [supplier, [accounts[0].external_account_number]]);
      const status = sql(
        '',
        'SELECT status FROM import_processes WHERE external_account_number = $1 AND import_supplier = $2',
      );
      for (;;) {
        const { rows } = await t.db.query<{ status: string }>(status, [
          accounts[0].external_account_number,
          supplier,
        ]);
        if (rows[0].status === 'ERRORED') break;
        await sleep(50);
      }
      // The feed tells of that ending before the push's own scheduling.
      await sleep(600);
      release();
      assert.equal(await run.done, 0, run.err());
      const lines = readNdjson(report);
      assert.deepEqual(
        lines.map((l) => [l.external_account_number, l.status]).sort(),
        accounts.map((a) => [a.external_account_number, 'PROCESSED']),
      );
      assert.equal(proxy.seen.polls + proxy.seen.statuses, 0, 'the account numbers came with the events');
    } finally {
      release();
      await proxy.close();
      await service.close();
    }
  });

  it('reads the statuses once after a long quiet, so an outcome no event told cannot hold it for ever', async () => {
    const service = await serviceForPush('ferry-push-quiet-');
    const { t, dir } = service;
    const supplier = 'PUSH_QUIET';
    const { apiKey } = await tokenFor(t.app, [supplier]);
    const proxy = await countingProxy(service.baseUrl);
    try {
      const accounts = [0, 1, 2].map((n) => accountFor(supplier, 9_100 + n));
      const file = join(dir, 'quiet.ndjson');
      const report = join(dir, 'quiet.report.ndjson');
      const lines = accounts.map((a, i) =>
        JSON.stringify(i === 0 ? { payload: a, task_params: { schedule_window_start: DUE } } : a),
      );
      writeFileSync(file, `${lines.join('\n')}\n`);
      // Stall checks every 0.5 s here: the safety read comes after twenty of them, 10 s of quiet.
      const run = startPush([file, '--url', proxy.url, '--api-key', apiKey, '--report', report], {
        FERRY_PUSH_PAUSE_MAX_MS: '500',
      });
      const counts = sql(
        '',
        `SELECT count(*) FILTER (WHERE status = 'PROCESSED')::int AS done FROM import_processes WHERE import_supplier = $1`,
      );
      while ((await t.db.query<{ done: number }>(counts, [supplier])).rows[0].done < 2) await sleep(50);
      // Cancelled behind the feed's back: no event tells of it.
      await t.db.query(
        sql('', `UPDATE import_processes SET status = 'CANCELLED' WHERE external_account_number = $1`),
        [accounts[0].external_account_number],
      );
      const ended = await Promise.race([run.done, sleep(30_000).then(() => 'still waiting')]);
      assert.equal(ended, 1, run.err());
      assert.deepEqual(
        Object.fromEntries(readNdjson(report).map((l) => [l.external_account_number, l.status])),
        {
          [accounts[0].external_account_number]: 'CANCELLED',
          [accounts[1].external_account_number]: 'PROCESSED',
          [accounts[2].external_account_number]: 'PROCESSED',
        },
      );
      assert.equal(proxy.seen.polls, 0);
    } finally {
      await proxy.close();
      await service.close();
    }
  });
});
