-- A webhook delivery of the feed no longer stores its body (docs/decisions/0106-delivery-body-from-its-event.md):
-- the body is the feed's event, which the events table keeps for good, so the sender's claim reads
-- it from there. Stored, each body (about 260 bytes) was written to the WAL twice: when fan-out
-- inserted the delivery, and again in the new row version that marks it delivered. Only a test
-- event, which is not in the feed, keeps a body of its own. Deliveries written before this
-- migration keep theirs and are posted with it.
ALTER TABLE webhook_deliveries ALTER COLUMN body DROP NOT NULL;
ALTER TABLE webhook_deliveries
  ADD CONSTRAINT webhook_deliveries_body_or_event CHECK (body IS NOT NULL OR event_id IS NOT NULL);
