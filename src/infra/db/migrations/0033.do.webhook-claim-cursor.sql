-- Where the webhook sender's last claim ended in the due order (docs/decisions/0110-webhook-claim-cursor.md):
-- the due time (microseconds since 1970) and the id of the last head it claimed. Most claims
-- start there, not at the front of the due order, where every sender's leased deliveries sit.
-- Sequences, not a row: a sequence is changed in place, outside any transaction, so moving the
-- cursor leaves no row version behind for the next claim to read past while a long transaction
-- holds the horizon back, and costs a small WAL record. 0 is the front.
CREATE SEQUENCE webhook_claim_cursor_at MINVALUE 0 START 0;
CREATE SEQUENCE webhook_claim_cursor_id MINVALUE 0 START 0;
