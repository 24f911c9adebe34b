/**
 * Migration 0031 (decision 0103): a payload stored as jsonb becomes JSON text that holds the same
 * value, numbers digit for digit.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sql } from '../../src/infra/db/db.ts';
import { migrate } from '../../src/infra/db/migrate.ts';
import { parseLossless } from '../helpers/json-text.ts';
import { createTestDb } from '../helpers/test-db.ts';

const addSupplier = sql('', "INSERT INTO import_suppliers (code, document_root) VALUES ('OLD', 'old')");
const addProcess = sql(
  '',
  `INSERT INTO import_processes (import_supplier, external_account_number, status, payload, latest_event)
   VALUES ('OLD', 'EXT-1', 'PENDING', $1::jsonb, '{}')`,
);
const readPayload = sql(
  '',
  `SELECT payload::text AS text, pg_typeof(payload)::text AS type FROM import_processes
    WHERE external_account_number = 'EXT-1'`,
);

describe('migration 0031: the payload kept as JSON text', () => {
  it('keeps every value of a jsonb payload, numbers digit for digit', async () => {
    const t = await createTestDb({ migrateTo: 30 });
    try {
      await t.db.query(addSupplier);
      const text =
        '{"billing_name": "Zoë \\"Q\\" O\'Neil", "transfer_balance": 1234567890123456789.50, "ledgers": [{"ledger_balance": -0.10}], "empty": {}}';
      await t.db.query(addProcess, [text]);
      const before = (await t.db.query<{ text: string; type: string }>(readPayload)).rows[0];
      assert.equal(before.type, 'jsonb');
      await migrate(t.db);
      const after = (await t.db.query<{ text: string; type: string }>(readPayload)).rows[0];
      assert.equal(after.type, 'json');
      assert.deepEqual(parseLossless(after.text), parseLossless(text));
      assert.deepEqual(parseLossless(after.text), parseLossless(before.text));
    } finally {
      await t.cleanup();
    }
  });
});
