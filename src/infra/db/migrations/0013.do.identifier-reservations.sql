-- Identifiers no two accounts may share, reserved by the import process that brings them when it
-- is scheduled (docs/decisions/0064-identifier-reservations.md): meter point identifiers,
-- account references (`namespace=value`) and debt CAIS references. The primary key makes
-- concurrent schedules of one identifier exclusive: one commits, the others fail and are refused.
-- A process holds its reservations until it is cancelled (the trigger below) or re-scheduled
-- (its reservations are replaced); a PROCESSED process's reservations stand for its account.
-- Dry runs reserve nothing.
CREATE TABLE identifier_reservations (
  kind text NOT NULL CHECK (kind IN ('meter_point', 'reference', 'cais_reference')),
  key text NOT NULL,
  import_process_id bigint NOT NULL REFERENCES import_processes (id) ON DELETE CASCADE,
  -- Where the process's payload gives it, e.g. supply_addresses.0.meter_points.1.identifier.
  attr text NOT NULL,
  PRIMARY KEY (kind, key)
);
CREATE INDEX identifier_reservations_process ON identifier_reservations (import_process_id);

-- Cancelling a process, by whatever path, releases what it reserved.
CREATE FUNCTION release_identifier_reservations() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM identifier_reservations WHERE import_process_id = NEW.id;
  RETURN NULL;
END
$$;
CREATE TRIGGER import_processes_release_reservations
  AFTER UPDATE OF status ON import_processes
  FOR EACH ROW WHEN (NEW.status = 'CANCELLED' AND OLD.status IS DISTINCT FROM 'CANCELLED')
  EXECUTE FUNCTION release_identifier_reservations();

-- The processes that exist today reserve what their payloads bring: those with an account first,
-- then in the order they were created, so that of two holding one identifier the account keeps it.
INSERT INTO identifier_reservations (kind, key, import_process_id, attr)
SELECT found.kind, found.key, found.id, found.attr
  FROM (
    SELECT p.id, p.account_id, 'meter_point' AS kind, mp.value->>'identifier' AS key,
           format('supply_addresses.%s.meter_points.%s.identifier', sa.i - 1, mp.j - 1) AS attr, 1 AS part,
           sa.i AS i, mp.j AS j
      FROM import_processes p,
           jsonb_array_elements(CASE WHEN jsonb_typeof(p.payload->'supply_addresses') = 'array'
                                     THEN p.payload->'supply_addresses' ELSE '[]' END) WITH ORDINALITY AS sa(value, i),
           jsonb_array_elements(CASE WHEN jsonb_typeof(sa.value->'meter_points') = 'array'
                                     THEN sa.value->'meter_points' ELSE '[]' END) WITH ORDINALITY AS mp(value, j)
     WHERE p.status <> 'CANCELLED' AND NOT p.is_dry_run
    UNION ALL
    SELECT p.id, p.account_id, 'reference', (r.value->>'namespace') || '=' || (r.value->>'value'),
           format('references.%s.value', r.i - 1), 2, r.i, 0
      FROM import_processes p,
           jsonb_array_elements(CASE WHEN jsonb_typeof(p.payload->'references') = 'array'
                                     THEN p.payload->'references' ELSE '[]' END) WITH ORDINALITY AS r(value, i)
     WHERE p.status <> 'CANCELLED' AND NOT p.is_dry_run
       AND btrim(r.value->>'namespace') <> '' AND btrim(r.value->>'value') <> ''
       AND strpos(r.value->>'namespace', '=') = 0
    UNION ALL
    SELECT p.id, p.account_id, 'cais_reference', p.payload->'debt'->>'cais_reference', 'debt.cais_reference', 3, 0, 0
      FROM import_processes p
     WHERE p.status <> 'CANCELLED' AND NOT p.is_dry_run AND jsonb_typeof(p.payload->'debt') = 'object'
    UNION ALL
    SELECT p.id, p.account_id, 'cais_reference', d.value->>'cais_reference', format('debts.%s.cais_reference', d.i - 1), 4, d.i, 0
      FROM import_processes p,
           jsonb_array_elements(CASE WHEN jsonb_typeof(p.payload->'debts') = 'array'
                                     THEN p.payload->'debts' ELSE '[]' END) WITH ORDINALITY AS d(value, i)
     WHERE p.status <> 'CANCELLED' AND NOT p.is_dry_run
  ) AS found
 WHERE btrim(coalesce(found.key, '')) <> ''
 ORDER BY found.account_id IS NULL, found.id, found.part, found.i, found.j
ON CONFLICT DO NOTHING;
