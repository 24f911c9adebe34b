-- The worker's once-a-second queue maintenance, without reading the whole table:
-- leases that expired, and PENDING processes whose schedule window closed.
CREATE INDEX import_processes_leased ON import_processes (locked_until) WHERE status = 'IN_PROGRESS';
CREATE INDEX import_processes_pending_end ON import_processes (schedule_window_end) WHERE status = 'PENDING';
