/**
 * The narrow database interface every feature uses: parameterised SQL only.
 * Two adapters implement it: PGlite (embedded, default) and `pg` (a PostgreSQL server).
 */
import pg from 'pg';

export interface QueryResult<R> {
  rows: R[];
  rowCount: number;
}

/**
 * A named statement: the name shows in logs and metrics, and on a PostgreSQL server it is
 * prepared once per connection. One name, one text. An empty name runs unprepared.
 */
export interface Sql {
  name: string;
  text: string;
  /**
   * Planned for its parameters at every call, never prepared: for a statement whose right plan
   * depends on how big a table is. A server keeps the generic plan of a prepared statement once
   * it seems no dearer than the custom ones, and one chosen while the table was small (a
   * sequential scan) stays until the table's statistics are next updated, which for a table no
   * loop of Ferry's analyses may be never (autovacuum off) (decision 0101).
   */
  planEachCall?: true;
  /**
   * Always given the generic plan on a PostgreSQL server, never one made for its parameters: for
   * a statement that reads its parameters only through `json_to_recordset`/`jsonb_to_recordset`,
   * whose row estimate is the same whatever they hold, so no custom plan can differ. Making one
   * copies the whole batch while planning (tens of milliseconds for 1,000 accounts), and a server
   * makes one for each of the first five calls on every connection (decision 0109). Costs two
   * more round trips a call: for statements that carry a whole batch. Not with planEachCall.
   */
  genericPlan?: true;
}

export interface Queryable {
  query<R = Record<string, unknown>>(sql: Sql, params?: unknown[]): Promise<QueryResult<R>>;
  /** Runs a multi-statement script without parameters (migrations, test setup). */
  exec(script: string): Promise<void>;
}

/** What a LISTEN subscriber is told: each payload, and whether delivery is guaranteed right now. */
export interface ListenHandlers {
  onMessage(payload: string): void;
  /**
   * false when the listening connection is lost (notifications may be missed from then on),
   * true once it listens again; called with true first, once the subscription is in place.
   */
  onLive(live: boolean): void;
}

export interface Db extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  /** Runs fn in one transaction; commits when it resolves, rolls back when it throws. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /**
   * LISTENs on a channel (NOTIFY is delivered at the notifying transaction's commit); the
   * returned function unsubscribes. A server connection that drops is re-opened.
   */
  listen(channel: string, handlers: ListenHandlers): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

export const sql = (name: string, text: string): Sql => ({ name, text });

/**
 * A string as an SQL literal (`pg`'s escapeLiteral: quotes doubled, and backslashes too in an E''
 * string), for the rare statement that must carry a value in its text (decision 0108).
 */
export const sqlLiteral: (value: string) => string = pg.escapeLiteral;

/** A statement planned at every call (Sql.planEachCall); its name still names it in tests and errors. */
export const sqlPlannedEachCall = (name: string, text: string): Sql => ({ name, text, planEachCall: true });

/** A statement always given its generic plan (Sql.genericPlan). */
export const sqlGenericPlan = (name: string, text: string): Sql => ({ name, text, genericPlan: true });

/** PostgreSQL error codes worth retrying: serialization failure, deadlock, cannot connect now. */
const TRANSIENT_CODES = new Set(['40001', '40P01', '57P03']);
/**
 * Codes and errno values that mean the database cannot serve us right now: the server is
 * unreachable, going down or out of connections, or it cancelled the statement (57014: the
 * statement timeout, or an operator's pg_cancel_backend; never about the data).
 */
const UNAVAILABLE_CODES = new Set([
  '57014',
  '57P01',
  '57P02',
  '57P03',
  '57P05',
  '53300',
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);
/** What node-postgres says when a connection is lost, cannot be had, or stops answering. */
const UNAVAILABLE_MESSAGE =
  /Connection terminated|connection timeout|timeout exceeded when trying to connect|Query read timeout|Client has encountered a connection error|the database system is (starting up|shutting down)/i;

function codeOf(err: unknown): string | undefined {
  if (err && typeof err === 'object' && 'code' in err) {
    const c = (err as { code: unknown }).code;
    return typeof c === 'string' ? c : undefined;
  }
  return undefined;
}

export function isTransientDbError(err: unknown): boolean {
  const c = codeOf(err);
  return c !== undefined && TRANSIENT_CODES.has(c);
}

/**
 * The database is unreachable, stalled or refusing work (docs/product.md, Database stalls):
 * lost connections (class 08, 57P0x, socket errors), a pool checkout timeout, a statement
 * timeout. Answered 503 `service_unavailable`; a worker retries later.
 */
export function isDbUnavailableError(err: unknown): boolean {
  const c = codeOf(err);
  if (c !== undefined && (UNAVAILABLE_CODES.has(c) || c.startsWith('08'))) return true;
  return err instanceof Error && UNAVAILABLE_MESSAGE.test(err.message);
}

/**
 * A failure that says nothing about the data, so the same work may succeed later: the database
 * unavailable, serialization failures and deadlocks past their retries, insufficient resources
 * (class 53), system errors (class 58), a lock not available (55P03). A worker never ends a
 * process ERRORED for one of these (docs/decisions/0024-database-faults.md).
 */
export function isTemporaryDbError(err: unknown): boolean {
  if (isDbUnavailableError(err) || isTransientDbError(err)) return true;
  const c = codeOf(err);
  return c !== undefined && (c.startsWith('53') || c.startsWith('58') || c === '55P03');
}

export function isUniqueViolation(err: unknown, constraint?: string): boolean {
  if (codeOf(err) !== '23505') return false;
  return constraint === undefined || (err as { constraint?: string }).constraint === constraint;
}

/**
 * Retries fn on serialization failures and deadlocks with jittered exponential backoff;
 * any other error, or the last attempt's error, is thrown as is.
 */
export async function withTransientRetry<T>(fn: () => Promise<T>, attempts = 5): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn();
    } catch (err) {
      if (attempt >= attempts || !isTransientDbError(err)) throw err;
      const base = 10 * 2 ** attempt;
      await new Promise((r) => setTimeout(r, base / 2 + Math.random() * base));
    }
  }
}
