/**
 * What the live event stream's tests share: the app on a real socket with a hub of their own
 * settings, a real HTTP client reading server-sent events, and events written straight into the
 * feed's table (many, or large, in one statement).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import type { FeedEvent } from '../../src/events/event-feed.ts';
import { EventHub, type EventHubOptions } from '../../src/events/event-hub.ts';
import { type Db, sql } from '../../src/infra/db/db.ts';
import { FileObjectStore } from '../../src/infra/storage/file-object-store.ts';
import { createPaymentVendors } from '../../src/infra/vendors/vendor-registry.ts';
import { OPERATOR_KEY, type TestApp } from '../helpers/test-app.ts';
import { createTestDb, feedSettled } from '../helpers/test-db.ts';

export const FEED = '/v2/data-import/events/';

/** The test app (the helpers that schedule and import accounts take it), its hub and its address. */
export interface StreamApp extends TestApp {
  hub: EventHub;
  baseUrl: string;
  /** On a server: a connection string to the test's schema (a connection of the test's own). */
  url?: string;
}

/** The whole app listening on loopback, its hub made with `hubOptions`; `env` overrides configuration. */
export async function streamApp(
  hubOptions: EventHubOptions,
  env: Record<string, string> = {},
): Promise<StreamApp> {
  const { db, url, cleanup } = await createTestDb();
  const config = loadConfig({ DATA_DIR: '.tmp/test-data', RATE_LIMIT_PER_SECOND: '100000', ...env });
  const dir = mkdtempSync(join(tmpdir(), 'ferry-stream-'));
  const objectStore = new FileObjectStore(dir);
  const hub = new EventHub(db, hubOptions);
  const app = await buildApp(config, {
    db,
    objectStore,
    paymentVendors: createPaymentVendors(config),
    operatorKey: OPERATOR_KEY,
    eventHub: hub,
  });
  const baseUrl = await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    app,
    db,
    config,
    objectStore,
    hub,
    baseUrl,
    url,
    async close() {
      await app.close();
      await objectStore.close();
      rmSync(dir, { recursive: true, force: true });
      await cleanup();
    },
  };
}

/** One connection reading the stream as it comes: its events, comments and `retry:` hint. */
export interface SseClient {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** The body of a refusal (not a stream). */
  body: string;
  events: FeedEvent[];
  /** The `event:` and `id:` fields of each event, as sent. */
  fields: { id: string; event: string }[];
  comments: string[];
  retry: number | null;
  ended: boolean;
  response: http.IncomingMessage;
  /** Waits until `condition` holds (or fails the test after `ms`). */
  until(what: string, condition: () => boolean, ms?: number): Promise<void>;
  close(): void;
}

/** Opens the stream at `path` with `Accept: text/event-stream` and reads it until closed. */
export function openStream(
  baseUrl: string,
  path: string,
  headers: Record<string, string>,
): Promise<SseClient> {
  return new Promise((resolve, reject) => {
    const req = http.get(
      `${baseUrl}${path}`,
      { headers: { accept: 'text/event-stream', ...headers } },
      (res) => {
        const client: SseClient = {
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: '',
          events: [],
          fields: [],
          comments: [],
          retry: null,
          ended: false,
          response: res,
          async until(what, condition, ms = 30_000) {
            const deadline = Date.now() + ms;
            while (!condition()) {
              if (Date.now() > deadline)
                assert.fail(
                  `timed out waiting for ${what} (${client.events.length} events read${client.ended ? ', the stream ended' : ''})`,
                );
              await new Promise((r) => setTimeout(r, 10));
            }
          },
          close() {
            req.destroy();
          },
        };
        let rest = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          if (client.status !== 200) {
            client.body += chunk;
            return;
          }
          rest += chunk;
          for (let end = rest.indexOf('\n\n'); end !== -1; end = rest.indexOf('\n\n')) {
            parseBlock(client, rest.slice(0, end));
            rest = rest.slice(end + 2);
          }
        });
        const ended = () => {
          client.ended = true;
        };
        res.on('end', ended);
        res.on('close', ended);
        res.on('error', ended);
        resolve(client);
      },
    );
    req.on('error', reject);
  });
}

/** The events of a whole SSE text, in order. */
export function parseSse(text: string): FeedEvent[] {
  const into = { events: [], fields: [], comments: [], retry: null } as unknown as SseClient;
  for (const block of text.split('\n\n').filter(Boolean)) parseBlock(into, block);
  return into.events;
}

function parseBlock(client: SseClient, block: string) {
  const fields: Record<string, string> = {};
  for (const line of block.split('\n')) {
    if (line.startsWith(':')) {
      client.comments.push(line.slice(1).trim());
      continue;
    }
    const colon = line.indexOf(':');
    const name = line.slice(0, colon);
    assert.ok(!(name in fields), `field ${name} once per event`);
    fields[name] = line.slice(colon + 1).replace(/^ /, '');
  }
  if (fields.retry !== undefined) client.retry = Number(fields.retry);
  if (fields.data !== undefined) {
    client.events.push(JSON.parse(fields.data));
    client.fields.push({ id: fields.id, event: fields.event });
  }
}

const insertEvents = sql(
  '',
  `INSERT INTO events (import_supplier, external_account_number, type, occurred_at, data)
   SELECT $1, 'EXT-' || lpad(n::text, 7, '0'), $2, now(), jsonb_build_object('n', n, 'filler', repeat('x', $4))
     FROM generate_series(1, $3) AS n`,
);

/** Writes `count` events of a supplier in one transaction (each with `fillerBytes` of data). */
export async function writeEvents(
  db: Db,
  supplier: string,
  count: number,
  opts: { type?: string; fillerBytes?: number } = {},
) {
  await db.query(insertEvents, [supplier, opts.type ?? 'EVENT_NOTE_ADDED', count, opts.fillerBytes ?? 0]);
}

/**
 * Every event of a supplier after a cursor, read through the JSON feed page by page; with `db`,
 * once every transaction begun before the call has ended (feedSettled).
 */
export async function jsonFeed(
  app: FastifyInstance,
  headers: Record<string, string>,
  supplier: string,
  after: string,
  db?: Db,
) {
  if (db) await feedSettled(db);
  const events: FeedEvent[] = [];
  let cursor = after;
  for (;;) {
    const res = await app.inject({
      url: `${FEED}?import_supplier=${supplier}&after=${cursor}&limit=1000`,
      headers,
    });
    assert.equal(res.statusCode, 200, res.body);
    const page = res.json() as { events: FeedEvent[]; next_cursor: string };
    events.push(...page.events);
    if (page.events.length < 1000) return events;
    cursor = page.next_cursor;
  }
}

/** The feed's end now (`after=now`). */
export async function feedEnd(app: FastifyInstance, headers: Record<string, string>, supplier: string) {
  const res = await app.inject({ url: `${FEED}?import_supplier=${supplier}&after=now`, headers });
  assert.equal(res.statusCode, 200, res.body);
  return (res.json() as { next_cursor: string }).next_cursor;
}
