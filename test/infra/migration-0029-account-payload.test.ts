/**
 * Migration 0029 (decision 0098): the copy of an account's payload on `accounts` is dropped only
 * when it is exactly its process's payload; an account whose copy differs stops the migration and
 * keeps every byte.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sql } from '../../src/infra/db/db.ts';
import { migrate } from '../../src/infra/db/migrate.ts';
import { accountFor } from '../helpers/account-fixtures.ts';
import { createTestDb } from '../helpers/test-db.ts';

const addSupplier = sql('', "INSERT INTO import_suppliers (code, document_root) VALUES ('OLD', 'old')");
const addProcess = sql(
  '',
  `INSERT INTO import_processes (import_supplier, external_account_number, status, payload, latest_event)
   VALUES ('OLD', $1, 'PROCESSED', $2, '{}') RETURNING id`,
);
const addAccount = sql(
  '',
  `INSERT INTO accounts (number, import_supplier, external_account_number, import_process_id, payload)
   VALUES ($1, 'OLD', $2, $3, $4)`,
);
const hasColumn = sql(
  '',
  `SELECT count(*)::int AS n FROM information_schema.columns
    WHERE table_schema = current_schema() AND table_name = 'accounts' AND column_name = 'payload'`,
);

/** A database at migration 28 holding one imported account, its copy `copied` of the process's payload. */
async function withAccount(copied: (payload: Record<string, unknown>) => unknown) {
  const t = await createTestDb({ migrateTo: 28 });
  await t.db.query(addSupplier);
  const payload = accountFor('OLD', 1);
  const { id } = (await t.db.query<{ id: string }>(addProcess, ['EXT-1', payload])).rows[0];
  await t.db.query(addAccount, ['A-00000001', 'EXT-1', id, copied(payload)]);
  return t;
}

describe('migration 0029: the account payload kept once', () => {
  it('drops the copy when it is the process’s payload', async () => {
    const t = await withAccount((payload) => payload);
    try {
      await migrate(t.db);
      assert.equal((await t.db.query<{ n: number }>(hasColumn)).rows[0].n, 0);
    } finally {
      await t.cleanup();
    }
  });

  it('stops, changing nothing, when an account’s copy differs from its process’s payload', async () => {
    const t = await withAccount((payload) => ({ ...payload, billing_name: 'Changed since' }));
    try {
      await assert.rejects(migrate(t.db), /differs from its import process/);
      assert.equal((await t.db.query<{ n: number }>(hasColumn)).rows[0].n, 1);
    } finally {
      await t.cleanup();
    }
  });
});
