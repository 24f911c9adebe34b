-- Accounts refused when they were to be scheduled (V2 create, a bulk line, V1 create-or-update),
-- per supplier and code (decision 0065): such a refusal leaves no import process, so without this
-- the operator would never see it. A validation body counts once for each distinct item code.
CREATE TABLE schedule_refusals (
  import_supplier text NOT NULL REFERENCES import_suppliers (code),
  code text NOT NULL,
  refusals bigint NOT NULL,
  last_refused_at timestamptz NOT NULL,
  PRIMARY KEY (import_supplier, code)
);
