-- An account's validated payload is kept once, on the import process that created it
-- (docs/decisions/0098-account-payload-kept-once.md). Until now account creation copied it onto
-- `accounts.payload` as well: the same bytes stored and logged twice (about 3.5 KB of WAL an
-- account). A process that has an account is never given another payload (the state table has no
-- way out of PROCESSED but a rollback, which deletes the account), so the copy adds nothing.
-- The copy is dropped only where it is exactly the process's payload: any account that differs
-- stops the migration, and nothing is lost.
DO $$
BEGIN
  IF EXISTS (
    SELECT 1 FROM accounts a LEFT JOIN import_processes p ON p.id = a.import_process_id
     WHERE a.payload <> '{}'::jsonb AND (p.id IS NULL OR p.payload IS DISTINCT FROM a.payload)
  ) THEN
    RAISE EXCEPTION 'accounts.payload differs from its import process''s payload for some account; not dropped';
  END IF;
END $$;
ALTER TABLE accounts DROP COLUMN payload;
