-- Decimals are stored exactly as validated (PRODUCT §6): unconstrained numeric keeps every digit
-- and the scale sent, where numeric(14, 2) rounded -12.505 to -12.51 and overflowed past 10^12.
ALTER TABLE accounts ALTER COLUMN balance TYPE numeric;
ALTER TABLE ledgers ALTER COLUMN ledger_balance TYPE numeric;
ALTER TABLE ledgers ALTER COLUMN last_statement_balance TYPE numeric;
ALTER TABLE transactions ALTER COLUMN amount TYPE numeric;
ALTER TABLE payment_schedules ALTER COLUMN amount TYPE numeric;

-- A transaction sent again with check_previously_added=false is added again (PRODUCT §6,
-- "Idempotency"): the pair is looked up, no longer unique. Requests on one account are serialised
-- by the account row lock, so the default check still adds a transaction once.
ALTER TABLE transactions DROP CONSTRAINT transactions_account_id_transaction_id_key;
CREATE INDEX transactions_account_transaction_id ON transactions (account_id, transaction_id);
