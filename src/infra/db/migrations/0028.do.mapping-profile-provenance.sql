-- Provenance of a process built from flat files (decision 0093): the mapping profile's name and
-- version that made its payload (task_params.mapping_profile), replaced on every re-schedule like
-- the wave. NULL: not sent with one. Both or neither.
ALTER TABLE import_processes
  ADD COLUMN mapping_profile text,
  ADD COLUMN mapping_profile_version integer,
  ADD CONSTRAINT import_processes_mapping_profile_whole
    CHECK ((mapping_profile IS NULL) = (mapping_profile_version IS NULL));
