-- Fields the GB reference documents for the follow-up bodies, which had no column to land in
-- (PRODUCT §6 "Follow-up fields"; docs/decisions/9xx-follow-up-wire-fidelity.md). Transactions
-- keep their extra fields in `data`, statements in `data`; notes and payment instructions have
-- no free-form column, so they get one per field.

-- A note's source-system id (the reference's de-duplication key) and its archived flag.
ALTER TABLE notes
  ADD COLUMN external_id text,
  ADD COLUMN is_archived boolean NOT NULL DEFAULT false;
CREATE INDEX notes_account_external_id ON notes (account_id, external_id) WHERE external_id IS NOT NULL;

-- What the supplier says about the instruction, beside what the vendor says (`details`).
ALTER TABLE payment_instructions
  ADD COLUMN ledger_code text,
  ADD COLUMN use_for_scheduled_payments boolean,
  ADD COLUMN valid_from date;
