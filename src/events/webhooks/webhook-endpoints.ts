/**
 * Webhook endpoints as the operator manages them (decision 0072): what the admin
 * routes and the dashboard call. The secret leaves this module once, in createEndpoint's answer.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { validationFailed } from '../../errors/error-catalogue.ts';
import { type ErrorItem, item } from '../../errors/error-items.ts';
import { type Queryable, sql } from '../../infra/db/db.ts';
import { EVENT_TYPES } from '../../vocabulary/event-types.ts';
import { wireDatetime } from '../../vocabulary/wire-datetime.ts';
import { currentCursor, type FeedEvent } from '../event-feed.ts';
import {
  type AttemptRow,
  type DeliveryRow,
  deleteEndpoint,
  type EndpointRow,
  insertEndpoint,
  insertTestDelivery,
  selectAttempts,
  selectEndpoint,
  selectEndpoints,
  selectRecentDeliveries,
  setEndpointEnabled,
} from './webhook-endpoints.queries.ts';

/** The type of the event `POST …/<id>/test/` sends: to that endpoint only, never in the feed. */
export const EVENT_WEBHOOK_TEST = 'EVENT_WEBHOOK_TEST';

const MAX_URL_LENGTH = 2048;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** An endpoint id as the routes get it: a malformed one names no endpoint (404, not a cast error). */
export const isEndpointId = (id: string) => UUID.test(id);

export interface NewEndpoint {
  url: string;
  importSuppliers: string[];
  types?: string[] | null;
}

const selectUnknownSuppliers = sql(
  'selectWebhookUnknownSuppliers',
  `SELECT (u.n - 1)::int AS index, u.code FROM unnest($1::text[]) WITH ORDINALITY AS u(code, n)
    WHERE u.code <> '*' AND NOT EXISTS (SELECT 1 FROM import_suppliers s WHERE s.code = u.code)
    ORDER BY u.n`,
);

/** Every problem of a new endpoint at once: its URL, its suppliers, its types. */
async function problemsOf(db: Queryable, e: NewEndpoint): Promise<ErrorItem[]> {
  const errors: ErrorItem[] = [];
  let url: URL | null = null;
  try {
    url = new URL(e.url);
  } catch {}
  if (url === null || !['http:', 'https:'].includes(url.protocol) || e.url.length > MAX_URL_LENGTH)
    errors.push(
      item(
        'url',
        'invalid_webhook_url',
        `Give an absolute http:// or https:// URL of at most ${MAX_URL_LENGTH} characters.`,
      ),
    );
  if (e.importSuppliers.includes('*') && e.importSuppliers.length > 1)
    errors.push(item('import_suppliers', 'invalid', '"*" (every supplier) stands alone.'));
  const unknown = await db.query<{ index: number; code: string }>(selectUnknownSuppliers, [
    e.importSuppliers,
  ]);
  for (const u of unknown.rows)
    errors.push(
      item(
        `import_suppliers.${u.index}`,
        'import_supplier_not_found',
        `No import supplier has the code "${u.code}".`,
      ),
    );
  e.types?.forEach((t, i) => {
    if (!EVENT_TYPES.includes(t))
      errors.push(item(`types.${i}`, 'unknown_event_type', `No event type is named ${t}.`));
  });
  return errors;
}

/** An endpoint as answered: datetimes on the wire, no secret. */
export function endpointView(e: EndpointRow) {
  return {
    id: e.id,
    url: e.url,
    import_suppliers: e.import_suppliers,
    types: e.types,
    enabled: e.enabled,
    created_at: wireDatetime(e.created_at) as string,
    failing_since: wireDatetime(e.failing_since),
    disabled_at: wireDatetime(e.disabled_at),
    disabled_reason: e.disabled_reason,
    pending: e.pending,
    failed: e.failed,
  };
}
export type EndpointView = ReturnType<typeof endpointView>;

/**
 * Registers an endpoint; it hears of every event from the feed's end on. Answers it with its
 * secret: the only time the secret is given out.
 */
export async function createEndpoint(
  db: Queryable,
  e: NewEndpoint,
): Promise<EndpointView & { secret: string }> {
  const types = e.types && e.types.length > 0 ? [...new Set(e.types)] : null;
  const importSuppliers = [...new Set(e.importSuppliers)];
  const errors = await problemsOf(db, { ...e, importSuppliers, types });
  if (errors.length > 0) throw validationFailed('validation_error', errors);
  const secret = randomBytes(32).toString('hex');
  const start = await currentCursor(db);
  const { rows } = await db.query<EndpointRow>(insertEndpoint, [
    e.url,
    importSuppliers,
    types,
    secret,
    start.xid,
    start.id,
  ]);
  return { ...endpointView(rows[0]), secret };
}

export async function listEndpoints(db: Queryable): Promise<EndpointView[]> {
  return (await db.query<EndpointRow>(selectEndpoints)).rows.map(endpointView);
}

/** The endpoint, or null when no endpoint has this id. */
export async function findEndpoint(db: Queryable, id: string): Promise<EndpointView | null> {
  if (!isEndpointId(id)) return null;
  const row = (await db.query<EndpointRow>(selectEndpoint, [id])).rows[0];
  return row ? endpointView(row) : null;
}

/** Enables or disables an endpoint; false when no endpoint has this id. */
export async function setEnabled(db: Queryable, id: string, enabled: boolean): Promise<boolean> {
  if (!isEndpointId(id)) return false;
  return (await db.query(setEndpointEnabled, [id, enabled])).rowCount > 0;
}

/** Deletes an endpoint and its deliveries; false when no endpoint has this id. */
export async function removeEndpoint(db: Queryable, id: string): Promise<boolean> {
  if (!isEndpointId(id)) return false;
  return (await db.query(deleteEndpoint, [id])).rowCount > 0;
}

/**
 * Queues one EVENT_WEBHOOK_TEST delivery to this endpoint (whatever its types), delivered like any
 * other; its id, or null when no endpoint has this id.
 */
export async function queueTestEvent(db: Queryable, id: string): Promise<string | null> {
  const endpoint = await findEndpoint(db, id);
  if (!endpoint) return null;
  const now = new Date();
  const event: FeedEvent = {
    id: `test_${randomUUID()}`,
    type: EVENT_WEBHOOK_TEST,
    occurred_at: wireDatetime(now) as string,
    import_supplier: endpoint.import_suppliers[0],
    external_account_number: null,
    data: { webhook_endpoint_id: endpoint.id },
  };
  const { rows } = await db.query(insertTestDelivery, [id, event.id, JSON.stringify(event), event.type, now]);
  return rows.length > 0 ? event.id : null;
}

/** An endpoint's latest deliveries, newest first, each with its attempts (oldest first). */
export async function recentDeliveries(db: Queryable, id: string, limit: number) {
  const deliveries = (await db.query<DeliveryRow>(selectRecentDeliveries, [id, limit])).rows;
  const attempts = (await db.query<AttemptRow>(selectAttempts, [deliveries.map((d) => d.id)])).rows;
  const byDelivery = new Map<string, AttemptRow[]>();
  for (const a of attempts) {
    const list = byDelivery.get(a.delivery_id);
    if (list) list.push(a);
    else byDelivery.set(a.delivery_id, [a]);
  }
  return deliveries.map((d) => ({
    id: d.id,
    event_id: d.feed_event_id,
    type: d.event_type,
    state: d.state,
    created_at: wireDatetime(d.created_at) as string,
    next_attempt_at: d.state === 'pending' ? wireDatetime(d.next_attempt_at) : null,
    delivered_at: wireDatetime(d.delivered_at),
    failed_at: wireDatetime(d.failed_at),
    attempts: (byDelivery.get(d.id) ?? []).map((a) => ({
      at: wireDatetime(a.attempted_at) as string,
      status_code: a.status_code,
      error: a.error,
      duration_ms: a.duration_ms,
    })),
  }));
}
export type DeliveryView = Awaited<ReturnType<typeof recentDeliveries>>[number];
