/**
 * Webhook delivery (decision 0072) against a real receiver on a loopback port: each
 * event POSTed alone, signed, with Ferry's headers; retried after a failure with the same id and
 * body, and a process's events kept in order meanwhile; no redirect followed; given up after 72
 * hours; an endpoint disabled after 24 hours of nothing but failures; a test event. Fan-out and
 * the sender run on their lease loops, as in a worker process, with a fast backoff.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Registry } from 'prom-client';
import { startWebhookFanOut } from '../../src/events/webhooks/webhook-fan-out.ts';
import { startWebhookSender } from '../../src/events/webhooks/webhook-sender.ts';
import { sql } from '../../src/infra/db/db.ts';
import { admin, adminHeaders, createTestApp, type TestApp, tokenFor } from '../helpers/test-app.ts';
import { usingPostgresServer } from '../helpers/test-db.ts';
import {
  type Answerer,
  addEvent,
  eventually,
  type Receiver,
  signatureValid,
  signedAt,
  startReceiver,
} from './webhooks-helpers.ts';

// biome-ignore lint/suspicious/noExplicitAny: JSON bodies
type Obj = Record<string, any>;

const CREATED = 'EVENT_ACCOUNT_IMPORT_PROCESS_CREATED';
const STARTED = 'EVENT_ACCOUNT_IMPORT_PROCESS_STARTED';
const PROCESSED = 'EVENT_ACCOUNT_IMPORT_PROCESS_PROCESSED';
const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('webhook delivery to a receiver on a loopback port', () => {
  let t: TestApp;
  let receiver: Receiver;
  const metrics = new Registry();
  const warnings: Obj[] = [];
  const logger = { info() {}, warn: (o: Obj) => void warnings.push(o), error() {} };
  /** Answers per path (one path per test); 200 where none is set. */
  const answers = new Map<string, Answerer>();
  let stopLoops: () => Promise<void>;

  before(async () => {
    t = await createTestApp();
    receiver = await startReceiver((r) => answers.get(r.path.split('?')[0])?.(r) ?? 200);
    for (const code of ['HOOKS', 'EARLY', 'OTHER', 'ORDER', 'REDIR', 'GIVEUP', 'DOWN', 'TYPES', 'TESTEV'])
      await admin(t.app, 'POST', '/import-suppliers/', { code });
    const fanOut = startWebhookFanOut({ db: t.db, logger, idlePollMs: 20 });
    const sender = startWebhookSender({
      db: t.db,
      logger,
      leaseSeconds: 5,
      concurrency: 8,
      idlePollMs: 20,
      metrics,
      retry: { baseMs: 40, maxMs: 200 },
    });
    stopLoops = async () => {
      await Promise.all([fanOut.stop(), sender.stop()]);
    };
  });
  after(async () => {
    await stopLoops?.();
    await receiver?.close();
    await t?.close();
  });

  const endpoint = (path: string, importSuppliers: string[], types?: string[]) =>
    admin<Obj>(t.app, 'POST', '/webhook-endpoints/', {
      url: `${receiver.url}${path}`,
      import_suppliers: importSuppliers,
      ...(types ? { types } : {}),
    });
  const at = (path: string) => receiver.received.filter((r) => r.path === path);
  const bodies = (path: string) => at(path).map((r) => JSON.parse(r.body) as Obj);
  const deliveries = (id: string) => admin<Obj[]>(t.app, 'GET', `/webhook-endpoints/${id}/deliveries/`);
  const deliveryOf = async (id: string, type: string) => {
    const d = (await deliveries(id)).find((x) => x.type === type);
    assert.ok(d, `a delivery of ${type}`);
    return d;
  };
  const counter = async (result: string) =>
    (await metrics.getSingleMetric('ferry_webhook_deliveries_total')?.get())?.values.find(
      (v) => v.labels.result === result,
    )?.value ?? 0;

  it('POSTs each event of its suppliers once, alone, signed, with the feed’s own body', async () => {
    const ep = await endpoint('/hooks', ['HOOKS']);
    assert.match(ep.secret, /^[0-9a-f]{64}$/);
    await addEvent(t.db, 'HOOKS', 'H-1', CREATED);
    await addEvent(t.db, 'OTHER', 'O-1', CREATED);
    await addEvent(t.db, 'HOOKS', 'H-2', CREATED);
    await addEvent(t.db, 'HOOKS', null, 'EVENT_SUPPLIER_PAUSED');
    await eventually(() => at('/hooks').length >= 3, 10_000, 'three POSTs');
    await wait(300); // nothing more comes: one POST per event
    const posts = at('/hooks');
    assert.equal(posts.length, 3);

    // The body is the feed's event, byte for byte what the feed answers.
    const feed = await t.app.inject({
      url: `/v2/data-import/events/?import_supplier=HOOKS&types=${CREATED},EVENT_SUPPLIER_PAUSED`,
      headers: (await tokenFor(t.app, ['HOOKS'], [])).headers,
    });
    const feedEvents = feed.json().events as Obj[];
    const byId = (a: Obj, b: Obj) => (a.id < b.id ? -1 : 1);
    assert.deepEqual(bodies('/hooks').sort(byId), [...feedEvents].sort(byId));
    for (const p of posts) {
      const body = JSON.parse(p.body);
      assert.equal(p.headers['content-type'], 'application/json');
      assert.equal(p.headers['ferry-event-id'], body.id);
      assert.match(String(p.headers['user-agent']), /^Ferry/);
      assert.ok(
        signatureValid(ep.secret, p.headers['ferry-signature'], p.body),
        String(p.headers['ferry-signature']),
      );
      assert.ok(!signatureValid('0'.repeat(64), p.headers['ferry-signature'], p.body));
      assert.ok(!signatureValid(ep.secret, p.headers['ferry-signature'], `${p.body} `));
      assert.ok(Math.abs(signedAt(p.headers['ferry-signature']) - Date.now() / 1000) < 60);
      assert.ok(!p.body.includes(ep.secret) && !JSON.stringify(p.headers).includes(ep.secret));
    }
    const listed = await deliveries(ep.id);
    assert.deepEqual(
      listed.map((d) => [d.state, d.attempts.length, d.attempts[0].status_code, d.attempts[0].error]),
      [
        ['delivered', 1, 200, null],
        ['delivered', 1, 200, null],
        ['delivered', 1, 200, null],
      ],
    );
    // A first-time 2xx is kept on the delivery's row (migration 0023), with its time and duration.
    for (const d of listed) {
      assert.ok(Date.parse(d.attempts[0].at) <= Date.parse(d.delivered_at), JSON.stringify(d));
      assert.ok(Number.isInteger(d.attempts[0].duration_ms) && d.attempts[0].duration_ms >= 0);
    }
    const rows = await t.db.query<{ n: number }>(
      sql(
        '',
        `SELECT count(*)::int AS n FROM webhook_delivery_attempts a
           JOIN webhook_deliveries d ON d.id = a.delivery_id WHERE d.endpoint_id = $1`,
      ),
      [ep.id],
    );
    assert.equal(rows.rows[0].n, 0, 'no attempt rows for first-time deliveries');
    assert.deepEqual(
      listed.map((d) => d.event_id),
      feedEvents.map((e) => e.id).reverse(),
      'newest first',
    );
    assert.ok((await counter('delivered')) >= 3);
  });

  it('starts at the feed’s end: an event before the endpoint was created is not sent', {
    // On a server, the feed's end is held back by the oldest transaction still running anywhere
    // on it (another test file's), so an event just before may be sent: at least once, never lost.
    skip: usingPostgresServer() && 'exact on PGlite only (one connection)',
  }, async () => {
    await addEvent(t.db, 'EARLY', 'E-0', CREATED);
    await endpoint('/early', ['EARLY']);
    await addEvent(t.db, 'EARLY', 'E-1', CREATED);
    await eventually(() => at('/early').length >= 1);
    await wait(200);
    assert.deepEqual(
      bodies('/early').map((b) => b.external_account_number),
      ['E-1'],
    );
  });

  it('sends only the types an endpoint names', async () => {
    const ep = await endpoint('/types', ['TYPES'], [PROCESSED]);
    await addEvent(t.db, 'TYPES', 'T-1', CREATED);
    await addEvent(t.db, 'TYPES', 'T-1', PROCESSED);
    await eventually(() => at('/types').length >= 1);
    await wait(200);
    assert.deepEqual(
      bodies('/types').map((b) => b.type),
      [PROCESSED],
    );
    assert.equal((await deliveries(ep.id)).length, 1);
  });

  it('retries a failed POST with the same Ferry-Event-Id and body, and keeps a process’s later events behind it', async () => {
    const tries = new Map<string, number>();
    let bReceived = false;
    answers.set('/order', ({ eventId, body }) => {
      const n = (tries.get(eventId) ?? 0) + 1;
      tries.set(eventId, n);
      const e = JSON.parse(body);
      if (e.external_account_number === 'ORD-B') bReceived = true;
      // The first event of ORD-A fails twice, and goes on failing until ORD-B's event has come
      // (at most 40 tries): fan-out may see ORD-B's event late on a busy server, and ORD-B must
      // not wait for ORD-A's retries. Everything else goes through.
      const failA = n <= 2 || (!bReceived && n < 40);
      return e.external_account_number === 'ORD-A' && e.type === CREATED && failA ? 500 : 200;
    });
    const ep = await endpoint('/order', ['ORDER']);
    await addEvent(t.db, 'ORDER', 'ORD-A', CREATED);
    await addEvent(t.db, 'ORDER', 'ORD-A', STARTED);
    await addEvent(t.db, 'ORDER', 'ORD-B', CREATED);
    await addEvent(t.db, 'ORDER', 'ORD-A', PROCESSED);
    await eventually(
      () => at('/order').filter((r) => r.status === 200).length >= 4,
      20_000,
      'four deliveries',
    );

    const seen = at('/order').map((r) => ({ ...JSON.parse(r.body), status: r.status, raw: r.body }));
    const a = seen.filter((e) => e.external_account_number === 'ORD-A');
    const failures = a.findIndex((e) => e.status === 200);
    assert.ok(failures >= 2, `ORD-A's first event failed ${failures} times`);
    assert.deepEqual(
      a.map((e) => [e.type, e.status]),
      [
        ...Array.from({ length: failures }, () => [CREATED, 500]),
        [CREATED, 200],
        [STARTED, 200],
        [PROCESSED, 200],
      ],
      'ORD-A’s later events wait until its first is delivered',
    );
    // The same event each time: one id, the same bytes, each signed afresh.
    const attemptsOfA = a.slice(0, failures + 1);
    assert.equal(new Set(attemptsOfA.map((e) => e.id)).size, 1);
    assert.equal(new Set(attemptsOfA.map((e) => e.raw)).size, 1);
    const aPosts = at('/order').filter((r) => JSON.parse(r.body).external_account_number === 'ORD-A');
    assert.equal(new Set(aPosts.slice(0, failures + 1).map((r) => r.headers['ferry-event-id'])).size, 1);
    // ORD-B did not wait for ORD-A's retries.
    const bAt = seen.findIndex((e) => e.external_account_number === 'ORD-B');
    const aDelivered = seen.findIndex((e) => e.external_account_number === 'ORD-A' && e.status === 200);
    assert.ok(bAt < aDelivered, `ORD-B at ${bAt}, ORD-A delivered at ${aDelivered}`);

    const first = (await deliveries(ep.id)).find((d) => d.event_id === a[0].id)!;
    assert.equal(first.state, 'delivered');
    assert.deepEqual(
      first.attempts.map((x: Obj) => x.status_code),
      [...Array.from({ length: failures }, () => 500), 200],
    );
    assert.match(first.attempts[0].error, /^HTTP 500/);
    assert.ok((await counter('failed_attempt')) >= 2);
  });

  it('follows no redirect: a 3xx is a failed attempt, retried at the same URL', async () => {
    answers.set('/redirect', () => ({ status: 302, headers: { location: '/elsewhere' } }));
    const ep = await endpoint('/redirect', ['REDIR']);
    await addEvent(t.db, 'REDIR', 'R-1', CREATED);
    await eventually(() => at('/redirect').length >= 2, 10_000, 'a retry');
    assert.deepEqual(at('/elsewhere'), []);
    const [d] = await deliveries(ep.id);
    assert.equal(d.state, 'pending');
    assert.equal(d.attempts[0].status_code, 302);
    assert.match(d.attempts[0].error, /HTTP 302 \(redirects are not followed\)/);
    answers.set('/redirect', () => 200);
    await eventually(async () => (await deliveries(ep.id))[0].state === 'delivered');
    assert.deepEqual(at('/elsewhere'), []);
  });

  it('gives a delivery up 72 hours after its first attempt, then sends the next event of its process', async () => {
    answers.set('/giveup', ({ body }) => (JSON.parse(body).type === CREATED ? 503 : 200));
    const ep = await endpoint('/giveup', ['GIVEUP']);
    await addEvent(t.db, 'GIVEUP', 'G-1', CREATED);
    await addEvent(t.db, 'GIVEUP', 'G-1', PROCESSED);
    await eventually(() => at('/giveup').length >= 2, 10_000, 'two attempts');
    assert.equal((await deliveryOf(ep.id, CREATED)).state, 'pending');
    assert.ok(!at('/giveup').some((r) => JSON.parse(r.body).type === PROCESSED), 'PROCESSED waits');
    const failedBefore = await counter('failed');
    // Its first attempt, as if 73 hours ago: the next failure is the last.
    await t.db.query(
      sql(
        '',
        "UPDATE webhook_deliveries SET first_attempt_at = now() - interval '73 hours' WHERE endpoint_id = $1 AND event_type = $2",
      ),
      [ep.id, CREATED],
    );
    await eventually(async () => (await deliveryOf(ep.id, CREATED)).state === 'failed');
    await eventually(
      () => at('/giveup').some((r) => JSON.parse(r.body).type === PROCESSED),
      10_000,
      'PROCESSED',
    );
    // Recorded once the sender's batch is answered: a moment after the receiver has it.
    await eventually(async () => (await deliveryOf(ep.id, PROCESSED)).state === 'delivered');
    assert.ok((await deliveryOf(ep.id, CREATED)).failed_at);
    assert.equal((await admin<Obj>(t.app, 'GET', `/webhook-endpoints/${ep.id}/`)).failed, 1);
    assert.equal((await counter('failed')) - failedBefore, 1);
    assert.ok(warnings.some((w) => w.deliveryId && w.attempts >= 2));
  });

  it('disables an endpoint that has done nothing but fail for 24 hours; enabling it resumes its deliveries', async () => {
    let up = false;
    answers.set('/down', () => (up ? 200 : 500));
    const ep = await endpoint('/down', ['DOWN']);
    await addEvent(t.db, 'DOWN', 'D-1', CREATED);
    await eventually(() => at('/down').length >= 3, 10_000, 'three attempts');
    let now = await admin<Obj>(t.app, 'GET', `/webhook-endpoints/${ep.id}/`);
    assert.equal(now.enabled, true, 'failing for less than 24 hours');
    assert.ok(now.failing_since);
    await t.db.query(
      sql(
        '',
        "UPDATE webhook_endpoints SET failing_since = now() - interval '24 hours 1 minute' WHERE id = $1",
      ),
      [ep.id],
    );
    await eventually(async () => !(await admin<Obj>(t.app, 'GET', `/webhook-endpoints/${ep.id}/`)).enabled);
    now = await admin<Obj>(t.app, 'GET', `/webhook-endpoints/${ep.id}/`);
    assert.match(now.disabled_reason, /^every delivery failed since \d{4}-\d{2}-\d{2}T/);
    assert.ok(now.disabled_at);
    assert.equal(now.pending, 1);
    const line = warnings.find((w) => w.event === 'webhook_endpoint_disabled');
    assert.equal(line?.endpointId, ep.id);
    // Disabled: nothing more is posted, and new events wait (no fan-out either).
    await addEvent(t.db, 'DOWN', 'D-2', CREATED);
    const posted = at('/down').length;
    await wait(300);
    assert.equal(at('/down').length, posted);

    up = true;
    const enabled = await admin<Obj>(t.app, 'PATCH', `/webhook-endpoints/${ep.id}/`, { enabled: true });
    assert.deepEqual([enabled.enabled, enabled.failing_since, enabled.disabled_at], [true, null, null]);
    await eventually(
      async () =>
        (await admin<Obj>(t.app, 'GET', `/webhook-endpoints/${ep.id}/`)).pending === 0 &&
        at('/down').filter((r) => r.status === 200).length === 2,
      10_000,
      'both delivered',
    );
  });

  it('sends a test event to that endpoint only, whatever its types', async () => {
    const ep = await endpoint('/test-event', ['TESTEV'], [PROCESSED]);
    const other = await endpoint('/test-other', ['TESTEV']);
    const res = await t.app.inject({
      method: 'POST',
      url: `/admin/v1/webhook-endpoints/${ep.id}/test/`,
      headers: adminHeaders,
    });
    assert.equal(res.statusCode, 202);
    const { event_id } = res.json();
    assert.match(event_id, /^test_[0-9a-f-]{36}$/);
    await eventually(() => at('/test-event').length === 1);
    const [post] = at('/test-event');
    const body = JSON.parse(post.body);
    assert.deepEqual(
      { ...body, occurred_at: 'x' },
      {
        id: event_id,
        type: 'EVENT_WEBHOOK_TEST',
        occurred_at: 'x',
        import_supplier: 'TESTEV',
        external_account_number: null,
        data: { webhook_endpoint_id: ep.id },
      },
    );
    assert.equal(post.headers['ferry-event-id'], event_id);
    assert.ok(signatureValid(ep.secret, post.headers['ferry-signature'], post.body));
    await wait(200);
    assert.deepEqual(at('/test-other'), []);
    assert.ok(other.id);
  });

  it('counts pending deliveries and the delay to delivery in the metrics', async () => {
    const text = await metrics.metrics();
    assert.match(text, /ferry_webhook_deliveries_pending \d+/);
    assert.match(text, /ferry_webhook_delivery_lag_seconds_count [1-9]/);
    assert.match(text, /ferry_webhook_deliveries_total\{result="delivered"\} [1-9]/);
  });
});
