-- Delivery of the e-mail outbox over SMTP (docs/decisions/0040-welcome-mail-delivery.md).
-- A row is PENDING until a sender claims it (SENDING, under a lease: locked_by, locked_until),
-- then SENT, or back to PENDING with next_attempt_at after a transient failure, or FAILED
-- (permanent failure, with its reason in last_error). message_id is chosen at the first claim
-- and kept, so a re-send after a sender crashed between the SMTP server's acceptance and the
-- mark is the same message to whoever receives it.
ALTER TABLE email_outbox
  ADD COLUMN status text NOT NULL DEFAULT 'PENDING'
    CONSTRAINT email_outbox_status CHECK (status IN ('PENDING', 'SENDING', 'SENT', 'FAILED')),
  ADD COLUMN attempts integer NOT NULL DEFAULT 0,
  ADD COLUMN next_attempt_at timestamptz NOT NULL DEFAULT now(),
  ADD COLUMN locked_by text,
  ADD COLUMN locked_until timestamptz,
  ADD COLUMN message_id text,
  ADD COLUMN last_error text,
  ADD COLUMN failed_at timestamptz;

UPDATE email_outbox SET status = 'SENT' WHERE sent_at IS NOT NULL;

DROP INDEX email_outbox_unsent;
-- What a sender claims: due PENDING rows and SENDING rows whose lease may have expired.
CREATE INDEX email_outbox_unsent ON email_outbox (id) WHERE status IN ('PENDING', 'SENDING');
-- The dashboard's failure list.
CREATE INDEX email_outbox_failed ON email_outbox (failed_at, id) WHERE status = 'FAILED';
