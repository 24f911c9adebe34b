/**
 * `ferry push` as a supplier runs it: the real binary (bin/ferry.js) as a process, against the
 * service on a real socket with a worker creating the accounts.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { AccountPush } from '../../src/cli/push/push-accounts.ts';
import { PushAbort, PushSession } from '../../src/cli/push/push-session.ts';
import { sql } from '../../src/infra/db/db.ts';
import { accountFor } from '../helpers/account-fixtures.ts';
import { type HttpFault, startHttpFaultProxy } from '../helpers/http-fault-proxy.ts';
import { REFUSED_URL } from '../helpers/ports.ts';
import { serviceForPush } from '../helpers/push-run.ts';
import { type TestApp, tokenFor } from '../helpers/test-app.ts';

/**
 * The Done-when test's size: 5,000 accounts, as the issue asks (≈ 20 s on PGlite through the bulk
 * endpoint; single requests took 100 s). FERRY_PUSH_TEST_ACCOUNTS sets another size.
 */
const ACCOUNTS = Number(process.env.FERRY_PUSH_TEST_ACCOUNTS) || 5_000;
const INVALID = 20;

interface Run {
  child: ChildProcess;
  exited: Promise<number | null>;
  out: () => string;
  err: () => string;
}

function push(args: string[], env: Record<string, string> = {}): Run {
  const child = spawn(process.execPath, ['bin/ferry.js', 'push', ...args], {
    // Only what each test passes: no URL or key from the environment running the tests.
    env: { ...process.env, FERRY_PUSH_PROGRESS_MS: '2000', FERRY_URL: '', FERRY_API_KEY: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout!.on('data', (d) => {
    out += d;
  });
  child.stderr!.on('data', (d) => {
    err += d;
  });
  const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
  return { child, exited, out: () => out, err: () => err };
}

// biome-ignore lint/suspicious/noExplicitAny: report lines are loose JSON
const readReport = (path: string): Record<string, any>[] =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));

let nextAccount = 0;

/**
 * The accounts of a book (meter points unique across books): valid ones, and `invalid` of them
 * with a landline that is not a phone number.
 */
function writeBook(path: string, supplier: string, count: number, invalid: number): Set<string> {
  const invalidExternals = new Set<string>();
  const step = Math.floor(count / Math.max(invalid, 1));
  const lines: string[] = [];
  const first = nextAccount;
  nextAccount += count;
  for (let n = 0; n < count; n++) {
    const a = accountFor(supplier, first + n);
    a.external_account_number = `EXT-${String(n).padStart(7, '0')}`;
    if (invalidExternals.size < invalid && n % step === step - 1) {
      a.customers[0].landline = 'not a phone';
      invalidExternals.add(a.external_account_number);
    }
    lines.push(JSON.stringify(a));
  }
  writeFileSync(path, `${lines.join('\n')}\n`);
  return invalidExternals;
}

describe('ferry push', () => {
  let t: TestApp;
  let baseUrl: string;
  let dir: string;
  let service: Awaited<ReturnType<typeof serviceForPush>> | undefined;

  before(async () => {
    service = await serviceForPush('ferry-push-');
    ({ t, baseUrl, dir } = service);
  });
  after(() => service?.close());

  /** The report holds each account once, final, and the service holds each valid one once. */
  async function assertFinalReport(
    supplier: string,
    headers: Record<string, string>,
    report: string,
    count: number,
    invalid: Set<string>,
  ) {
    const lines = readReport(report);
    const byExternal = new Map(lines.map((l) => [l.external_account_number, l]));
    assert.equal(byExternal.size, lines.length, 'every account once');
    assert.equal(lines.length, count);
    for (const l of lines) {
      if (invalid.has(l.external_account_number)) {
        assert.equal(l.status, 'REJECTED', JSON.stringify(l));
        assert.equal(l.service_account_number, null);
        assert.ok(
          l.errors.some(
            (e: { code: string; attr: string }) =>
              e.code === 'invalid_phone_number' && e.attr === 'customers.0.landline',
          ),
          JSON.stringify(l),
        );
      } else {
        assert.equal(l.status, 'PROCESSED', JSON.stringify(l));
        assert.match(l.service_account_number, /\S/);
        assert.deepEqual(l.errors, []);
      }
    }
    const imported = await t.app.inject({
      method: 'GET',
      url: `/v1/data-import/imported-account-import-processes/${supplier}/`,
      headers,
    });
    const list = imported.json() as { external_account_number: string; service_account_number: string }[];
    assert.equal(list.length, count - invalid.size);
    for (const r of list) {
      assert.equal(
        byExternal.get(r.external_account_number)?.service_account_number,
        r.service_account_number,
      );
    }
    const { rows } = await t.db.query<{ n: number; distinct_n: number }>(
      sql(
        '',
        'SELECT count(*)::int AS n, count(DISTINCT external_account_number)::int AS distinct_n FROM accounts WHERE import_supplier = $1',
      ),
      [supplier],
    );
    assert.deepEqual(
      rows[0],
      { n: count - invalid.size, distinct_n: count - invalid.size },
      'none created twice',
    );
  }

  /** A supplier with an API key, and a book of `count` accounts for it (`invalid` of them invalid). */
  async function bookFor(name: string, count: number, invalidCount: number) {
    const supplier = `PUSH_${name.toUpperCase()}`;
    const { apiKey, headers } = await tokenFor(t.app, [supplier]);
    const file = join(dir, `${name}.ndjson`);
    const invalid = writeBook(file, supplier, count, invalidCount);
    return { supplier, apiKey, headers, file, report: join(dir, `${name}-report.ndjson`), invalid };
  }

  it(`pushes ${ACCOUNTS} accounts (${INVALID} invalid), is killed mid-run, and resumes to a complete report`, async () => {
    const { supplier, apiKey, headers, file, report, invalid } = await bookFor('book', ACCOUNTS, INVALID);
    const args = ['accounts', file, '--url', baseUrl, '--api-key', apiKey, '--report', report];

    const first = push(args);
    const killAt = Math.floor(ACCOUNTS / 3);
    for (;;) {
      const written = existsSync(report) ? readFileSync(report, 'utf8').split('\n').length - 1 : 0;
      if (written >= killAt) break;
      if (first.child.exitCode !== null) assert.fail(`push ended before it was killed: ${first.err()}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    first.child.kill('SIGKILL');
    await first.exited;
    const afterKill = readReport(report).length;
    assert.ok(afterKill < ACCOUNTS, 'killed before the end');

    const second = push(args);
    assert.equal(await second.exited, 1, second.err());
    // In the order the states were first met: resumed lines wait for the service's word (in bulk).
    assert.match(second.out(), new RegExp(`\\(.*PROCESSED ${ACCOUNTS - INVALID}\\b`));
    assert.match(second.out(), new RegExp(`\\(.*REJECTED ${INVALID}\\b`));
    assert.match(second.err(), /ferry push accounts: \d+\/\d+ final/, 'plain progress lines off a terminal');
    await assertFinalReport(supplier, headers, report, ACCOUNTS, invalid);
    assert.ok(!existsSync(`${report}.journal`), 'the journal is removed when nothing is outstanding');

    // Once more: everything is final, nothing is sent.
    const third = push(args);
    assert.equal(await third.exited, 1);
    assert.equal(readReport(report).length, ACCOUNTS);
  });

  it('gets the same report through a proxy answering 429, 500, 503, 401 and dropping connections', async () => {
    const count = 200;
    const { supplier, apiKey, headers, file, report, invalid } = await bookFor('faults', count, 5);
    // A fixed pseudo-random sequence: about one request in six meets a fault.
    let seed = 42;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const kinds: HttpFault[] = [429, 500, 503, 'drop-before', 'drop-after'];
    // Bulk scheduling and batched polls need few requests: the first ones meet every fault in
    // turn (the bulk request among them, dropped once after the service acted), then at random.
    const first: HttpFault[] = [...kinds, 401];
    let n = 0;
    const proxy = await startHttpFaultProxy(baseUrl, (_n, req) => {
      if (req.url?.startsWith('/v1/graphql/') || req.url === '/openapi.json') return 'forward';
      const fault = first[n++];
      if (fault !== undefined) return fault;
      return random() < 0.17 ? kinds[Math.floor(random() * kinds.length)] : 'forward';
    });
    try {
      const run = push(['accounts', file, '--url', proxy.url, '--api-key', apiKey, '--report', report]);
      assert.equal(await run.exited, 1, run.err());
      for (const kind of [...kinds, 401])
        assert.ok(proxy.faults[kind] > 0, `${kind}: ${JSON.stringify(proxy.faults)}`);
      assert.match(run.out(), /requests retried/);
      await assertFinalReport(supplier, headers, report, count, invalid);
    } finally {
      await proxy.close();
    }
  });

  it('pushes follow-ups, one report line per input line, and resumes without sending twice', async () => {
    const supplier = 'PUSH_NOTES';
    const { apiKey } = await tokenFor(t.app, [supplier]);
    const accounts = join(dir, 'notes-accounts.ndjson');
    writeBook(accounts, supplier, 2, 0);
    const pushed = push(['accounts', accounts, '--url', baseUrl, '--api-key', apiKey]);
    assert.equal(await pushed.exited, 0, pushed.err());
    assert.ok(
      existsSync(join(dir, 'notes-accounts.report.ndjson')),
      'the default report sits beside the file',
    );

    const notes = join(dir, 'notes.ndjson');
    const note = (ext: string, body: string) =>
      JSON.stringify({ import_supplier: supplier, external_account_number: ext, notes: [{ body }] });
    writeFileSync(
      notes,
      [
        note('EXT-0000000', 'first'),
        note('EXT-0000001', 'second'),
        note('EXT-NOPE', 'lost'),
        '{not json',
      ].join('\n'),
    );
    const report = join(dir, 'notes-report.ndjson');
    const args = ['notes', notes, '--url', baseUrl, '--api-key', apiKey, '--report', report];
    const run = push(args);
    assert.equal(await run.exited, 1, run.err());
    const lines = readReport(report).sort((a, b) => a.line - b.line);
    assert.deepEqual(
      lines.map((l) => [l.line, l.external_account_number, l.status]),
      [
        [1, 'EXT-0000000', 'CREATED'],
        [2, 'EXT-0000001', 'CREATED'],
        [3, 'EXT-NOPE', 'REJECTED'],
        [4, null, 'REJECTED'],
      ],
    );
    assert.equal(lines[2].errors[0].code, 'not_found');
    assert.equal(lines[3].errors[0].code, 'invalid_json');

    const again = push(args);
    assert.equal(await again.exited, 1);
    assert.equal(readReport(report).length, 4, 'lines already reported are not sent again');
    const { rows } = await t.db.query<{ n: number }>(
      sql(
        '',
        "SELECT count(*)::int AS n FROM notes n JOIN accounts a ON a.id = n.account_id WHERE a.import_supplier = $1 AND n.body IN ('first', 'second')",
      ),
      [supplier],
    );
    assert.equal(rows[0].n, 2, 'each note once');

    // A note already on its account (the same external_id) is reported as such, and succeeds.
    const known = join(dir, 'notes-known.ndjson');
    writeFileSync(
      known,
      `${JSON.stringify({ import_supplier: supplier, external_account_number: 'EXT-0000000', notes: [{ body: 'once', external_id: 'n-1' }] })}\n`,
    );
    const knownArgs = (name: string) => [
      'notes',
      known,
      '--url',
      baseUrl,
      '--api-key',
      apiKey,
      '--report',
      join(dir, name),
    ];
    const added = push(knownArgs('notes-known-1.ndjson'));
    assert.equal(await added.exited, 0, added.err());
    const addedAgain = push(knownArgs('notes-known-2.ndjson'));
    assert.equal(await addedAgain.exited, 0, addedAgain.err());
    assert.deepEqual(
      [
        ...readReport(join(dir, 'notes-known-1.ndjson')),
        ...readReport(join(dir, 'notes-known-2.ndjson')),
      ].map((l) => [l.status, l.result[0].status]),
      [
        ['CREATED', 'NOTE_CREATION_SUCCESS'],
        ['ALREADY_EXISTS', 'NOTE_ALREADY_EXISTS'],
      ],
    );
    assert.match(addedAgain.out(), /1 lines final \(ALREADY_EXISTS 1\)/);

    // Transactions: each line's text is sent as written (12.30 stays 12.30); a transaction the
    // service cannot add is reported with its code.
    const transactions = join(dir, 'transactions.ndjson');
    const payment = (ext: string, id: string, amount: string, date: string) =>
      `{"import_supplier":"${supplier}","external_account_number":"${ext}","transactions":[{"transaction_id":"${id}","transaction_date":"${date}","amount":${amount},"type":"PAYMENT","reason":"ACCOUNT_CHARGE_PAYMENT"}]}`;
    writeFileSync(
      transactions,
      [
        payment('EXT-0000000', 'push-1', '12.30', '2020-01-15'),
        payment('EXT-0000001', 'push-2', '7.05', '2999-01-01'),
      ].join('\n'),
    );
    const txReport = join(dir, 'transactions-report.ndjson');
    const txRun = push([
      'transactions',
      transactions,
      '--url',
      baseUrl,
      '--api-key',
      apiKey,
      '--report',
      txReport,
    ]);
    assert.equal(await txRun.exited, 1, txRun.err());
    const txLines = readReport(txReport).sort((a, b) => a.line - b.line);
    assert.deepEqual(
      txLines.map((l) => [l.line, l.external_account_number, l.status]),
      [
        [1, 'EXT-0000000', 'CREATED'],
        [2, 'EXT-0000001', 'REJECTED'],
      ],
    );
    assert.equal(txLines[1].errors[0].code, 'transaction_in_future');
    // The same transactions again (another report): the one added is there already.
    const txAgain = push([
      'transactions',
      transactions,
      '--url',
      baseUrl,
      '--api-key',
      apiKey,
      '--report',
      join(dir, 'transactions-again.ndjson'),
    ]);
    assert.equal(await txAgain.exited, 1, txAgain.err());
    assert.deepEqual(
      readReport(join(dir, 'transactions-again.ndjson'))
        .sort((a, b) => a.line - b.line)
        .map((l) => l.status),
      ['ALREADY_EXISTS', 'REJECTED'],
    );
    const stored = await t.db.query<{ amount: string }>(
      sql('', "SELECT amount::text AS amount FROM transactions WHERE transaction_id = 'push-1'"),
    );
    assert.deepEqual(stored.rows, [{ amount: '12.30' }]);
  });

  it('validates only, or schedules dry runs, when asked', async () => {
    const supplier = 'PUSH_DRY';
    const { apiKey } = await tokenFor(t.app, [supplier]);
    const file = join(dir, 'dry.ndjson');
    writeBook(file, supplier, 4, 1);
    const validated = push(['accounts', file, '--url', baseUrl, '--api-key', apiKey, '--validate-only']);
    assert.equal(await validated.exited, 1, validated.err());
    const validation = readReport(join(dir, 'dry.validation.ndjson'));
    assert.deepEqual(validation.map((l) => l.status).sort(), ['REJECTED', 'VALID', 'VALID', 'VALID']);

    const dry = push(['accounts', file, '--url', baseUrl, '--api-key', apiKey, '--dry-run']);
    assert.equal(await dry.exited, 1, dry.err());
    const report = readReport(join(dir, 'dry.report.ndjson'));
    assert.deepEqual(report.map((l) => l.status).sort(), [
      'DRY_RUN_SUCCEEDED',
      'DRY_RUN_SUCCEEDED',
      'DRY_RUN_SUCCEEDED',
      'REJECTED',
    ]);
    const { rows } = await t.db.query<{ n: number }>(
      sql('', 'SELECT count(*)::int AS n FROM accounts WHERE import_supplier = $1'),
      [supplier],
    );
    assert.equal(rows[0].n, 0, 'a dry run creates nothing');
  });

  it('schedules and polls in batches when the server offers it, one account a request when not', async () => {
    const BULK = '/v2/data-import/accounts/bulk/';
    const SINGLE = '/v2/data-import/accounts/';
    const counting = (hideBulk: boolean) => {
      const seen = { bulk: 0, single: 0, statuses: 0, polls: 0 };
      const proxy = startHttpFaultProxy(baseUrl, (_n, req) => {
        if (req.url === BULK) seen.bulk++;
        if (req.url === SINGLE) seen.single++;
        if (req.url === '/v2/data-import/accounts/statuses/') seen.statuses++;
        if (req.method === 'GET' && req.url?.startsWith('/v2/data-import/accounts/PUSH_')) seen.polls++;
        // Outcomes by polling here (push-feed.test.ts follows the event feed): no feed offered.
        if (req.url?.startsWith('/v2/data-import/events/')) return 404;
        // A service whose document cannot be read offers only the interface's own endpoints.
        return hideBulk && req.url === '/openapi.json' ? 500 : 'forward';
      });
      return { seen, proxy };
    };

    const offered = counting(false);
    const withBulk = await offered.proxy;
    try {
      const { supplier, apiKey, headers, file, report, invalid } = await bookFor('bulk', 1_050, 3);
      const run = push(['accounts', file, '--url', withBulk.url, '--api-key', apiKey, '--report', report]);
      assert.equal(await run.exited, 1, run.err());
      const { statuses, ...sent } = offered.seen;
      assert.deepEqual(sent, { bulk: 2, single: 0, polls: 0 }, 'batches of 1,000, polled in batches');
      assert.ok(statuses > 0, 'polled with the statuses endpoint');
      await assertFinalReport(supplier, headers, report, 1_050, invalid);
    } finally {
      await withBulk.close();
    }

    const hidden = counting(true);
    const withoutBulk = await hidden.proxy;
    try {
      const { supplier, apiKey, headers, file, report, invalid } = await bookFor('single', 40, 2);
      const run = push(['accounts', file, '--url', withoutBulk.url, '--api-key', apiKey, '--report', report]);
      assert.equal(await run.exited, 1, run.err());
      assert.equal(hidden.seen.bulk, 0);
      assert.equal(hidden.seen.statuses, 0);
      assert.ok(hidden.seen.polls > 0);
      assert.ok(hidden.seen.single >= 38, `${hidden.seen.single} single requests`);
      await assertFinalReport(supplier, headers, report, 40, invalid);
    } finally {
      await withoutBulk.close();
    }
  });

  it('stops when the service goes away mid-run, keeping what was done, and a re-run finishes', async () => {
    const count = 150;
    const { supplier, apiKey, headers, file, report, invalid } = await bookFor('outage', count, 2);
    let down = false;
    let requests = 0;
    const proxy = await startHttpFaultProxy(baseUrl, () => {
      if (++requests === 120) down = true;
      return down ? 'drop-before' : 'forward';
    });
    const attempt = (url: string) => {
      const session = new PushSession({
        baseUrl: url,
        apiKey,
        concurrency: 4,
        retry: { attempts: 3, baseDelayMs: 10, maxDelayMs: 50 },
      });
      return {
        session,
        push: new AccountPush({
          session,
          file,
          reportPath: report,
          mode: 'schedule',
          concurrency: 4,
          bulk: false,
          warn() {},
        }),
      };
    };
    try {
      const first = attempt(proxy.url);
      await first.session.start();
      await assert.rejects(
        first.push.run(),
        (err) => err instanceof PushAbort && err.message.includes(proxy.url),
      );
      const kept = readReport(report).length;
      assert.ok(kept < count, `${kept} final before the outage`);
      assert.ok(existsSync(`${report}.journal`), 'what was scheduled is remembered');
    } finally {
      await proxy.close();
    }
    const second = attempt(baseUrl);
    await second.session.start();
    assert.equal(await second.push.run(), 1);
    await assertFinalReport(supplier, headers, report, count, invalid);
  });

  it('holds no account data while the accounts it sent wait for the worker', async () => {
    // Due in an hour: everything is sent, and all of it outstanding, before the worker may start
    // on any of it; then made due at once.
    const count = 300;
    const { supplier, apiKey, headers, file, report } = await bookFor('waiting', count, 0);
    const due = new Date(Date.now() + 3_600_000).toISOString().replace(/\.\d+Z$/, 'Z');
    const lines = readFileSync(file, 'utf8').split('\n').filter(Boolean);
    writeFileSync(
      file,
      `${lines.map((l) => JSON.stringify({ payload: JSON.parse(l), task_params: { schedule_window_start: due } })).join('\n')}\n`,
    );
    const session = new PushSession({ baseUrl, apiKey, concurrency: 4 });
    await session.start();
    const run = new AccountPush({
      session,
      file,
      reportPath: report,
      mode: 'schedule',
      concurrency: 4,
      bulk: true,
      batchStatus: true,
      warn() {},
    });
    const finished = run.run();
    // Should an assertion fail first, the run's own failure is not left unhandled.
    finished.catch(() => {});
    const deadline = Date.now() + 60_000;
    while (run.outstanding.size < count && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    assert.equal(run.outstanding.size, count, 'all sent, none due');
    for (const o of run.outstanding.values()) {
      assert.deepEqual(
        Object.keys(o).sort(),
        ['bytes', 'digest', 'ext', 'key', 'line', 'offset', 'since', 'supplier'],
        'no text, no value',
      );
    }
    await t.db.query(
      sql('', 'UPDATE import_processes SET schedule_window_start = now() WHERE import_supplier = $1'),
      [supplier],
    );
    assert.equal(await finished, 0);
    await assertFinalReport(supplier, headers, report, count, new Set());
  });

  it('sends again what its journal says was scheduled when the service does not know it', async () => {
    const { supplier, apiKey, headers, file, report } = await bookFor('journaled', 12, 0);
    const accounts = readReport(file);
    // A journal from a run against another service: four of the accounts "scheduled" there.
    const journaled = accounts
      .slice(0, 8)
      .filter((_, i) => i % 2 === 0)
      .map((a) =>
        JSON.stringify({ key: a.external_account_number, import_supplier: supplier, status: 'SCHEDULED' }),
      );
    writeFileSync(`${report}.journal`, `${journaled.join('\n')}\n`);
    // CRLF line breaks, and a later, invalid line for one of them: the line sent again is the
    // first one, read from where it is in the file.
    const again = { ...accounts[2], customers: [{ ...accounts[2].customers[0], landline: 'not a phone' }] };
    writeFileSync(file, `${[...accounts, again].map((a) => JSON.stringify(a)).join('\r\n')}\r\n`);
    const run = push(['accounts', file, '--url', baseUrl, '--api-key', apiKey, '--report', report]);
    assert.equal(await run.exited, 0, run.err());
    await assertFinalReport(supplier, headers, report, 12, new Set());
    assert.ok(!existsSync(`${report}.journal`));
  });

  it('exits 2 when it cannot run: usage, a bad key, an unreachable server', async () => {
    const file = join(dir, 'one.ndjson');
    writeBook(file, 'PUSH_NONE', 1, 0);
    const noUrl = push(['accounts', file, '--api-key', 'k']);
    assert.equal(await noUrl.exited, 2);
    assert.match(noUrl.err(), /--url \(or FERRY_URL\) is required/);

    const badKey = push(['accounts', file, '--url', baseUrl, '--api-key', 'ferry_not_a_key']);
    assert.equal(await badKey.exited, 2);
    assert.match(badKey.err(), /refused the API key: invalid_api_key/);

    const url = REFUSED_URL;
    // The URL may come from FERRY_URL, as for the operator commands.
    const unreachable = push(['accounts', file, '--api-key', 'k'], { FERRY_URL: url });
    assert.equal(await unreachable.exited, 2);
    assert.ok(unreachable.err().includes(`cannot reach ${url}`), unreachable.err());
    assert.match(unreachable.err(), /ECONNREFUSED/);
  });
});
