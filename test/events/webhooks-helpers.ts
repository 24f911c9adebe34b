/**
 * For the webhook tests: a receiver on a loopback port (node:http) that records every request and
 * answers what the test says; the receiver's side of Ferry-Signature, written here from the
 * contract (decision 0072), not taken from the code under test; events written as their writers do.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import http, { type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { currentCursor, FEED_START, type FeedEvent, readEvents } from '../../src/events/event-feed.ts';
import { fanOutRound } from '../../src/events/webhooks/webhook-fan-out.ts';
import { type Db, type Queryable, sql } from '../../src/infra/db/db.ts';

/** An event as its writers write it: one transaction each, so the feed's order is the call order. */
export async function addEvent(db: Queryable, supplier: string, ext: string | null, type: string) {
  await db.query(
    sql(
      '',
      `INSERT INTO events (import_supplier, external_account_number, type, occurred_at, data)
       VALUES ($1, $2, $3, now(), jsonb_build_object('status', $3::text))`,
    ),
    [supplier, ext, type],
  );
}

export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** The status answered. */
  status: number;
  at: number;
}

export interface Answer {
  status: number;
  headers?: Record<string, string>;
}

export type Answerer = (request: { path: string; eventId: string; body: string }) => Answer | number;

export interface Receiver {
  /** The base URL: http://127.0.0.1:<port> */
  url: string;
  received: Received[];
  answer: Answerer;
  close(): Promise<void>;
}

export async function startReceiver(answer: Answerer = () => 200): Promise<Receiver> {
  const receiver: Receiver = {
    url: '',
    received: [],
    answer,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const path = req.url ?? '';
      const eventId = String(req.headers['ferry-event-id'] ?? '');
      const given = receiver.answer({ path, eventId, body });
      const a = typeof given === 'number' ? { status: given } : given;
      receiver.received.push({ path, headers: req.headers, body, status: a.status, at: Date.now() });
      res.writeHead(a.status, { 'content-type': 'text/plain', ...a.headers });
      res.end(a.status < 300 ? 'ok' : `answered ${a.status}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return receiver;
}

/** Whether `header` is a valid Ferry-Signature of `body` under `secret`: `t=<s>,v1=<hex HMAC>`. */
export function signatureValid(secret: string, header: string | string[] | undefined, body: string): boolean {
  if (typeof header !== 'string') return false;
  const parts = Object.fromEntries(header.split(',').map((p) => p.split('=', 2) as [string, string]));
  if (!/^\d+$/.test(parts.t ?? '') || !/^[0-9a-f]{64}$/.test(parts.v1 ?? '')) return false;
  const expected = createHmac('sha256', secret).update(`${parts.t}.${body}`).digest();
  return timingSafeEqual(expected, Buffer.from(parts.v1, 'hex'));
}

/** The signature's time, in unix seconds. */
export const signedAt = (header: string | string[] | undefined) =>
  Number(/(?:^|,)t=(\d+)/.exec(String(header))?.[1]);

/** Waits until `check` holds (polled every 20 ms) or fails after `ms`. */
export async function eventually(check: () => boolean | Promise<boolean>, ms = 10_000, what = 'condition') {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Every event of the supplier's feed so far, read page by page as a reader would. */
export async function wholeFeed(db: Queryable, supplier: string): Promise<FeedEvent[]> {
  const events: FeedEvent[] = [];
  for (let after = FEED_START; ; ) {
    const page = await readEvents(db, { supplier, after, limit: 1000 });
    events.push(...page.events);
    if (page.events.length < 1000) return events;
    after = page.next;
  }
}

/** The ids of the events the receiver answered 200 to. */
export const deliveredIds = (receiver: Receiver) =>
  new Set(receiver.received.filter((r) => r.status === 200).map((r) => r.headers['ferry-event-id']));

/** An endpoint at `url` for one supplier's events, its cursor at the feed's end (written directly). */
export async function endpointAt(db: Queryable, url: string, supplier: string): Promise<string> {
  const end = await currentCursor(db);
  const { rows } = await db.query<{ id: string }>(
    sql(
      '',
      `INSERT INTO webhook_endpoints (url, import_suppliers, secret, cursor_xid, cursor_id)
       VALUES ($1, ARRAY[$2], 'secret', $3::xid8, $4::bigint) RETURNING id`,
    ),
    [url, supplier, end.xid, end.id],
  );
  return rows[0].id;
}

/** How many deliveries of the endpoint match `where` (SQL over webhook_deliveries). */
export const countDeliveries = async (db: Queryable, endpointId: string, where: string) =>
  (
    await db.query<{ n: number }>(
      sql('', `SELECT count(*)::int AS n FROM webhook_deliveries WHERE endpoint_id = $1 AND ${where}`),
      [endpointId],
    )
  ).rows[0].n;

/** Fan-out rounds until the endpoint has `n` deliveries (an open transaction elsewhere may hold events back). */
export const fanOutTo = (db: Db, endpointId: string, n: number) =>
  eventually(
    async () => {
      await fanOutRound(db);
      return (await countDeliveries(db, endpointId, 'true')) === n;
    },
    10_000,
    `${n} deliveries`,
  );
