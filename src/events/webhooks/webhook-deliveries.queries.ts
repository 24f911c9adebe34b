/**
 * The SQL of webhook fan-out (feed → deliveries) and of the sender (deliveries → POSTs), on the
 * tables of migration 0020. Locking choices are explained beside each statement.
 */
import { createHash } from 'node:crypto';
import { type Sql, sql, sqlLiteral } from '../../infra/db/db.ts';
import { feedColumns, feedEventOf } from '../event-feed.ts';

/**
 * Enabled endpoints with an event after their cursor that fan-out may read already (below the
 * oldest running transaction, as readEvents reads). Asked without a lock or a transaction id, so
 * an idle fan-out costs one cheap read per round, not a transaction per endpoint.
 */
export const selectEndpointsBehind = sql(
  'selectWebhookEndpointsBehind',
  `SELECT e.id FROM webhook_endpoints e
    WHERE e.enabled AND EXISTS (
      SELECT 1 FROM events v
       WHERE (v.xid, v.id) > (e.cursor_xid, e.cursor_id)
         AND v.xid < pg_snapshot_xmin(pg_current_snapshot()))
    ORDER BY e.id`,
);

export interface FanOutEndpoint {
  id: string;
  import_suppliers: string[];
  types: string[] | null;
  cursor_xid: string;
  cursor_id: string;
}

/**
 * Endpoint $1 for fan-out, row-locked to the end of the transaction. SKIP LOCKED: while another
 * worker fans out for this endpoint, this one goes on to the next endpoint instead of waiting,
 * so any number of workers share the endpoints and only one at a time moves an endpoint's cursor.
 */
export const lockEndpointForFanOut = sql(
  'lockWebhookEndpointForFanOut',
  `SELECT id, import_suppliers, types, cursor_xid::text, cursor_id::text
     FROM webhook_endpoints WHERE id = $1 AND enabled
      FOR UPDATE SKIP LOCKED`,
);

/**
 * The deliveries of one page of the feed for endpoint $1. The unique (endpoint_id, event_id)
 * makes a repeated fan-out of an event a no-op (it cannot happen while the cursor moves in the
 * same transaction, but the table says so, not only the code). No body: the claim builds it from
 * the event (decision 0106).
 */
export const insertDeliveries = sql(
  'insertWebhookDeliveries',
  `INSERT INTO webhook_deliveries
          (endpoint_id, event_id, event_xid, feed_event_id, event_type, ordering_key, occurred_at)
   SELECT $1, u.event_id, u.event_xid, u.feed_event_id, u.event_type, u.ordering_key, u.occurred_at
     FROM unnest($2::bigint[], $3::xid8[], $4::text[], $5::text[], $6::text[], $7::timestamptz[])
          AS u(event_id, event_xid, feed_event_id, event_type, ordering_key, occurred_at)
   ON CONFLICT (endpoint_id, event_id) DO NOTHING`,
);

/** Moves endpoint $1's cursor to ($2, $3), in the transaction that wrote the page's deliveries. */
export const advanceEndpointCursor = sql(
  'advanceWebhookEndpointCursor',
  'UPDATE webhook_endpoints SET cursor_xid = $2::xid8, cursor_id = $3::bigint WHERE id = $1',
);

export interface ClaimedDelivery {
  id: string;
  endpoint_id: string;
  url: string;
  secret: string;
  feed_event_id: string;
  /** What is posted: a test event's stored body, else the feed's event; null when that is gone. */
  body: string | null;
  attempts: number;
  occurred_at: Date;
  /** The head of its key this delivery was claimed behind (its own id for a head). */
  head_id: string;
  /** Its place behind that head: 0 for the head, then 1, 2, … in the key's order. */
  chain_pos: number;
}

/** A row of claimDueDeliveries: the delivery, and its event's columns (null for a test event). */
export interface ClaimedRow extends ClaimedDelivery {
  ev_xid: string | null;
  ev_id: string | null;
  ev_type: string | null;
  ev_occurred_at: string | null;
  ev_import_supplier: string | null;
  ev_external_account_number: string | null;
  ev_data: Record<string, unknown> | null;
}

/** The claimed delivery of a row: its body is the stored one, else its event as the feed has it. */
export function claimedDelivery(r: ClaimedRow): ClaimedDelivery {
  const {
    ev_xid,
    ev_id,
    ev_type,
    ev_occurred_at,
    ev_import_supplier,
    ev_external_account_number,
    ev_data,
    ...d
  } = r;
  if (d.body !== null || ev_id === null) return d;
  // The event's row was found: its columns that may not be NULL are set.
  const event = feedEventOf({
    xid: ev_xid!,
    id: ev_id,
    type: ev_type!,
    occurred_at: ev_occurred_at!,
    import_supplier: ev_import_supplier!,
    external_account_number: ev_external_account_number,
    data: ev_data!,
  });
  return { ...d, body: JSON.stringify(event) };
}

/**
 * Claims up to `batchSize` deliveries for sender `senderId`, leasing them for `leaseSeconds`:
 * pending, due, not leased (or their sender's lease ran out: it crashed or stalled), of an enabled
 * endpoint, and each the head of its key: no earlier delivery of the same endpoint and key is
 * still pending. A key's next event so waits until the one before it is delivered (or has failed
 * for good), however many retries that takes, which keeps each import process's events in order.
 *
 * With each head that has no attempt recorded come up to `chainAfter` of its key's next
 * deliveries, in order, as far as each is due and not leased (decision 0107): the sender posts
 * them one after another once the one before was answered 2xx, and hands back the rest at the
 * first that was not. Without them, each next delivery waited behind its head for a claim of its
 * own, and every claim meanwhile walked past it. Each row answers its head (`head_id`) and its
 * place behind it (`chain_pos`, 0 for the head); a next delivery locked by another transaction (a
 * sender whose lease ran out, still recording) is skipped, which leaves a gap the sender does not
 * post past. Only a head's first attempt is stamped here; a next delivery's when its attempt is
 * recorded.
 *
 * Locking, as for the import queue: FOR UPDATE SKIP LOCKED gives concurrent senders disjoint
 * heads without waiting; after this statement the lease columns say who owns a row. A head that
 * another sender holds is still pending, so the NOT EXISTS keeps its successors back too, and
 * a key's next deliveries are only ever claimed with its head, so no two claims want one row.
 *
 * A delivery of the feed stores no body: it is its event as the feed answers it, read here from
 * the events table (claimedDelivery builds it). Only a test event keeps a body of its own.
 *
 * Every value is written into the statement, none is passed (decision 0108): they are the
 * sender's own and fixed, and a statement without parameters is never given a custom plan, so the
 * server plans it once a connection and again after an ANALYZE of its tables. With parameters it
 * made a custom plan at 47–101 % of calls, about 0.9 ms each.
 */
export function claimDueDeliveries(c: ClaimOptions): Sql {
  const { senderId, leaseSeconds, batchSize, chainAfter } = c;
  if (!Number.isSafeInteger(batchSize) || batchSize < 1)
    throw new Error(`claimDueDeliveries: ${batchSize} is not a batch size`);
  if (!Number.isSafeInteger(chainAfter) || chainAfter < 0)
    throw new Error(`claimDueDeliveries: ${chainAfter} is not a count`);
  if (!Number.isFinite(leaseSeconds) || leaseSeconds <= 0)
    throw new Error(`claimDueDeliveries: ${leaseSeconds} is not a lease`);
  const text = claimText(sqlLiteral(senderId), String(leaseSeconds), batchSize, chainAfter);
  // Named by its text: the server keeps 63 bytes of a name, and pg refuses one name for two texts.
  return sql(
    `claimDueWebhookDeliveries_${createHash('sha256').update(text).digest('hex').slice(0, 16)}`,
    text,
  );
}
/** A sender's claim: its id, its lease, how many heads a claim takes, and how many behind each. */
export interface ClaimOptions {
  senderId: string;
  leaseSeconds: number;
  batchSize: number;
  chainAfter: number;
}

const claimText = (sender: string, lease: string, batchSize: number, chainAfter: number) =>
  `WITH due AS (
     SELECT d.id, d.endpoint_id, d.ordering_key, d.event_xid, d.event_id, d.attempts FROM webhook_deliveries d
      WHERE d.state = 'pending' AND d.next_attempt_at <= now()
        AND (d.locked_until IS NULL OR d.locked_until < now())
        AND EXISTS (SELECT 1 FROM webhook_endpoints e WHERE e.id = d.endpoint_id AND e.enabled)
        AND NOT EXISTS (
          SELECT 1 FROM webhook_deliveries p
           WHERE p.endpoint_id = d.endpoint_id AND p.ordering_key = d.ordering_key
             AND p.state = 'pending' AND (p.event_xid, p.event_id) < (d.event_xid, d.event_id))
      ORDER BY d.next_attempt_at, d.id
      LIMIT ${batchSize}
        FOR UPDATE OF d SKIP LOCKED
   ), behind AS (
     SELECT h.id AS head_id, n.chain_pos, n.id
       FROM due h CROSS JOIN LATERAL (
         SELECT x.id, x.chain_pos FROM (
           SELECT s.id, row_number() OVER w AS chain_pos,
                  bool_and(s.next_attempt_at <= now() AND (s.locked_until IS NULL OR s.locked_until < now())) OVER w AS free
             FROM (
               SELECT s.id, s.event_xid, s.event_id, s.next_attempt_at, s.locked_until
                 FROM webhook_deliveries s
                WHERE s.endpoint_id = h.endpoint_id AND s.ordering_key = h.ordering_key
                  AND s.state = 'pending' AND (s.event_xid, s.event_id) > (h.event_xid, h.event_id)
                ORDER BY s.event_xid, s.event_id
                LIMIT ${chainAfter}
             ) s
           WINDOW w AS (ORDER BY s.event_xid, s.event_id ROWS UNBOUNDED PRECEDING)
         ) x WHERE x.free
       ) n
      WHERE h.ordering_key IS NOT NULL AND h.attempts = 0 AND ${chainAfter} > 0
   ), taken AS (
     SELECT b.head_id, b.chain_pos, b.id
       FROM behind b JOIN webhook_deliveries d ON d.id = b.id
      WHERE d.state = 'pending' AND d.next_attempt_at <= now()
        AND (d.locked_until IS NULL OR d.locked_until < now())
        FOR UPDATE OF d SKIP LOCKED
   ), chain AS (
     SELECT id AS head_id, 0::bigint AS chain_pos, id FROM due
     UNION ALL
     SELECT head_id, chain_pos, id FROM taken
   ), claimed AS (
     UPDATE webhook_deliveries d
        SET locked_by = ${sender}, locked_until = now() + make_interval(secs => ${lease}),
            first_attempt_at = CASE WHEN c.chain_pos = 0 THEN coalesce(d.first_attempt_at, now()) ELSE d.first_attempt_at END
       FROM chain c, webhook_endpoints e
      WHERE d.id = c.id AND e.id = d.endpoint_id AND d.state = 'pending'
     RETURNING d.id, c.head_id, c.chain_pos, d.endpoint_id, e.url, e.secret, d.feed_event_id,
               d.stored_body AS body, d.attempts, d.occurred_at, d.event_id
   )
   SELECT c.id, c.head_id, c.chain_pos::int AS chain_pos, c.endpoint_id, c.url, c.secret, c.feed_event_id,
          c.body, c.attempts, c.occurred_at, ${feedColumns('v', 'ev_')}
     FROM claimed c LEFT JOIN events v ON v.id = c.event_id AND c.body IS NULL`;

/** One attempt at delivery $1 (at $2, status $3, $4 ms, error $5), whatever became of the delivery. */
export const insertAttempt = sql(
  'insertWebhookAttempt',
  `INSERT INTO webhook_delivery_attempts (delivery_id, attempted_at, status_code, duration_ms, error)
   SELECT id, $2, $3, $4, $5 FROM webhook_deliveries WHERE id = $1`,
);

/**
 * The 2xx answers of one settled batch, in one statement: deliveries $1 (answered at $2, status
 * $3, in $4 ms) are delivered, whoever holds them now (a sender that took one over after this
 * one's lease ran out must not post it again); their endpoints are no longer failing. One commit
 * for a batch, not two for each delivery: the sender's round trips were what held deliveries
 * back under a bulk push. Answers the deliveries this statement delivered.
 *
 * The successful attempt is kept on the delivery's row (delivered_attempt_at, last_status_code,
 * delivered_duration_ms; migration 0023), not as a row of its own. A 2xx for a delivery that was
 * no longer pending (another sender posted it again after a lease ran out and recorded it first)
 * is an attempt row, so that every attempt is still listed.
 */
export const markBatchDelivered = sql(
  'markWebhookBatchDelivered',
  `WITH u AS (
     SELECT * FROM unnest($1::bigint[], $2::timestamptz[], $3::int[], $4::int[]) AS u(id, at, status, ms)
   ), d AS (
     UPDATE webhook_deliveries d
        SET state = 'delivered', delivered_at = now(), attempts = d.attempts + 1, locked_by = NULL,
            locked_until = NULL, last_status_code = u.status, last_error = NULL,
            first_attempt_at = coalesce(d.first_attempt_at, u.at),
            delivered_attempt_at = u.at, delivered_duration_ms = u.ms
       FROM u
      WHERE d.id = u.id AND d.state = 'pending'
     RETURNING d.id, d.endpoint_id, d.occurred_at
   ), a AS (
     INSERT INTO webhook_delivery_attempts (delivery_id, attempted_at, status_code, duration_ms, error)
     SELECT x.id, u.at, u.status, u.ms, NULL FROM u JOIN webhook_deliveries x ON x.id = u.id
      WHERE u.id NOT IN (SELECT id FROM d)
   ), e AS (
     UPDATE webhook_endpoints SET failing_since = NULL
      WHERE id IN (SELECT endpoint_id FROM d) AND failing_since IS NOT NULL
   )
   SELECT d.id, d.occurred_at FROM d`,
);

/**
 * A failed attempt at delivery $1 by sender $2 (status $3, error $4, made at $7, which is its first
 * attempt's time if none was stamped): tried again in $5 seconds,
 * unless its first attempt is $6 seconds old or more, when it has failed for good. Its endpoint
 * has been failing since its first failure after its last delivery. Answers the delivery's new
 * state and since when the endpoint has been failing; no row when another sender holds it.
 */
export const recordFailedAttempt = sql(
  'recordWebhookFailedAttempt',
  `WITH d AS (
     UPDATE webhook_deliveries
        SET attempts = attempts + 1, locked_by = NULL, locked_until = NULL,
            last_status_code = $3, last_error = $4, first_attempt_at = coalesce(first_attempt_at, $7),
            state = CASE WHEN first_attempt_at <= now() - make_interval(secs => $6) THEN 'failed' ELSE 'pending' END,
            failed_at = CASE WHEN first_attempt_at <= now() - make_interval(secs => $6) THEN now() END,
            next_attempt_at = now() + make_interval(secs => $5)
      WHERE id = $1 AND state = 'pending' AND locked_by = $2
     RETURNING endpoint_id, state, attempts
   ), e AS (
     UPDATE webhook_endpoints SET failing_since = coalesce(failing_since, now())
      WHERE id = (SELECT endpoint_id FROM d)
     RETURNING failing_since
   )
   SELECT d.state, d.attempts, e.failing_since FROM d LEFT JOIN e ON true`,
);

/**
 * Delivery $1, held by sender $2, has failed for good at once (reason $3): there is nothing to
 * post for it. Its endpoint's failing_since is left alone. No row when another sender holds it.
 */
export const failDeliveryNow = sql(
  'failWebhookDeliveryNow',
  `UPDATE webhook_deliveries
      SET state = 'failed', failed_at = now(), attempts = attempts + 1, locked_by = NULL,
          locked_until = NULL, last_status_code = NULL, last_error = $3,
          first_attempt_at = coalesce(first_attempt_at, now())
    WHERE id = $1 AND state = 'pending' AND locked_by = $2
   RETURNING id`,
);

/**
 * Disables endpoint $1 when it has done nothing but fail for $2 seconds; answers it when it did.
 * Its pending deliveries wait (not claimed, not failed) until the operator enables it again.
 */
export const disableFailingEndpoint = sql(
  'disableFailingWebhookEndpoint',
  `UPDATE webhook_endpoints
      SET enabled = false, disabled_at = now(),
          disabled_reason = 'every delivery failed since ' ||
            to_char(failing_since AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')
    WHERE id = $1 AND enabled AND failing_since <= now() - make_interval(secs => $2)
   RETURNING id, url, failing_since, disabled_reason`,
);

/** A sender stopping hands back deliveries $1 it claimed but did not post (no attempt made). */
export const releaseDeliveries = sql(
  'releaseWebhookDeliveries',
  `UPDATE webhook_deliveries SET locked_by = NULL, locked_until = NULL
    WHERE id = ANY($1::bigint[]) AND state = 'pending' AND locked_by = $2`,
);

/** Deliveries waiting to go out (the pending gauge, read at scrape time). */
export const countPendingDeliveries = sql(
  'countPendingWebhookDeliveries',
  "SELECT count(*)::int AS n FROM webhook_deliveries WHERE state = 'pending'",
);
