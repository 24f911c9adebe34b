-- Limits that hold for the whole fleet of API processes (docs/decisions/0074-fleet-wide-limits.md).

-- The per-key rate limit's shared token bucket, one row per key, refilled by elapsed time on the
-- server's clock. Processes take tokens from it in chunks (rate_limit_claim) and spend them in
-- memory, so a request costs no statement. The row is rewritten at every claim (tens a second
-- for a key at its limit): no indexed column changes, and the free space left on each page
-- keeps those updates HOT.
CREATE TABLE rate_limit_buckets (
  key text PRIMARY KEY,
  tokens double precision NOT NULL,
  refilled_at timestamptz NOT NULL
) WITH (fillfactor = 50);

-- Refills the key's bucket (capped at p_burst), grants up to p_wanted whole tokens and takes them
-- out, under the row's lock: concurrent claims of one key run one after the other, each seeing
-- what the one before left. The clock is read once the lock is held, so refilled_at only moves
-- forward. wait_ms: how long until p_wanted tokens are there again, if nobody else takes any.
-- A new key's bucket starts full.
CREATE FUNCTION rate_limit_claim(
  p_key text,
  p_rate double precision,
  p_burst double precision,
  p_wanted integer,
  OUT granted integer,
  OUT wait_ms double precision
) LANGUAGE plpgsql AS $$
DECLARE
  b rate_limit_buckets%ROWTYPE;
  t timestamptz;
  level double precision;
BEGIN
  SELECT * INTO b FROM rate_limit_buckets WHERE key = p_key FOR UPDATE;
  IF NOT FOUND THEN
    INSERT INTO rate_limit_buckets (key, tokens, refilled_at) VALUES (p_key, p_burst, clock_timestamp())
      ON CONFLICT (key) DO NOTHING;
    SELECT * INTO b FROM rate_limit_buckets WHERE key = p_key FOR UPDATE;
  END IF;
  t := greatest(clock_timestamp(), b.refilled_at);
  level := least(p_burst, b.tokens + p_rate * extract(epoch FROM t - b.refilled_at)::double precision);
  granted := greatest(0, least(p_wanted, floor(level)))::integer;
  level := level - granted;
  UPDATE rate_limit_buckets SET tokens = level, refilled_at = t WHERE key = p_key;
  wait_ms := greatest(0, p_wanted - level) / p_rate * 1000;
END
$$;

-- Failed credential checks (a wrong API key, refresh token or operator key), one row each, by
-- client address and the server's clock. A check counts an address's rows of the last window;
-- recording one deletes that address's expired rows, and a bounded purge of everyone's expired
-- rows runs now and then, so the table holds about one window's failures.
CREATE TABLE credential_failures (
  address text NOT NULL,
  failed_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX credential_failures_address ON credential_failures (address, failed_at);
CREATE INDEX credential_failures_failed_at ON credential_failures (failed_at);
