-- Waves of a migration (docs/decisions/0069-waves-and-reconciliation.md): a process belongs to the
-- wave it was last scheduled in (task_params.wave), or to none.
ALTER TABLE import_processes ADD COLUMN wave text CHECK (wave ~ '^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$');
CREATE INDEX import_processes_supplier_wave ON import_processes (import_supplier, wave, external_account_number)
  WHERE wave IS NOT NULL;

-- What happened to a wave as a whole: its expectations uploaded, approved (final), rolled back.
-- A row exists once one of them happened; a wave with processes and no row has none of them.
CREATE TABLE waves (
  import_supplier text NOT NULL REFERENCES import_suppliers (code),
  wave text NOT NULL CHECK (wave ~ '^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$'),
  expectations_uploaded_at timestamptz,
  expected_accounts bigint,
  approved_at timestamptz,
  approved_by text,
  -- The reconciliation's accounts and totals when it was approved, and whether it was forced.
  approval jsonb,
  rolled_back_at timestamptz,
  rolled_back_by text,
  rollback jsonb,
  PRIMARY KEY (import_supplier, wave)
);

-- The source system's figures per account of a wave, as the supplier uploaded them last. A null
-- measure was not given, and is not compared.
CREATE TABLE wave_expectations (
  import_supplier text NOT NULL,
  wave text NOT NULL,
  external_account_number text NOT NULL,
  ledger_balance numeric,
  meter_points integer,
  transactions integer,
  transactions_total numeric,
  PRIMARY KEY (import_supplier, wave, external_account_number),
  FOREIGN KEY (import_supplier, wave) REFERENCES waves (import_supplier, wave) ON DELETE CASCADE
);

-- A welcome e-mail of a wave's account waits here while its supplier holds them
-- (hold_welcome_emails) and the wave is not approved: the delivery skips held rows.
ALTER TABLE email_outbox ADD COLUMN held_for_wave text;
