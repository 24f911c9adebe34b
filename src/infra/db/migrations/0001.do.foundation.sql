-- Foundation: import suppliers, API keys, service secrets, accounts, import processes and events.

CREATE TABLE service_secrets (
  name text PRIMARY KEY,
  value text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE import_suppliers (
  code text PRIMARY KEY CHECK (code ~ '^[A-Za-z0-9_-]{1,64}$'),
  status text NOT NULL DEFAULT 'Ongoing' CHECK (status IN ('Ongoing', 'Paused', 'Complete')),
  document_root text NOT NULL DEFAULT '',
  config jsonb NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL DEFAULT now(),
  modified_at timestamptz NOT NULL DEFAULT now()
);

-- Only a SHA-256 of the secret part is stored; the key's public id finds the row.
CREATE TABLE api_keys (
  id text PRIMARY KEY,
  name text NOT NULL,
  secret_hash text NOT NULL,
  import_suppliers text[] NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  revoked_at timestamptz
);

CREATE TABLE accounts (
  id bigserial PRIMARY KEY,
  number text NOT NULL UNIQUE,
  import_supplier text NOT NULL REFERENCES import_suppliers (code),
  external_account_number text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (import_supplier, external_account_number)
);

CREATE TABLE import_processes (
  id bigserial PRIMARY KEY,
  import_supplier text NOT NULL REFERENCES import_suppliers (code),
  external_account_number text NOT NULL,
  status text NOT NULL CHECK (
    status IN ('PENDING', 'IN_PROGRESS', 'PROCESSED', 'CANCELLED', 'DRY_RUN_SUCCEEDED', 'ERRORED', 'DRY_RUN_ERRORED')
  ),
  payload jsonb NOT NULL,
  is_dry_run boolean NOT NULL DEFAULT false,
  schedule_window_start timestamptz NOT NULL DEFAULT now(),
  schedule_window_end timestamptz NOT NULL DEFAULT now() + interval '4 days',
  -- Worker lease: who holds the process and until when; attempts counts claims.
  attempts integer NOT NULL DEFAULT 0,
  locked_by text,
  locked_until timestamptz,
  latest_error jsonb,
  latest_event jsonb NOT NULL,
  account_id bigint REFERENCES accounts (id),
  created_at timestamptz NOT NULL DEFAULT now(),
  modified_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (import_supplier, external_account_number)
);

-- Keyset pagination of the list endpoints walks (import_supplier, id).
CREATE INDEX import_processes_supplier_id ON import_processes (import_supplier, id);
-- Workers claim the oldest due PENDING processes.
CREATE INDEX import_processes_pending ON import_processes (schedule_window_start, id) WHERE status = 'PENDING';

CREATE TABLE import_process_events (
  id bigserial PRIMARY KEY,
  import_process_id bigint NOT NULL REFERENCES import_processes (id),
  event text NOT NULL,
  occurred_at timestamptz NOT NULL DEFAULT now(),
  data jsonb
);

CREATE INDEX import_process_events_process ON import_process_events (import_process_id, id);
