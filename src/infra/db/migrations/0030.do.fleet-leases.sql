-- Fleet leases (docs/decisions/0102-fleet-leases.md): work that needs doing
-- once for all the processes on one database, not once per process, is done by the holder of a
-- named lease. A row per lease; a holder renews `until`, another process takes a lease that has
-- run out. Webhook fan-out is the first such work.
CREATE TABLE fleet_leases (
  name text PRIMARY KEY,
  holder text NOT NULL,
  until timestamptz NOT NULL
);
