/**
 * The live event stream (decision 0073): `GET /v2/data-import/events/` with
 * `Accept: text/event-stream`, on a real socket read by a real HTTP client. Live events, resuming
 * with Last-Event-ID, the heartbeat, scoping and the types filter, the request timeout that does
 * not cut it, a notification that wakes the reader, the OpenAPI document, and a shutdown that
 * ends the streams.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { accountFor } from '../helpers/account-fixtures.ts';
import { importAccounts, stageAccount } from '../helpers/imported-accounts.ts';
import { admin, tokenFor } from '../helpers/test-app.ts';
import {
  FEED,
  feedEnd,
  jsonFeed,
  openStream,
  type StreamApp,
  streamApp,
  writeEvents,
} from './event-stream-client.ts';

const SUPPLIER = 'LIVE';
const OTHER = 'LIVE_OTHER';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('live event stream', () => {
  let s: StreamApp;
  let headers: Record<string, string>;

  before(async () => {
    // A short heartbeat to see it; REQUEST_TIMEOUT_MS far shorter than the streams last.
    s = await streamApp({ heartbeatMs: 100, retryMs: 1_500 }, { REQUEST_TIMEOUT_MS: '300' });
    ({ headers } = await tokenFor(s.app, [SUPPLIER]));
    await tokenFor(s.app, [OTHER]);
  });
  after(() => s.close());

  const url = (query: string) => `${FEED}?import_supplier=${SUPPLIER}${query}`;

  it('sends the events of an account as they happen, each with its cursor, type and data', async () => {
    const start = await feedEnd(s.app, headers, SUPPLIER);
    const stream = await openStream(s.baseUrl, url('&after=now'), headers);
    try {
      assert.equal(stream.status, 200);
      assert.match(String(stream.headers['content-type']), /^text\/event-stream/);
      await stream.until('the retry hint', () => stream.retry !== null);
      assert.equal(stream.retry, 1_500);
      const [ext] = await importAccounts(s, headers, [accountFor(SUPPLIER, 1)]);
      await stream.until('three events', () => stream.events.length >= 3);
      assert.deepEqual(
        stream.events.map((e) => [e.type, e.external_account_number, e.import_supplier]),
        [
          ['EVENT_ACCOUNT_IMPORT_PROCESS_CREATED', ext, SUPPLIER],
          ['EVENT_ACCOUNT_IMPORT_PROCESS_STARTED', ext, SUPPLIER],
          ['EVENT_ACCOUNT_IMPORT_PROCESS_PROCESSED', ext, SUPPLIER],
        ],
      );
      // `id:` is the cursor, `event:` the type, `data:` the event as the JSON feed gives it.
      assert.deepEqual(
        stream.fields,
        stream.events.map((e) => ({ id: e.id, event: e.type })),
      );
      assert.deepEqual(stream.events, await jsonFeed(s.app, headers, SUPPLIER, start, s.db));
      assert.equal(stream.events[2].data.status, 'PROCESSED');
    } finally {
      stream.close();
    }
  });

  it('resumes after Last-Event-ID with exactly the rest, whatever `after` says', async () => {
    const start = await feedEnd(s.app, headers, SUPPLIER);
    await writeEvents(s.db, SUPPLIER, 250);
    const first = await openStream(s.baseUrl, url(`&after=${start}&limit=40`), headers);
    await first.until('250 events', () => first.events.length === 250);
    first.close();
    const ids = first.events.map((e) => e.id);
    assert.deepEqual(
      ids,
      (await jsonFeed(s.app, headers, SUPPLIER, start, s.db)).map((e) => e.id),
    );

    const again = await openStream(s.baseUrl, url(`&after=${start}`), {
      ...headers,
      'last-event-id': ids[99],
    });
    try {
      await again.until('the 150 after it', () => again.events.length >= 150);
      await writeEvents(s.db, SUPPLIER, 1);
      await again.until('one more, live', () => again.events.length >= 151);
      await sleep(200);
      assert.deepEqual(
        again.events.slice(0, 150).map((e) => e.id),
        ids.slice(100),
      );
      assert.equal(again.events.length, 151, 'nothing repeated');
    } finally {
      again.close();
    }

    const bad = await openStream(s.baseUrl, url(''), { ...headers, 'last-event-id': 'abc' });
    assert.equal(bad.status, 400);
    assert.deepEqual(
      JSON.parse(bad.body).errors.map((e: { attr: string; code: string }) => [e.attr, e.code]),
      [['Last-Event-ID', 'invalid_cursor']],
    );
    const badAfter = await openStream(s.baseUrl, url('&after=12-4'), headers);
    assert.equal(badAfter.status, 400);
  });

  it('sends a heartbeat while nothing happens, and the request timeout does not cut it', async () => {
    const stream = await openStream(s.baseUrl, url('&after=now'), headers);
    try {
      // REQUEST_TIMEOUT_MS is 300 ms here.
      await sleep(1_000);
      assert.ok(stream.comments.filter((c) => c === 'heartbeat').length >= 5, String(stream.comments));
      assert.equal(stream.ended, false);
      assert.equal(stream.events.length, 0);
      await writeEvents(s.db, SUPPLIER, 2);
      await stream.until('the events, a second later', () => stream.events.length === 2);
    } finally {
      stream.close();
    }
  });

  it('refuses a key of other suppliers (403) and a request without a token (401), with no stream', async () => {
    const other = await openStream(s.baseUrl, `${FEED}?import_supplier=${OTHER}`, headers);
    assert.equal(other.status, 403);
    assert.match(String(other.headers['content-type']), /^application\/json/);
    assert.equal(other.events.length, 0);
    const anonymous = await openStream(s.baseUrl, url(''), {});
    assert.equal(anonymous.status, 401);
  });

  it('sends only the types asked for', async () => {
    const stream = await openStream(
      s.baseUrl,
      url('&after=now&types=EVENT_SUPPLIER_STATUS_CHANGED,EVENT_ACCOUNT_IMPORT_PROCESS_CREATED'),
      headers,
    );
    try {
      await stream.until('the retry hint', () => stream.retry !== null);
      await writeEvents(s.db, SUPPLIER, 20);
      await admin(s.app, 'PATCH', `/import-suppliers/${SUPPLIER}/`, { status: 'Paused' }, 200);
      await admin(s.app, 'PATCH', `/import-suppliers/${SUPPLIER}/`, { status: 'Ongoing' }, 200);
      const ext = await stageAccount(s, headers, accountFor(SUPPLIER, 2));
      await stream.until('three events', () => stream.events.length >= 3);
      await writeEvents(s.db, SUPPLIER, 20);
      await sleep(300);
      assert.deepEqual(
        stream.events.map((e) => [e.type, e.external_account_number]),
        [
          ['EVENT_SUPPLIER_STATUS_CHANGED', null],
          ['EVENT_SUPPLIER_STATUS_CHANGED', null],
          ['EVENT_ACCOUNT_IMPORT_PROCESS_CREATED', ext],
        ],
      );
    } finally {
      stream.close();
    }
  });

  it('documents the stream beside the JSON page', async () => {
    const doc = (await s.app.inject({ url: '/openapi.json' })).json();
    const ok = doc.paths[FEED].get.responses['200'];
    assert.deepEqual(Object.keys(ok.content).sort(), ['application/json', 'text/event-stream']);
    assert.ok(ok.content['application/json'].schema.properties.next_cursor);
  });
});

describe('live event stream: waking and shutting down', () => {
  let s: StreamApp;
  let headers: Record<string, string>;

  before(async () => {
    // The reader polls once a minute: only a notification brings events sooner.
    s = await streamApp({ pollMs: 60_000 });
    ({ headers } = await tokenFor(s.app, [SUPPLIER]));
  });
  after(() => s.close());

  it('is woken by the NOTIFY the service sends after a write has committed', async () => {
    const stream = await openStream(s.baseUrl, `${FEED}?import_supplier=${SUPPLIER}&after=now`, headers);
    try {
      await stream.until('the hub', () => s.hub.stats().subscribers === 1);
      const sent = Date.now();
      const ext = await stageAccount(s, headers, accountFor(SUPPLIER, 3));
      await stream.until('the created event', () => stream.events.length === 1, 5_000);
      assert.equal(stream.events[0].external_account_number, ext);
      assert.ok(Date.now() - sent < 5_000);
    } finally {
      stream.close();
    }
  });

  it('ends every stream when the server shuts down, and the shutdown does not wait on them', async () => {
    const streams = await Promise.all(
      [0, 1, 2].map(() => openStream(s.baseUrl, `${FEED}?import_supplier=${SUPPLIER}&after=now`, headers)),
    );
    await streams[0].until('three subscribers', () => s.hub.stats().subscribers === 3);
    const started = Date.now();
    const closed = await Promise.race([s.app.close().then(() => true), sleep(5_000).then(() => false)]);
    assert.ok(closed, 'app.close() returned within 5 s');
    assert.ok(Date.now() - started < 3_000, `closed in ${Date.now() - started} ms`);
    for (const stream of streams) await stream.until('the end of the stream', () => stream.ended, 3_000);
    assert.deepEqual(
      { subscribers: s.hub.stats().subscribers, listening: s.hub.stats().listening },
      { subscribers: 0, listening: 0 },
    );
  });
});
