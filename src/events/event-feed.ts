/**
 * The event feed (docs/decisions/0071-event-feed.md, migration 0019): what a supplier may hear
 * about, read in pages by a cursor. Every reader goes through readEvents: the JSON feed, the live
 * stream's one reader per process, webhook fan-out and `ferry events tail`.
 *
 * A cursor is `<xid>_<id>`: the writing transaction's id and the event's row id. A page returns
 * events after the cursor, ordered by (xid, id), and only those of transactions below the oldest
 * one still running when it was read: such a transaction has ended, so everything it wrote is
 * visible, and nothing can later appear below the cursor. An event's `id` is its cursor.
 */
import { type Queryable, sql } from '../infra/db/db.ts';
import type { FollowUpEvent, SupplierEvent } from '../vocabulary/event-types.ts';

/** One event as the feed, the stream and webhooks give it. */
export interface FeedEvent {
  /** Its cursor: resume after it with `after=<id>`. */
  id: string;
  type: string;
  occurred_at: string;
  import_supplier: string;
  external_account_number: string | null;
  data: Record<string, unknown>;
}

export interface Cursor {
  xid: string;
  id: string;
}

/** Before every event. */
export const FEED_START: Cursor = { xid: '0', id: '0' };

const CURSOR = /^(\d{1,20})_(\d{1,19})$/;

/** A cursor from its text, or null when it is not one. */
export function parseCursor(text: string): Cursor | null {
  const m = CURSOR.exec(text);
  if (!m) return null;
  // Both parts must fit their columns (xid8 is unsigned 64-bit, the id a signed bigint).
  if (BigInt(m[1]) > 0xffff_ffff_ffff_ffffn || BigInt(m[2]) > 0x7fff_ffff_ffff_ffffn) return null;
  return { xid: BigInt(m[1]).toString(), id: BigInt(m[2]).toString() };
}

export const cursorText = (c: Cursor): string => `${c.xid}_${c.id}`;

/** Most events in one page, and the page a reader gets when it names none. */
export const MAX_PAGE = 1_000;
export const DEFAULT_PAGE = 100;

/** An events row as feedColumns reads it. */
export interface EventRow {
  xid: string;
  id: string;
  type: string;
  occurred_at: string;
  import_supplier: string;
  external_account_number: string | null;
  data: Record<string, unknown>;
}

/**
 * The columns of events row `alias` that make a feed event (feedEventOf), each named `<prefix><column>`:
 * the feed's pages and the webhook sender's claim (which builds each delivery's body from its event,
 * decision 0106) read them alike, so a delivery's body is the feed's event byte for byte.
 */
export const feedColumns = (alias: string, prefix = '') =>
  `${alias}.xid::text AS ${prefix}xid, ${alias}.id::text AS ${prefix}id, ${alias}.type AS ${prefix}type,
   to_char(${alias}.occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS ${prefix}occurred_at,
   ${alias}.import_supplier AS ${prefix}import_supplier,
   ${alias}.external_account_number AS ${prefix}external_account_number, ${alias}.data AS ${prefix}data`;

/** The feed's event of an events row. */
export const feedEventOf = (r: EventRow): FeedEvent => ({
  id: cursorText(r),
  type: r.type,
  occurred_at: r.occurred_at,
  import_supplier: r.import_supplier,
  external_account_number: r.external_account_number,
  data: r.data,
});

// The horizon and the page in one snapshot. `$1` NULL reads every supplier's events.
const selectPage = sql(
  'selectEventPage',
  `WITH h AS (SELECT pg_snapshot_xmin(pg_current_snapshot()) AS horizon)
   SELECT ${feedColumns('e')}
     FROM h CROSS JOIN LATERAL (
       SELECT * FROM events e
        WHERE ($1::text IS NULL OR e.import_supplier = $1)
          AND (e.xid, e.id) > ($2::xid8, $3::bigint) AND e.xid < h.horizon
          AND ($5::text[] IS NULL OR e.type = ANY ($5::text[]))
        ORDER BY e.xid, e.id
        LIMIT $4) e`,
);

export interface EventPageQuery {
  /** One supplier's events; null reads every supplier's (webhooks, the live stream's reader). */
  supplier: string | null;
  after: Cursor;
  limit: number;
  /** Only these types; null for all. */
  types?: readonly string[] | null;
}

export interface EventPage {
  events: FeedEvent[];
  /** Where the next page starts: the last event's cursor, or `after` when the page is empty. */
  next: Cursor;
}

/** One page of the feed (see the module's comment for why nothing is ever skipped). */
export async function readEvents(db: Queryable, q: EventPageQuery): Promise<EventPage> {
  const { rows } = await db.query<EventRow>(selectPage, [
    q.supplier,
    q.after.xid,
    q.after.id,
    q.limit,
    q.types && q.types.length > 0 ? q.types : null,
  ]);
  const events = rows.map(feedEventOf);
  const last = rows.at(-1);
  return { events, next: last ? { xid: last.xid, id: last.id } : q.after };
}

const selectHorizon = sql(
  'selectEventHorizon',
  'SELECT pg_snapshot_xmin(pg_current_snapshot())::text AS horizon',
);

/**
 * The feed's end as it is now: a cursor after every event of a transaction that has ended. A
 * reader that starts here misses nothing written after it asked (`after=now`).
 */
export async function currentCursor(db: Queryable): Promise<Cursor> {
  const { rows } = await db.query<{ horizon: string }>(selectHorizon);
  return { xid: (BigInt(rows[0].horizon) - 1n).toString(), id: '9223372036854775807' };
}

const insertEvent = sql(
  'insertEvent',
  `INSERT INTO events (import_supplier, external_account_number, type, occurred_at, data)
   VALUES ($1, $2, $3, now(), $4)`,
);

/**
 * Writes a follow-up's event in the caller's transaction, so the event exists exactly when what it
 * tells of does.
 */
export async function recordAccountEvent(
  tx: Queryable,
  e: { supplier: string; externalAccountNumber: string; type: FollowUpEvent; data: Record<string, unknown> },
): Promise<void> {
  await tx.query(insertEvent, [e.supplier, e.externalAccountNumber, e.type, e.data]);
}

const insertSupplierEvent = sql(
  'insertSupplierEvent',
  `INSERT INTO import_supplier_events (import_supplier, event, occurred_at, data) VALUES ($1, $2, now(), $3)`,
);

/** Writes a supplier's own event (a wave approved or rolled back) in the caller's transaction. */
export async function recordSupplierEvent(
  tx: Queryable,
  e: { supplier: string; type: SupplierEvent; data: Record<string, unknown> },
): Promise<void> {
  await tx.query(insertSupplierEvent, [e.supplier, e.type, e.data]);
}
