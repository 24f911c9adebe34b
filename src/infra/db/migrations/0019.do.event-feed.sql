-- The event feed (docs/decisions/0071-event-feed.md): every event a supplier may hear about, in one
-- table, written in the transaction of the change it tells of.
--
-- Readers page through it by (xid, id): `xid` is the writing transaction's id, and a reader only
-- returns rows of transactions below the oldest one still running when it read
-- (pg_snapshot_xmin), so a transaction that commits after a later one is never passed over: its
-- rows are held back until it has ended, then read in their place.
CREATE TABLE events (
  id bigserial PRIMARY KEY,
  xid xid8 NOT NULL DEFAULT pg_current_xact_id(),
  import_supplier text NOT NULL,
  external_account_number text,
  import_process_id bigint,
  type text NOT NULL,
  occurred_at timestamptz NOT NULL,
  data jsonb NOT NULL DEFAULT '{}'
);
-- A supplier's feed, and every supplier's (webhook fan-out, the live stream's reader).
CREATE INDEX events_supplier_cursor ON events (import_supplier, xid, id);
CREATE INDEX events_cursor ON events (xid, id);

-- Process events: one statement trigger per statement that wrote import_process_events (a bulk
-- claim of 500 processes writes 500 events with one INSERT ... SELECT).
CREATE FUNCTION events_from_process_events() RETURNS trigger LANGUAGE plpgsql AS
$$ BEGIN
  INSERT INTO events (import_supplier, external_account_number, import_process_id, type, occurred_at, data)
  SELECT p.import_supplier, p.external_account_number, p.id, e.event, e.occurred_at,
         jsonb_strip_nulls(jsonb_build_object('import_process_id', p.id::text, 'status', p.status,
                                              'is_dry_run', p.is_dry_run, 'wave', p.wave,
                                              'service_identifier', CASE WHEN p.status = 'PROCESSED' THEN a.number END,
                                              'error', CASE WHEN p.status IN ('ERRORED', 'DRY_RUN_ERRORED')
                                                            THEN p.latest_error END))
    FROM new_events e JOIN import_processes p ON p.id = e.import_process_id
    LEFT JOIN accounts a ON a.id = p.account_id
   ORDER BY e.id;
  RETURN NULL;
END $$;
CREATE TRIGGER events_from_process_events AFTER INSERT ON import_process_events
  REFERENCING NEW TABLE AS new_events FOR EACH STATEMENT EXECUTE FUNCTION events_from_process_events();

-- Supplier events (automatic pause, status changes, waves approved or rolled back).
CREATE FUNCTION events_from_supplier_events() RETURNS trigger LANGUAGE plpgsql AS
$$ BEGIN
  INSERT INTO events (import_supplier, type, occurred_at, data)
  SELECT e.import_supplier, e.event, e.occurred_at, coalesce(e.data, '{}') FROM new_events e ORDER BY e.id;
  RETURN NULL;
END $$;
CREATE TRIGGER events_from_supplier_events AFTER INSERT ON import_supplier_events
  REFERENCING NEW TABLE AS new_events FOR EACH STATEMENT EXECUTE FUNCTION events_from_supplier_events();
