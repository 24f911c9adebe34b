/**
 * The operator's webhook endpoints (migration 0020): registered, listed, enabled or disabled,
 * deleted, and their recent deliveries. The sender's and fan-out's SQL is in
 * webhook-deliveries.queries.ts.
 */
import { sql } from '../../infra/db/db.ts';

/** An endpoint as the admin API and dashboard show it: never its secret. */
export interface EndpointRow {
  id: string;
  url: string;
  import_suppliers: string[];
  types: string[] | null;
  enabled: boolean;
  created_at: Date;
  failing_since: Date | null;
  disabled_at: Date | null;
  disabled_reason: string | null;
  pending: number;
  failed: number;
}

const ENDPOINT_COLUMNS = `e.id, e.url, e.import_suppliers, e.types, e.enabled, e.created_at, e.failing_since,
       e.disabled_at, e.disabled_reason`;
// Through the partial indexes (key order, failed): delivered rows, however many, are not read.
const COUNTS = `(SELECT count(*)::int FROM webhook_deliveries d
                  WHERE d.endpoint_id = e.id AND d.state = 'pending') AS pending,
                (SELECT count(*)::int FROM webhook_deliveries d
                  WHERE d.endpoint_id = e.id AND d.state = 'failed') AS failed`;

/**
 * A new endpoint, its cursor at the feed's end ($5, $6): it hears of what happens from now on.
 * The secret ($4) is returned to the caller only here.
 */
export const insertEndpoint = sql(
  'insertWebhookEndpoint',
  `INSERT INTO webhook_endpoints AS e (url, import_suppliers, types, secret, cursor_xid, cursor_id)
   VALUES ($1, $2, $3, $4, $5::xid8, $6::bigint)
   RETURNING ${ENDPOINT_COLUMNS}, 0 AS pending, 0 AS failed`,
);

export const selectEndpoints = sql(
  'selectWebhookEndpoints',
  `SELECT ${ENDPOINT_COLUMNS}, ${COUNTS} FROM webhook_endpoints e ORDER BY e.created_at, e.id`,
);

export const selectEndpoint = sql(
  'selectWebhookEndpoint',
  `SELECT ${ENDPOINT_COLUMNS}, ${COUNTS} FROM webhook_endpoints e WHERE e.id = $1`,
);

/**
 * Enables ($2 true) or disables endpoint $1. Enabling clears the failing state: the endpoint's
 * failures start counting afresh. Disabling by hand says so in disabled_reason.
 */
export const setEndpointEnabled = sql(
  'setWebhookEndpointEnabled',
  `UPDATE webhook_endpoints e
      SET enabled = $2,
          failing_since = CASE WHEN $2 THEN NULL ELSE e.failing_since END,
          disabled_at = CASE WHEN $2 THEN NULL WHEN e.enabled THEN now() ELSE e.disabled_at END,
          disabled_reason = CASE WHEN $2 THEN NULL WHEN e.enabled THEN 'disabled by the operator'
                                 ELSE e.disabled_reason END
    WHERE e.id = $1
   RETURNING e.id`,
);

/** Deletes endpoint $1; its deliveries and their attempts go with it (ON DELETE CASCADE). */
export const deleteEndpoint = sql('deleteWebhookEndpoint', 'DELETE FROM webhook_endpoints WHERE id = $1');

/** One test event for endpoint $1 (body $3, id $2): no key, so it waits for nothing. */
export const insertTestDelivery = sql(
  'insertWebhookTestDelivery',
  `INSERT INTO webhook_deliveries (endpoint_id, feed_event_id, event_type, occurred_at, stored_body)
   SELECT e.id, $2, $4, $5, $3 FROM webhook_endpoints e WHERE e.id = $1
   RETURNING id`,
);

export interface DeliveryRow {
  id: string;
  feed_event_id: string;
  event_type: string;
  state: 'pending' | 'delivered' | 'failed';
  attempts: number;
  created_at: Date;
  next_attempt_at: Date;
  delivered_at: Date | null;
  failed_at: Date | null;
  last_error: string | null;
}

/** The latest $2 deliveries of endpoint $1, newest first. */
export const selectRecentDeliveries = sql(
  'selectRecentWebhookDeliveries',
  `SELECT id, feed_event_id, event_type, state, attempts, created_at, next_attempt_at, delivered_at,
          failed_at, last_error
     FROM webhook_deliveries WHERE endpoint_id = $1
    ORDER BY id DESC LIMIT $2`,
);

export interface AttemptRow {
  delivery_id: string;
  attempted_at: Date;
  status_code: number | null;
  duration_ms: number;
  error: string | null;
}

/**
 * The attempts of deliveries $1, oldest first: the rows of webhook_delivery_attempts, and the
 * successful attempt kept on a delivered delivery's own row (migration 0023). A delivery's
 * attempts are made one after another, so their times order them; on a tie, the table's rows
 * come first, in the order they were written.
 */
export const selectAttempts = sql(
  'selectWebhookAttempts',
  `SELECT delivery_id, attempted_at, status_code, duration_ms, error FROM (
     SELECT delivery_id, attempted_at, status_code, duration_ms, error, id AS seq
       FROM webhook_delivery_attempts WHERE delivery_id = ANY($1::bigint[])
     UNION ALL
     SELECT id, delivered_attempt_at, last_status_code, delivered_duration_ms, NULL, NULL
       FROM webhook_deliveries WHERE id = ANY($1::bigint[]) AND delivered_attempt_at IS NOT NULL
   ) a
   ORDER BY delivery_id, attempted_at, seq NULLS LAST`,
);
