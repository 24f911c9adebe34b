import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { validationFailed } from '../errors/error-catalogue.ts';
import { item } from '../errors/error-items.ts';
import { type Db, sql } from '../infra/db/db.ts';

export interface ApiKeyRecord {
  id: string;
  name: string;
  import_suppliers: string[];
  created_at: Date;
  revoked_at: Date | null;
}

/** What a request authenticated by a key may touch: a list of supplier codes, or all ("*"). */
export interface ApiKeyScope {
  id: string;
  importSuppliers: string[];
}

export const canAccessSupplier = (scope: ApiKeyScope, supplier: string) =>
  scope.importSuppliers.includes('*') || scope.importSuppliers.includes(supplier);

// A key reads `ferry_<id>_<secret>`: the id finds the row, only a hash of the secret is kept.
const KEY_PATTERN = /^ferry_([0-9a-f]{16})_([A-Za-z0-9_-]{43})$/;

const hashSecret = (secret: string) => createHash('sha256').update(secret).digest('hex');

const insertKey = sql(
  'insertApiKey',
  `INSERT INTO api_keys (id, name, secret_hash, import_suppliers) VALUES ($1, $2, $3, $4)
   RETURNING id, name, import_suppliers, created_at, revoked_at`,
);
// Suppliers are never deleted, so a code found here still names a supplier when the key is inserted.
const selectUnknownSuppliers = sql(
  'selectUnknownImportSuppliers',
  `SELECT (u.n - 1)::int AS index, u.code FROM unnest($1::text[]) WITH ORDINALITY AS u(code, n)
    WHERE u.code <> '*' AND NOT EXISTS (SELECT 1 FROM import_suppliers s WHERE s.code = u.code)
    ORDER BY u.n`,
);
const selectKeys = sql(
  'selectApiKeys',
  'SELECT id, name, import_suppliers, created_at, revoked_at FROM api_keys ORDER BY created_at, id',
);
/** Every API process listens here and drops the key from its scope cache (see key-scopes.ts). */
export const KEY_REVOKED_CHANNEL = 'ferry_api_key_revoked';

const revokeKey = sql(
  'revokeApiKey',
  `WITH revoked AS (
     UPDATE api_keys SET revoked_at = coalesce(revoked_at, now()) WHERE id = $1 RETURNING id
   )
   SELECT id, pg_notify('${KEY_REVOKED_CHANNEL}', id) FROM revoked`,
);
const selectKeyForAuth = sql(
  'selectApiKeyForAuth',
  'SELECT id, secret_hash, import_suppliers FROM api_keys WHERE id = $1 AND revoked_at IS NULL',
);

/**
 * Issues a key for the given supplier codes (`*`: every supplier). A code that names no import
 * supplier is refused as a validation error at `import_suppliers.N`, N its place in the list given;
 * repeated codes are kept once.
 */
export async function createApiKey(
  db: Db,
  input: { name: string; importSuppliers: string[] },
): Promise<ApiKeyRecord & { key: string }> {
  const unknown = (
    await db.query<{ index: number; code: string }>(selectUnknownSuppliers, [input.importSuppliers])
  ).rows;
  if (unknown.length > 0) {
    throw validationFailed(
      'validation_error',
      unknown.map(({ index, code }) =>
        item(
          `import_suppliers.${index}`,
          'import_supplier_not_found',
          `No import supplier has the code "${code}".`,
        ),
      ),
    );
  }
  const id = randomBytes(8).toString('hex');
  const secret = randomBytes(32).toString('base64url');
  const { rows } = await db.query<ApiKeyRecord>(insertKey, [
    id,
    input.name,
    hashSecret(secret),
    [...new Set(input.importSuppliers)],
  ]);
  return { ...rows[0], key: `ferry_${id}_${secret}` };
}

export async function listApiKeys(db: Db): Promise<ApiKeyRecord[]> {
  return (await db.query<ApiKeyRecord>(selectKeys)).rows;
}

/** Returns false when no key has that id. Revoking twice is not an error. */
export async function revokeApiKey(db: Db, id: string): Promise<boolean> {
  return (await db.query(revokeKey, [id])).rowCount > 0;
}

/** The scope of an active key, or null. The hash comparison takes constant time. */
export async function verifyApiKey(db: Db, key: string): Promise<ApiKeyScope | null> {
  const m = KEY_PATTERN.exec(key);
  if (!m) return null;
  const { rows } = await db.query<{ id: string; secret_hash: string; import_suppliers: string[] }>(
    selectKeyForAuth,
    [m[1]],
  );
  const row = rows[0];
  const given = Buffer.from(hashSecret(m[2]), 'hex');
  const stored = Buffer.from(row?.secret_hash ?? '00'.repeat(32), 'hex');
  if (!timingSafeEqual(given, stored) || !row) return null;
  return { id: row.id, importSuppliers: row.import_suppliers };
}

/** The scope of a key that is still active, by id (tokens carry the id). */
export async function activeKeyScope(db: Db, id: string): Promise<ApiKeyScope | null> {
  const { rows } = await db.query<{ id: string; import_suppliers: string[] }>(selectKeyForAuth, [id]);
  return rows[0] ? { id: rows[0].id, importSuppliers: rows[0].import_suppliers } : null;
}
