-- The operator's process lists and exports (GET /admin/v1/import-processes/): filtered by
-- supplier and status or by supplier and latest error code, walked in id order (keyset pages).
CREATE INDEX import_processes_supplier_status_id ON import_processes (import_supplier, status, id);
CREATE INDEX import_processes_supplier_error_code_id
  ON import_processes (import_supplier, (latest_error->>'code'), id) WHERE latest_error IS NOT NULL;
-- Accounts created per minute for a supplier's progress chart.
CREATE INDEX accounts_supplier_created_at ON accounts (import_supplier, created_at);
