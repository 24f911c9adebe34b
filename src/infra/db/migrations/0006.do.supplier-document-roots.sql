-- Every supplier has a document root of its own (PRODUCT §6 "Documents"). An empty root meant
-- the whole document store: that supplier could attach any other supplier's documents.
-- A supplier without a root gets its code in lower case; should that overlap a root already in
-- use (folder by folder, ignoring case, as a case-insensitive file system would), a numbered
-- suffix is added (`acme-2`). Overlaps between roots set earlier by the operator are left as
-- they are (the admin API refuses new ones); docs/decisions explains how to find them.
DO $$
DECLARE
  s record;
  candidate text;
  n int;
BEGIN
  FOR s IN SELECT code FROM import_suppliers WHERE document_root = '' ORDER BY code LOOP
    candidate := lower(s.code);
    n := 1;
    WHILE EXISTS (
      SELECT 1 FROM import_suppliers o
       WHERE o.document_root <> ''
         AND (starts_with(lower(o.document_root) || '/', candidate || '/')
              OR starts_with(candidate || '/', lower(o.document_root) || '/'))
    ) LOOP
      n := n + 1;
      candidate := lower(s.code) || '-' || n;
    END LOOP;
    UPDATE import_suppliers SET document_root = candidate, modified_at = now() WHERE code = s.code;
  END LOOP;
END $$;

-- The normalised form the admin API stores: folders separated by single `/`, no `.` or `..`.
ALTER TABLE import_suppliers
  ALTER COLUMN document_root DROP DEFAULT,
  ADD CONSTRAINT import_suppliers_document_root_check CHECK (
    document_root ~ '^[A-Za-z0-9._-]+(/[A-Za-z0-9._-]+)*$'
    AND document_root !~ '(^|/)\.\.?(/|$)'
  );
