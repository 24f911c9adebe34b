-- Webhooks (docs/decisions/0072-webhooks.md): endpoints the operator registers, one delivery per
-- event and endpoint, and every attempt at one.
--
-- An endpoint has its own cursor into the event feed (cursor_xid, cursor_id), starting at the
-- feed's end when it is created. Fan-out reads the feed after it under the endpoint's row lock,
-- writes the deliveries and moves the cursor in one transaction: a crash leaves both as they
-- were, and the unique (endpoint_id, event_id) makes a second fan-out of one event impossible.
CREATE TABLE webhook_endpoints (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  url text NOT NULL,
  -- Supplier codes, or {'*'} for every supplier.
  import_suppliers text[] NOT NULL CONSTRAINT webhook_endpoints_suppliers CHECK (cardinality(import_suppliers) > 0),
  -- Event types; NULL for every type.
  types text[],
  -- 32 random bytes as hex: the HMAC key of Ferry-Signature, kept in clear so the sender can sign.
  secret text NOT NULL,
  enabled boolean NOT NULL DEFAULT true,
  created_at timestamptz NOT NULL DEFAULT now(),
  -- The first failed attempt since the last delivery; NULL while deliveries succeed.
  failing_since timestamptz,
  disabled_at timestamptz,
  disabled_reason text,
  cursor_xid xid8 NOT NULL,
  cursor_id bigint NOT NULL
);

-- A delivery is `pending` (waiting, retrying, or leased by a sender: locked_by, locked_until)
-- until a 2xx makes it `delivered`, or 72 hours of failed attempts make it `failed`.
CREATE TABLE webhook_deliveries (
  id bigserial PRIMARY KEY,
  endpoint_id uuid NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
  -- events.id and its transaction's id: the feed's order. NULL for a test event.
  event_id bigint,
  event_xid xid8,
  -- The event's id in the feed (its cursor; `test_<uuid>` for a test event): Ferry-Event-Id.
  feed_event_id text NOT NULL,
  event_type text NOT NULL,
  -- `<supplier>/<external account number>`: deliveries of one key go out in feed order, each
  -- only once every earlier one of its key is delivered or failed. NULL (a test event): no order.
  ordering_key text,
  occurred_at timestamptz NOT NULL,
  -- The exact JSON posted, the same bytes on every attempt.
  body text NOT NULL,
  state text NOT NULL DEFAULT 'pending'
    CONSTRAINT webhook_deliveries_state CHECK (state IN ('pending', 'delivered', 'failed')),
  attempts integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now(),
  first_attempt_at timestamptz,
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  delivered_at timestamptz,
  failed_at timestamptz,
  last_status_code integer,
  last_error text,
  locked_by text,
  locked_until timestamptz,
  CONSTRAINT webhook_deliveries_one_per_event UNIQUE (endpoint_id, event_id)
);
-- What a sender claims: pending deliveries by when they are due.
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at, id) WHERE state = 'pending';
-- The claim's head-of-key test: is an earlier delivery of this endpoint and key still pending?
CREATE INDEX webhook_deliveries_key_order ON webhook_deliveries (endpoint_id, ordering_key, event_xid, event_id)
  WHERE state = 'pending';
-- An endpoint's recent deliveries, newest first; its failed count (its pending count reads
-- webhook_deliveries_key_order). No other index covers (endpoint_id, state = 'pending'): the
-- claim's head-of-key test must find the key-order index, not one that lists the endpoint's
-- every pending delivery.
CREATE INDEX webhook_deliveries_recent ON webhook_deliveries (endpoint_id, id);
CREATE INDEX webhook_deliveries_failed ON webhook_deliveries (endpoint_id) WHERE state = 'failed';

CREATE TABLE webhook_delivery_attempts (
  id bigserial PRIMARY KEY,
  delivery_id bigint NOT NULL REFERENCES webhook_deliveries (id) ON DELETE CASCADE,
  attempted_at timestamptz NOT NULL,
  -- The receiver's status; NULL when none came (timeout, refused connection).
  status_code integer,
  duration_ms integer NOT NULL,
  -- Why it failed; NULL for a 2xx.
  error text
);
CREATE INDEX webhook_delivery_attempts_delivery ON webhook_delivery_attempts (delivery_id, id);
