-- The counts behind /metrics' migration families (docs/decisions/0044-migration-metrics.md),
-- kept by the database so that every process (the API, any `ferry worker`) reads the same
-- numbers, and a scrape never counts import_processes.
--
-- Per supplier, state and error code (the latest error's code in ERRORED and DRY_RUN_ERRORED,
-- '' in every other state): `processes` in that state now, and `entered`, how many times a
-- process moved into it (never decreases: accounts created are PROCESSED entries, errors the
-- ERRORED and DRY_RUN_ERRORED ones).
CREATE TABLE import_process_tallies (
  import_supplier text NOT NULL,
  status text NOT NULL,
  error_code text NOT NULL,
  processes bigint NOT NULL,
  entered bigint NOT NULL,
  PRIMARY KEY (import_supplier, status, error_code)
);

-- What statements changed, appended by the triggers below. Append-only, so that concurrent
-- writers (requests staging accounts, workers finishing batches) never wait on one another for a
-- counter row; the worker folds the rows into import_process_tallies every few seconds.
CREATE TABLE import_process_tally_changes (
  import_supplier text NOT NULL,
  status text NOT NULL,
  error_code text NOT NULL,
  processes bigint NOT NULL,
  entered bigint NOT NULL
);

-- A process's error code as tallied.
CREATE FUNCTION import_process_tally_code(status text, latest_error jsonb) RETURNS text
  LANGUAGE sql IMMUTABLE AS
$$ SELECT CASE WHEN status IN ('ERRORED', 'DRY_RUN_ERRORED') THEN coalesce(latest_error->>'code', '') ELSE '' END $$;

INSERT INTO import_process_tallies (import_supplier, status, error_code, processes, entered)
SELECT import_supplier, status, import_process_tally_code(status, latest_error), count(*), count(*)
  FROM import_processes
 GROUP BY 1, 2, 3;

-- One row per (supplier, state, code) a statement changed, however many processes it touched:
-- statement triggers over the statement's transition tables. An update moves a process when it
-- changes its state or error code or writes an event (latest_event): every transition of the
-- state table does; lease and payload updates do not.
CREATE FUNCTION import_process_tallies_on_insert() RETURNS trigger LANGUAGE plpgsql AS
$$ BEGIN
  INSERT INTO import_process_tally_changes
  SELECT import_supplier, status, import_process_tally_code(status, latest_error), count(*), count(*)
    FROM new_rows GROUP BY 1, 2, 3;
  RETURN NULL;
END $$;

CREATE FUNCTION import_process_tallies_on_update() RETURNS trigger LANGUAGE plpgsql AS
$$ BEGIN
  INSERT INTO import_process_tally_changes
  SELECT v.import_supplier, v.status, v.error_code, sum(v.processes), sum(v.entered)
    FROM old_rows o
    JOIN new_rows n ON n.id = o.id
   CROSS JOIN LATERAL (VALUES
           (o.import_supplier, o.status, import_process_tally_code(o.status, o.latest_error), -1, 0),
           (n.import_supplier, n.status, import_process_tally_code(n.status, n.latest_error), 1, 1)
         ) AS v(import_supplier, status, error_code, processes, entered)
   WHERE o.status <> n.status OR o.latest_event IS DISTINCT FROM n.latest_event
      OR o.latest_error IS DISTINCT FROM n.latest_error
   GROUP BY 1, 2, 3
  HAVING sum(v.processes) <> 0 OR sum(v.entered) <> 0;
  RETURN NULL;
END $$;

CREATE FUNCTION import_process_tallies_on_delete() RETURNS trigger LANGUAGE plpgsql AS
$$ BEGIN
  INSERT INTO import_process_tally_changes
  SELECT import_supplier, status, import_process_tally_code(status, latest_error), -count(*), 0
    FROM old_rows GROUP BY 1, 2, 3;
  RETURN NULL;
END $$;

CREATE TRIGGER import_process_tallies_insert AFTER INSERT ON import_processes
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION import_process_tallies_on_insert();
CREATE TRIGGER import_process_tallies_update AFTER UPDATE ON import_processes
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION import_process_tallies_on_update();
CREATE TRIGGER import_process_tallies_delete AFTER DELETE ON import_processes
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION import_process_tallies_on_delete();
