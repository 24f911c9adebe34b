-- A webhook delivery of the feed no longer stores its body (docs/decisions/0106-delivery-body-from-its-event.md):
-- the body is the feed's event, which the events table keeps for good, so the sender's claim reads
-- it from there. Stored, each body (about 260 bytes) was written to the WAL twice: when fan-out
-- inserted the delivery, and again in the new row version that marks it delivered. Only a test
-- event, which is not in the feed, keeps a body of its own. Deliveries written before this
-- migration keep theirs and are posted with it.
--
-- The column is renamed, not only made optional: a worker of an earlier release still running
-- during a rolling upgrade would post a delivery without a stored body as an empty, wrongly signed
-- request. With the old name gone, its webhook statements fail instead, and it posts nothing.
ALTER TABLE webhook_deliveries RENAME COLUMN body TO stored_body;
ALTER TABLE webhook_deliveries ALTER COLUMN stored_body DROP NOT NULL;
-- Every row so far has a body: no need to read the table to check them.
ALTER TABLE webhook_deliveries
  ADD CONSTRAINT webhook_deliveries_body_or_event CHECK (stored_body IS NOT NULL OR event_id IS NOT NULL) NOT VALID;
