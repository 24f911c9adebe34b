-- Staged processes (POST /v1/data-import/account-import-process/create-or-update/): the account
-- data is kept, no worker picks it up, until POST .../process/ turns it into an account.
ALTER TABLE import_processes DROP CONSTRAINT import_processes_status_check;
ALTER TABLE import_processes ADD CONSTRAINT import_processes_status_check CHECK (
  status IN ('STAGED', 'PENDING', 'IN_PROGRESS', 'PROCESSED', 'CANCELLED', 'DRY_RUN_SUCCEEDED', 'ERRORED', 'DRY_RUN_ERRORED')
);
