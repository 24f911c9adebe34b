-- Automatic pause (docs/decisions/0068-automatic-pause.md). A supplier's finished processes,
-- latest first: the worker reads the last `window` of them after each round to see what share
-- ERRORED, an index range scan of `window` entries.
CREATE INDEX import_processes_supplier_finished ON import_processes (import_supplier, modified_at)
  WHERE status IN ('PROCESSED', 'ERRORED');

-- The automatic pause the supplier is in, for the dashboard's banner: when, the window, how many of
-- it ERRORED, the top error codes. Set with the pause; cleared when the operator resumes.
ALTER TABLE import_suppliers ADD COLUMN automatic_pause jsonb;

-- What happened to a supplier as a whole, oldest first: for now the automatic pauses
-- (EVENT_SUPPLIER_PAUSED with the reason and the top error codes).
CREATE TABLE import_supplier_events (
  id bigserial PRIMARY KEY,
  import_supplier text NOT NULL REFERENCES import_suppliers (code),
  event text NOT NULL,
  occurred_at timestamptz NOT NULL DEFAULT now(),
  data jsonb
);
CREATE INDEX import_supplier_events_supplier ON import_supplier_events (import_supplier, id);
