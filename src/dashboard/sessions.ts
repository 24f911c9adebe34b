import { createHash, randomBytes } from 'node:crypto';
import { type Queryable, sql } from '../infra/db/db.ts';

/** The dashboard's session cookie: HttpOnly, SameSite=Strict, only sent to /dashboard/. */
export const SESSION_COOKIE = 'ferry_dashboard';
export const SESSION_TTL_MS = 12 * 3600e3;

export interface DashboardSession {
  csrfToken: string;
  /** The name the operator gave at sign-in (recorded on their acts, decision 0083); null: none. */
  operatorName: string | null;
}

const hashOf = (id: string) => createHash('sha256').update(id).digest('hex');

const insertSession = sql(
  'insertDashboardSession',
  'INSERT INTO dashboard_sessions (id_hash, csrf_token, expires_at, operator_name) VALUES ($1, $2, $3, $4)',
);
const deleteExpired = sql(
  'deleteExpiredDashboardSessions',
  'DELETE FROM dashboard_sessions WHERE expires_at <= now()',
);
const selectSession = sql(
  'selectDashboardSession',
  'SELECT csrf_token, operator_name FROM dashboard_sessions WHERE id_hash = $1 AND expires_at > now()',
);
const deleteSession = sql('deleteDashboardSession', 'DELETE FROM dashboard_sessions WHERE id_hash = $1');

/**
 * Opens a session after the operator key was checked: a 256-bit random id for the cookie (only
 * its hash is stored) and a CSRF token of the same strength. Expired sessions go at the same time.
 */
export async function openSession(
  db: Queryable,
  opts: { now?: number; operatorName?: string | null } = {},
): Promise<{ id: string; csrfToken: string }> {
  const now = opts.now ?? Date.now();
  const id = randomBytes(32).toString('base64url');
  const csrfToken = randomBytes(32).toString('base64url');
  await db.query(deleteExpired);
  await db.query(insertSession, [
    hashOf(id),
    csrfToken,
    new Date(now + SESSION_TTL_MS),
    opts.operatorName || null,
  ]);
  return { id, csrfToken };
}

/** The live session the cookie names, or null (unknown, expired or signed out). */
export async function findSession(db: Queryable, id: string | undefined): Promise<DashboardSession | null> {
  // A real id is 43 characters; anything much longer is not worth hashing.
  if (!id || id.length > 128) return null;
  const row = (
    await db.query<{ csrf_token: string; operator_name: string | null }>(selectSession, [hashOf(id)])
  ).rows[0];
  return row ? { csrfToken: row.csrf_token, operatorName: row.operator_name } : null;
}

export async function closeSession(db: Queryable, id: string | undefined): Promise<void> {
  if (id && id.length <= 128) await db.query(deleteSession, [hashOf(id)]);
}
