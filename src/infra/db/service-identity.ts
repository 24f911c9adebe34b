/**
 * The service's identity: a random identifier generated once, on the first start against a
 * database, and kept in it (service_secrets, beside the token secret). Every process sharing
 * the database answers the same one; another database (a staging server, a fresh one) answers
 * another. Not a secret: `ferry push` binds its report to it (docs/decisions/0080).
 */
import { randomUUID } from 'node:crypto';
import { type Queryable, sql } from './db.ts';

const insertServiceId = sql(
  'insertServiceId',
  "INSERT INTO service_secrets (name, value) VALUES ('service_id', $1) ON CONFLICT (name) DO NOTHING",
);
const selectServiceId = sql('selectServiceId', "SELECT value FROM service_secrets WHERE name = 'service_id'");

/** The database's service identifier, generated the first time it is asked for. */
export async function loadServiceId(db: Queryable): Promise<string> {
  await db.query(insertServiceId, [randomUUID()]);
  const { rows } = await db.query<{ value: string }>(selectServiceId);
  return rows[0].value;
}
