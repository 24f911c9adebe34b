-- Wave approval and rollback (docs/decisions/0070-wave-approval-and-rollback.md).

-- The sender claims deliverable rows in id order through this index: held welcome e-mails (a
-- whole wave of them may wait for days) are not in it, so each claim skips none of them.
DROP INDEX email_outbox_unsent;
CREATE INDEX email_outbox_unsent ON email_outbox (id)
  WHERE status IN ('PENDING', 'SENDING') AND held_for_wave IS NULL;

-- The rows a wave's approval releases.
CREATE INDEX email_outbox_held ON email_outbox (held_for_wave) WHERE held_for_wave IS NOT NULL;
