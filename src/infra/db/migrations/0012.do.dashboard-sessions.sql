-- Operator sessions of the dashboard at /dashboard/ (docs/decisions/0045-dashboard-stack.md).
-- The cookie holds a random session id; only its SHA-256 (hex) is stored, so reading this table does
-- not let anyone sign in. Each session has its own CSRF token, checked on every form post. Kept
-- in the database (not process memory) so every API process behind a balancer knows a session.
CREATE TABLE dashboard_sessions (
  id_hash text PRIMARY KEY,
  csrf_token text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL
);
-- Expired sessions are deleted at each sign-in.
CREATE INDEX dashboard_sessions_expires_at ON dashboard_sessions (expires_at);
