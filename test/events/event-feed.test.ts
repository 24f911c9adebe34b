/**
 * The event feed (decision 0071): a supplier's events in pages by a cursor, every event exactly
 * once and in cursor order, even while writers commit out of order.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { startWorker } from '../../src/account-import/queue/worker.ts';
import { sql } from '../../src/infra/db/db.ts';
import { accountFor } from '../helpers/account-fixtures.ts';
import { importAccounts } from '../helpers/imported-accounts.ts';
import { admin, createTestApp, type TestApp, tokenFor } from '../helpers/test-app.ts';
import { createTestDb, feedSettled, type TestDb, usingPostgresServer } from '../helpers/test-db.ts';

// biome-ignore lint/suspicious/noExplicitAny: JSON bodies
type Obj = Record<string, any>;

const FEED = '/v2/data-import/events/';
const silent = { info() {}, warn() {}, error() {}, debug() {} };

/** (xid, id) of a cursor, for ordering checks. */
const key = (cursor: string) => cursor.split('_').map(BigInt) as [bigint, bigint];
const before_ = (a: string, b: string) => {
  const [ax, ai] = key(a);
  const [bx, bi] = key(b);
  return ax < bx || (ax === bx && ai < bi);
};

describe('event feed: reading', () => {
  let t: TestApp;
  let headers: Record<string, string>;
  const SUPPLIER = 'FEED';

  before(async () => {
    t = await createTestApp({ RATE_LIMIT_PER_SECOND: '10000' });
    ({ headers } = await tokenFor(t.app, [SUPPLIER]));
  });
  after(() => t.close());

  const page = async (query: string, as = headers) => {
    await feedSettled(t.db);
    const res = await t.app.inject({ url: `${FEED}?import_supplier=${SUPPLIER}${query}`, headers: as });
    return { status: res.statusCode, body: res.json() as Obj };
  };

  it('tells of an account from its scheduling to its creation, and of its follow-ups', async () => {
    const start = (await page('&after=now')).body.next_cursor as string;
    const [ext] = await importAccounts(t, headers, [accountFor(SUPPLIER, 1)]);
    const note = await t.app.inject({
      method: 'POST',
      url: '/v1/data-import/notes/create/',
      headers,
      payload: { import_supplier: SUPPLIER, external_account_number: ext, notes: [{ body: 'Moved in.' }] },
    });
    assert.equal(note.statusCode, 201, note.body);
    const { status, body } = await page(`&after=${start}`);
    assert.equal(status, 200);
    assert.deepEqual(
      body.events.map((e: Obj) => [e.type, e.external_account_number]),
      [
        ['EVENT_ACCOUNT_IMPORT_PROCESS_CREATED', ext],
        ['EVENT_ACCOUNT_IMPORT_PROCESS_STARTED', ext],
        ['EVENT_ACCOUNT_IMPORT_PROCESS_PROCESSED', ext],
        ['EVENT_NOTE_ADDED', ext],
      ],
    );
    const processed = body.events[2];
    assert.equal(processed.import_supplier, SUPPLIER);
    assert.match(processed.occurred_at, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    assert.equal(processed.data.status, 'PROCESSED');
    assert.match(processed.data.import_process_id, /^\d+$/);
    assert.deepEqual(body.events[3].data, { notes: 1 });
    assert.equal(body.next_cursor, body.events.at(-1).id);
    // The next page starts after the last event: nothing new, the same cursor.
    const next = await page(`&after=${body.next_cursor}`);
    assert.deepEqual(next.body, { events: [], next_cursor: body.next_cursor });
    // The types filter.
    const only = await page(`&after=${start}&types=EVENT_NOTE_ADDED,EVENT_ACCOUNT_IMPORT_PROCESS_PROCESSED`);
    assert.deepEqual(
      only.body.events.map((e: Obj) => e.type),
      ['EVENT_ACCOUNT_IMPORT_PROCESS_PROCESSED', 'EVENT_NOTE_ADDED'],
    );
  });

  it("tells of the supplier's status changes", async () => {
    const start = (await page('&after=now')).body.next_cursor as string;
    await admin(t.app, 'PATCH', `/import-suppliers/${SUPPLIER}/`, { status: 'Paused' });
    await admin(t.app, 'PATCH', `/import-suppliers/${SUPPLIER}/`, { status: 'Paused' }); // no change, no event
    await admin(t.app, 'PATCH', `/import-suppliers/${SUPPLIER}/`, { status: 'Ongoing' });
    const { body } = await page(`&after=${start}`);
    assert.deepEqual(
      body.events.map((e: Obj) => [e.type, e.external_account_number, e.data]),
      [
        ['EVENT_SUPPLIER_STATUS_CHANGED', null, { from: 'Ongoing', to: 'Paused' }],
        ['EVENT_SUPPLIER_STATUS_CHANGED', null, { from: 'Paused', to: 'Ongoing' }],
      ],
    );
  });

  it('refuses what is not a cursor, an unknown type, a page size out of range, and another supplier', async () => {
    const bad = await page('&after=12-4&types=EVENT_NOTE_ADDED,EVENT_NOPE&limit=1001');
    assert.equal(bad.status, 400);
    assert.deepEqual(
      bad.body.errors.map((e: Obj) => [e.attr, e.code]),
      [
        ['limit', 'invalid'],
        ['after', 'invalid_cursor'],
        ['types.1', 'unknown_event_type'],
      ],
    );
    assert.equal((await page('&after=99999999999999999999_1')).status, 400, 'beyond xid8');
    const other = await t.app.inject({ url: `${FEED}?import_supplier=OTHER`, headers });
    assert.equal(other.statusCode, 403);
    assert.equal((await t.app.inject({ url: `${FEED}?import_supplier=${SUPPLIER}` })).statusCode, 401);
  });
});

describe('event feed: a transaction that commits after a later one', {
  skip: !usingPostgresServer() && 'needs two connections (a PostgreSQL server)',
}, () => {
  let tdb: TestDb;
  before(async () => {
    tdb = await createTestDb();
    await tdb.db.query(sql('', "INSERT INTO import_suppliers (code, document_root) VALUES ('LATE', 'late')"));
  });
  after(() => tdb.cleanup());

  const insert = `INSERT INTO import_supplier_events (import_supplier, event, data) VALUES ('LATE', 'EVENT_SUPPLIER_STATUS_CHANGED', $1)`;

  it('is not passed over: its event is held back, then read in its place', async () => {
    const { readEvents, FEED_START } = await import('../../src/events/event-feed.ts');
    const early = new pg.Client({ connectionString: tdb.url });
    await early.connect();
    try {
      await early.query('BEGIN');
      await early.query(insert, [{ n: 1 }]); // takes the lower transaction id
      await tdb.db.query(sql('', insert), [{ n: 2 }]); // a later transaction, committed first
      const first = await readEvents(tdb.db, { supplier: 'LATE', after: FEED_START, limit: 10 });
      assert.deepEqual(first.events, [], 'nothing past a transaction still running');
      await early.query('COMMIT');
      await feedSettled(tdb.db);
      const second = await readEvents(tdb.db, { supplier: 'LATE', after: first.next, limit: 10 });
      assert.deepEqual(
        second.events.map((e) => e.data.n),
        [1, 2],
      );
    } finally {
      await early.end();
    }
  });
});

describe('event feed: pages of 7 while 4 writers create accounts and follow-ups', () => {
  const SUPPLIER = 'BUSY';
  const WRITERS = 4;
  const ACCOUNTS_EACH = 12;
  let t: TestApp;
  let headers: Record<string, string>;

  before(async () => {
    t = await createTestApp({ RATE_LIMIT_PER_SECOND: '10000' });
    ({ headers } = await tokenFor(t.app, [SUPPLIER]));
  });
  after(() => t.close());

  const status = async (ext: string) =>
    (
      await t.db.query<{ status: string }>(
        sql(
          '',
          'SELECT status FROM import_processes WHERE import_supplier = $1 AND external_account_number = $2',
        ),
        [SUPPLIER, ext],
      )
    ).rows[0]?.status;

  /** Schedules its accounts one by one and adds a note to each once it is created. */
  async function writer(w: number): Promise<number> {
    const exts: string[] = [];
    for (let i = 0; i < ACCOUNTS_EACH; i++) {
      const account = accountFor(SUPPLIER, w * 1000 + i + 1);
      const res = await t.app.inject({
        method: 'POST',
        url: '/v2/data-import/accounts/',
        headers,
        payload: account,
      });
      assert.equal(res.statusCode, 201, res.body);
      exts.push(account.external_account_number);
    }
    const noted = new Set<string>();
    while (noted.size < exts.length) {
      for (const ext of exts) {
        if (noted.has(ext) || (await status(ext)) !== 'PROCESSED') continue;
        const res = await t.app.inject({
          method: 'POST',
          url: '/v1/data-import/notes/create/',
          headers,
          payload: {
            import_supplier: SUPPLIER,
            external_account_number: ext,
            notes: [{ body: `Note ${ext}` }],
          },
        });
        assert.equal(res.statusCode, 201, res.body);
        noted.add(ext);
      }
      await new Promise((r) => setTimeout(r, 10));
    }
    return exts.length * 4; // CREATED, STARTED, PROCESSED, NOTE_ADDED
  }

  /**
   * Transactions that write an event, then keep running while others commit: on a server their
   * events commit after later ones, which a cursor must not pass over.
   */
  async function slowWriter(stop: () => boolean): Promise<number> {
    let n = 0;
    while (!stop()) {
      await t.db.transaction(async (tx) => {
        await tx.query(
          sql(
            '',
            `INSERT INTO import_supplier_events (import_supplier, event, data)
             VALUES ($1, 'EVENT_SUPPLIER_STATUS_CHANGED', $2)`,
          ),
          [SUPPLIER, { slow: ++n }],
        );
        await tx.query(sql('', 'SELECT pg_sleep(0.03)'));
      });
      await new Promise((r) => setTimeout(r, 10));
    }
    return n;
  }

  it('reads every event exactly once, in the order of the cursor', async () => {
    const worker = startWorker(t.config, { db: t.db, logger: silent, idlePollMs: 20 });
    const seen: Obj[] = [];
    let cursor = '';
    let writersDone = false;
    const reader = (async () => {
      for (;;) {
        const done = writersDone; // read once more after the writers have finished
        const res = await t.app.inject({
          url: `${FEED}?import_supplier=${SUPPLIER}&limit=7${cursor ? `&after=${cursor}` : ''}`,
          headers,
        });
        assert.equal(res.statusCode, 200, res.body);
        const body = res.json() as Obj;
        assert.ok(body.events.length <= 7);
        seen.push(...body.events);
        cursor = body.next_cursor;
        if (body.events.length === 0) {
          if (done) return;
          await new Promise((r) => setTimeout(r, 5));
        }
      }
    })();
    try {
      let accountsDone = false;
      const slow = slowWriter(() => accountsDone);
      const expected = (await Promise.all(Array.from({ length: WRITERS }, (_, w) => writer(w)))).reduce(
        (a, b) => a + b,
      );
      accountsDone = true;
      const slowEvents = await slow;
      assert.ok(slowEvents > 0);
      // On a shared server another test file's open transaction may hold the feed's horizon below
      // the last writes for a moment: the reader's last look comes once it has passed them.
      await feedSettled(t.db);
      writersDone = true;
      await reader;
      assert.equal(seen.length, expected + slowEvents);
    } finally {
      writersDone = true;
      await worker.stop();
    }
    const ids = seen.map((e) => e.id);
    assert.equal(new Set(ids).size, ids.length, 'no event twice');
    for (let i = 1; i < ids.length; i++)
      assert.ok(before_(ids[i - 1], ids[i]), `${ids[i - 1]} before ${ids[i]}`);
    // Everything the table holds for the supplier, read at rest in one go: the pages gave exactly it.
    const all = await t.db.query<{ id: string }>(
      sql(
        '',
        "SELECT e.xid::text || '_' || e.id AS id FROM events e WHERE e.import_supplier = $1 ORDER BY e.xid, e.id",
      ),
      [SUPPLIER],
    );
    assert.deepEqual(
      ids,
      all.rows.map((r) => r.id),
    );
    // Per account: created, started, processed, then its note.
    const perAccount = new Map<string, string[]>();
    for (const e of seen.filter((e) => e.external_account_number !== null))
      perAccount.set(e.external_account_number, [
        ...(perAccount.get(e.external_account_number) ?? []),
        e.type,
      ]);
    for (const types of perAccount.values()) {
      assert.deepEqual(types, [
        'EVENT_ACCOUNT_IMPORT_PROCESS_CREATED',
        'EVENT_ACCOUNT_IMPORT_PROCESS_STARTED',
        'EVENT_ACCOUNT_IMPORT_PROCESS_PROCESSED',
        'EVENT_NOTE_ADDED',
      ]);
    }
  });
});
