-- The transaction that took each reservation (decision 0067): each service process keeps a filter
-- of reserved identifiers in memory so that validate asks the database only about identifiers
-- that may be reserved, and keeps it current by reading the rows taken since its last read. A
-- transaction can commit after a later one, so the read goes by transaction id: rows of
-- transactions at or above the oldest one still running at the last read are read again.
ALTER TABLE identifier_reservations ADD COLUMN reserved_xid xid8 NOT NULL DEFAULT pg_current_xact_id();
CREATE INDEX identifier_reservations_reserved_xid ON identifier_reservations (reserved_xid);
