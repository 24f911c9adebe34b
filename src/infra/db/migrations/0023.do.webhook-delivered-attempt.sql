-- A delivery's successful attempt is kept on the delivery's row, not in a row of
-- webhook_delivery_attempts (decision 0076): recording a batch delivered rewrites each delivery
-- anyway, and the extra row, with its two index entries, was 40 % of that statement's time.
-- Both NULL for deliveries delivered before this migration: their attempt rows stay where they
-- are. The deliveries list shows this attempt among the attempts table's rows, by time.
ALTER TABLE webhook_deliveries
  ADD COLUMN delivered_attempt_at timestamptz,
  ADD COLUMN delivered_duration_ms integer;
