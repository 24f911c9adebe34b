-- The signed measure of a wave's expectations (decision 0082): the source system's net of an
-- account's transactions, each signed as its type moves the ledger balance.
ALTER TABLE wave_expectations ADD COLUMN transactions_net numeric;

-- The name an operator gives when signing in to the dashboard (decision 0083): recorded as who
-- approved or rolled back a wave from it. NULL: none given.
ALTER TABLE dashboard_sessions ADD COLUMN operator_name text;
