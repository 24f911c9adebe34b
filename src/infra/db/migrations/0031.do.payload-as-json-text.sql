-- An import process's payload is kept as JSON text (`json`), not as `jsonb`
-- (docs/decisions/0103-payload-as-json-text.md). On the account path nothing looks inside a
-- stored payload: the API writes it once, the worker reads it whole. As `jsonb` each payload was
-- converted to the binary form when scheduled and back to text when claimed, and the binary form
-- compresses worse (the realistic GB account: about 3,380 bytes stored against about 2,540).
-- The queries that do look inside (the catalogue's use count, the re-scheduling comparison)
-- convert where they look. This rewrites the table once.
ALTER TABLE import_processes ALTER COLUMN payload TYPE json USING payload::json;
