-- The relational record of a created account: the parts Ferry acts on, each with the rest of
-- its validated object kept in `attributes`. The full validated payload stays on `accounts`.

ALTER TABLE accounts
  ADD COLUMN import_process_id bigint REFERENCES import_processes (id),
  ADD COLUMN account_type text,
  ADD COLUMN billing_name text,
  ADD COLUMN balance numeric(14, 2) NOT NULL DEFAULT 0,
  ADD COLUMN last_billed_to_date date,
  ADD COLUMN open_statement_start date NOT NULL DEFAULT current_date,
  ADD COLUMN payload jsonb NOT NULL DEFAULT '{}';

CREATE TABLE account_customers (
  id bigserial PRIMARY KEY,
  account_id bigint NOT NULL REFERENCES accounts (id),
  position integer NOT NULL,
  given_name text,
  family_name text,
  email text,
  mobile text,
  landline text,
  date_of_birth date,
  attributes jsonb NOT NULL DEFAULT '{}'
);
CREATE INDEX account_customers_account ON account_customers (account_id);

CREATE TABLE billing_addresses (
  account_id bigint PRIMARY KEY REFERENCES accounts (id),
  name text,
  address_lines text[] NOT NULL,
  postcode text,
  attributes jsonb NOT NULL DEFAULT '{}'
);

CREATE TABLE supply_addresses (
  id bigserial PRIMARY KEY,
  account_id bigint NOT NULL REFERENCES accounts (id),
  position integer NOT NULL,
  address_lines text[] NOT NULL,
  postcode text,
  attributes jsonb NOT NULL DEFAULT '{}'
);
CREATE INDEX supply_addresses_account ON supply_addresses (account_id);

-- An MPAN or MPRN belongs to one account at a time.
CREATE TABLE meter_points (
  id bigserial PRIMARY KEY,
  account_id bigint NOT NULL REFERENCES accounts (id),
  supply_address_id bigint NOT NULL REFERENCES supply_addresses (id),
  identifier text NOT NULL UNIQUE,
  supply_type text NOT NULL,
  supply_start_date date,
  attributes jsonb NOT NULL DEFAULT '{}'
);
CREATE INDEX meter_points_account ON meter_points (account_id);

CREATE TABLE agreements (
  id bigserial PRIMARY KEY,
  meter_point_id bigint NOT NULL REFERENCES meter_points (id),
  tariff_code text,
  effective_from date,
  effective_to date,
  attributes jsonb NOT NULL DEFAULT '{}'
);
CREATE INDEX agreements_meter_point ON agreements (meter_point_id);

CREATE TABLE meters (
  id bigserial PRIMARY KEY,
  meter_point_id bigint NOT NULL REFERENCES meter_points (id),
  serial_number text NOT NULL,
  attributes jsonb NOT NULL DEFAULT '{}'
);
CREATE INDEX meters_meter_point ON meters (meter_point_id);

CREATE TABLE registers (
  id bigserial PRIMARY KEY,
  meter_id bigint NOT NULL REFERENCES meters (id),
  register_id text NOT NULL,
  attributes jsonb NOT NULL DEFAULT '{}'
);
CREATE INDEX registers_meter ON registers (meter_id);

CREATE TABLE readings (
  id bigserial PRIMARY KEY,
  meter_id bigint NOT NULL REFERENCES meters (id),
  kind text NOT NULL CHECK (kind IN ('transfer', 'history')),
  register_id text,
  reading_date date NOT NULL,
  reading_value numeric NOT NULL,
  reading_type text,
  attributes jsonb NOT NULL DEFAULT '{}'
);
CREATE INDEX readings_meter ON readings (meter_id);

CREATE TABLE ledgers (
  id bigserial PRIMARY KEY,
  account_id bigint NOT NULL REFERENCES accounts (id),
  position integer NOT NULL,
  ledger_balance numeric(14, 2),
  last_statement_closing_date date,
  last_statement_balance numeric(14, 2),
  attributes jsonb NOT NULL DEFAULT '{}'
);
CREATE INDEX ledgers_account ON ledgers (account_id);

-- Ledger transactions: those migrated with the account and those imported later.
CREATE TABLE transactions (
  id bigserial PRIMARY KEY,
  account_id bigint NOT NULL REFERENCES accounts (id),
  ledger_id bigint REFERENCES ledgers (id),
  transaction_id text NOT NULL,
  statement text NOT NULL CHECK (statement IN ('historical', 'current')),
  transaction_date date NOT NULL,
  amount numeric(14, 2) NOT NULL,
  type text NOT NULL,
  reason text,
  data jsonb NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (account_id, transaction_id)
);

CREATE TABLE statements (
  id bigserial PRIMARY KEY,
  account_id bigint NOT NULL REFERENCES accounts (id),
  statement_id text NOT NULL,
  bill_period_from_date date NOT NULL,
  bill_period_to_date date NOT NULL,
  issued_date date,
  statement_path text,
  data jsonb NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (account_id, statement_id)
);

CREATE TABLE notes (
  id bigserial PRIMARY KEY,
  account_id bigint NOT NULL REFERENCES accounts (id),
  body text NOT NULL DEFAULT '',
  document_paths text[] NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL,
  is_pinned boolean NOT NULL DEFAULT false,
  unpin_at timestamptz
);
CREATE INDEX notes_account ON notes (account_id);

CREATE TABLE payment_schedules (
  id bigserial PRIMARY KEY,
  account_id bigint NOT NULL REFERENCES accounts (id),
  amount numeric(14, 2),
  start_date date,
  attributes jsonb NOT NULL DEFAULT '{}'
);
CREATE INDEX payment_schedules_account ON payment_schedules (account_id);

CREATE TABLE account_references (
  id bigserial PRIMARY KEY,
  account_id bigint NOT NULL REFERENCES accounts (id),
  namespace text NOT NULL,
  value text NOT NULL,
  UNIQUE (namespace, value)
);
CREATE INDEX account_references_account ON account_references (account_id);

CREATE TABLE account_metadata (
  account_id bigint NOT NULL REFERENCES accounts (id),
  key text NOT NULL,
  value jsonb,
  PRIMARY KEY (account_id, key)
);

-- Welcome e-mails (and later others) wait here until a sender delivers them.
CREATE TABLE email_outbox (
  id bigserial PRIMARY KEY,
  account_id bigint NOT NULL REFERENCES accounts (id),
  kind text NOT NULL,
  recipient text,
  created_at timestamptz NOT NULL DEFAULT now(),
  sent_at timestamptz,
  UNIQUE (account_id, kind)
);
CREATE INDEX email_outbox_unsent ON email_outbox (id) WHERE sent_at IS NULL;
