/**
 * Identifier reservations (migration 0013, decision 0064): which import process holds each
 * identifier no two accounts may share, the conflicts a schedule would meet, and the reservations
 * a scheduled process takes.
 */
import {
  CONFLICT_CODES,
  KIND_NAMES,
  type ReservationRequest,
  type UniqueIdentifier,
  uniqueIdentifiersOf,
} from '../../accounts/payload/unique-identifiers.ts';
import { type ErrorItem, item } from '../../errors/error-items.ts';
import { batcher } from '../../infra/batcher.ts';
import { isUniqueViolation, type Queryable, sql, sqlPlannedEachCall } from '../../infra/db/db.ts';
import { noteReserving, type ReservationFilter } from './reservation-filter.ts';

/** Who holds an identifier: the process (and its account, once created). */
interface Holder {
  supplier: string;
  external: string;
  accountNumber: string | null;
}

/** The reserved identifiers among $1, with their holders. */
// Planned at every call (decision 0101), as a generic plan made while the tables were small scans them whole.
const selectHolders = sqlPlannedEachCall(
  'selectIdentifierHolders',
  `SELECT r.kind, r.key, p.import_supplier, p.external_account_number, a.number AS account_number
     FROM identifier_reservations r
     JOIN import_processes p ON p.id = r.import_process_id
     LEFT JOIN accounts a ON a.id = p.account_id
    WHERE (r.kind, r.key) IN (SELECT * FROM unnest($1::text[], $2::text[]))`,
);

/**
 * Replaces what processes $5 reserve with the rows ($1 kinds, $2 keys, $3 processes, $4 attrs), in
 * one statement: what a process no longer brings is released, what it keeps or newly brings is
 * (re)taken. The two touch different rows. An identifier another process holds is neither taken
 * nor an error: it is missing from the rows returned, which the caller counts.
 */
const replaceReservationRows = sql(
  'replaceIdentifierReservations',
  `WITH wanted AS (
     SELECT * FROM unnest($1::text[], $2::text[], $3::bigint[], $4::text[]) AS w(kind, key, import_process_id, attr)
   ), released AS (
     DELETE FROM identifier_reservations r
      WHERE r.import_process_id = ANY($5::bigint[])
        AND NOT EXISTS (SELECT 1 FROM wanted w WHERE w.kind = r.kind AND w.key = r.key
                                                 AND w.import_process_id = r.import_process_id)
   )
   INSERT INTO identifier_reservations AS r (kind, key, import_process_id, attr)
   SELECT kind, key, import_process_id, attr FROM wanted
   ON CONFLICT (kind, key) DO UPDATE SET attr = EXCLUDED.attr
    WHERE r.import_process_id = EXCLUDED.import_process_id
   RETURNING 1`,
);

/** A reservation another process took between the check and the write: check again. */
export class ReservationTaken extends Error {
  constructor() {
    super('an identifier was reserved by another import process meanwhile');
  }
}

const slot = (kind: string, key: string) => `${kind}\u0000${key}`;

/** Who holds each of `identifiers` that is reserved, by slot. */
async function readHolders(q: Queryable, identifiers: UniqueIdentifier[]): Promise<Map<string, Holder>> {
  const held = new Map<string, Holder>();
  if (identifiers.length === 0) return held;
  const { rows } = await q.query<{
    kind: string;
    key: string;
    import_supplier: string;
    external_account_number: string;
    account_number: string | null;
  }>(selectHolders, [identifiers.map((i) => i.kind), identifiers.map((i) => i.key)]);
  for (const row of rows) {
    held.set(slot(row.kind, row.key), {
      supplier: row.import_supplier,
      external: row.external_account_number,
      accountNumber: row.account_number,
    });
  }
  return held;
}

/** The detail of a conflict: names the holder within the asking supplier's tenancy only. */
function conflictDetail(
  identifier: UniqueIdentifier,
  holder: Holder,
  supplier: string | null,
  scheduledHere = false,
): string {
  const what = `${KIND_NAMES[identifier.kind]} ${identifier.key.replace('=', ' = ')}`;
  if (holder.supplier !== supplier) return `${what} is already held by another supplier's account.`;
  if (holder.accountNumber !== null)
    return `${what} is already on account ${holder.accountNumber} (external account number ${holder.external}).`;
  const when = scheduledHere ? 'earlier in this request' : 'already';
  return `${what} is ${when} brought by external account number ${holder.external} (not imported yet).`;
}

const isSelf = (holder: Holder, request: ReservationRequest) =>
  holder.supplier === request.supplier && holder.external === request.external;

/**
 * The conflicts of each request: an identifier reserved by another process (of any supplier),
 * and, with `inOrder`, one an earlier request of the list brings (the first one wins, as if they
 * were scheduled one after the other). A process's own reservations are no conflict: scheduling
 * it again replaces them. Read-only. With `mayBeHeld`, a request it answers false for is taken to
 * meet no holder without asking (its conflicts with earlier requests of the list still count).
 */
export async function findConflicts(
  q: Queryable,
  requests: ReservationRequest[],
  { inOrder, mayBeHeld }: { inOrder: boolean; mayBeHeld?: (request: ReservationRequest) => boolean },
): Promise<ErrorItem[][]> {
  // `mayBeHeld`: the database is asked only about requests it says may meet a holder (decision 0097).
  const asked = mayBeHeld ? requests.filter(mayBeHeld) : requests;
  const held = await readHolders(
    q,
    asked.flatMap((r) => r.identifiers),
  );
  const claimed = new Map<string, Holder>();
  return requests.map((request) => {
    const items: ErrorItem[] = [];
    for (const identifier of request.identifiers) {
      const at = slot(identifier.kind, identifier.key);
      const holder = held.get(at);
      const earlier = claimed.get(at);
      if (holder && !isSelf(holder, request)) {
        items.push(
          item(
            identifier.attr,
            CONFLICT_CODES[identifier.kind],
            conflictDetail(identifier, holder, request.supplier),
          ),
        );
      } else if (earlier && !isSelf(earlier, request)) {
        items.push(
          item(
            identifier.attr,
            CONFLICT_CODES[identifier.kind],
            conflictDetail(identifier, earlier, request.supplier, true),
          ),
        );
      }
    }
    if (inOrder && items.length === 0 && request.supplier !== null && request.external !== null) {
      const self = { supplier: request.supplier, external: request.external, accountNumber: null };
      for (const identifier of request.identifiers) {
        const at = slot(identifier.kind, identifier.key);
        if (!claimed.has(at)) claimed.set(at, self);
      }
    }
    return items;
  });
}

/** The columns of reservations for processes, as insertReservations takes them. */
function reservationColumns(rows: { processId: string; identifiers: UniqueIdentifier[] }[]) {
  const all = rows.flatMap(({ processId, identifiers }) => identifiers.map((i) => ({ ...i, processId })));
  return [all.map((r) => r.kind), all.map((r) => r.key), all.map((r) => r.processId), all.map((r) => r.attr)];
}

/**
 * Replaces what each process reserves (none for a dry run: pass no identifiers). Throws
 * ReservationTaken when another process holds one: the caller's transaction must be rolled back,
 * and the conflict is then found by findConflicts.
 */
export async function replaceReservations(
  tx: Queryable,
  rows: { processId: string; identifiers: UniqueIdentifier[] }[],
): Promise<void> {
  if (rows.length === 0) return;
  noteReserving(rows.flatMap((r) => r.identifiers));
  const columns = reservationColumns(rows);
  const taken = await tx.query(replaceReservationRows, [...columns, rows.map((r) => r.processId)]);
  if (taken.rowCount !== columns[0].length) throw new ReservationTaken();
}

/** A reservation another process took first, between the check and the write. */
export const isReservationTaken = (err: unknown) =>
  err instanceof ReservationTaken || isUniqueViolation(err, 'identifier_reservations_pkey');

/** Tries `fn` again when a concurrent schedule took a reservation first (it checks again, and refuses). */
export async function retryReservationRaces<T>(fn: () => Promise<T>, attempts = 4): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn();
    } catch (err) {
      if (!isReservationTaken(err) || attempt >= attempts) throw err;
    }
  }
}

/** The reservations a process holds, for the operator's process page. */
export const selectProcessReservations = sql(
  'selectProcessReservations',
  `SELECT r.kind, r.key, r.attr
     FROM identifier_reservations r
    WHERE r.import_process_id = $1
    ORDER BY r.attr`,
);

/**
 * Validate's conflicts, read-only: an account whose identifiers the filter says are certainly
 * free asks nothing (decision 0067); the others share one query (group commit's batcher).
 */
export function conflictReader(
  db: Queryable,
  filter: ReservationFilter,
): (request: ReservationRequest) => Promise<ErrorItem[]> {
  const read = batcher(
    async (requests: ReservationRequest[]) =>
      (await findConflicts(db, requests, { inOrder: false })).map((value) => ({
        status: 'fulfilled' as const,
        value,
      })),
    { maxBatch: 256, maxInFlight: 2 },
  );
  return async (request) => (filter.mayHoldAny(request.identifiers) ? read(request) : []);
}

/** Who holds an identifier a process brings, as its operator may see it. */
export type Holding =
  | { held: 'self' }
  | { held: 'free' }
  | { held: 'other_supplier' }
  | { held: 'same_supplier'; external: string; accountNumber: string | null };

/**
 * The identifiers a process's payload brings, each with who holds it: the process itself, nobody
 * (a cancelled process or a dry run reserves nothing), another process of its supplier (named),
 * or another supplier's (not named). For the operator's process page.
 */
export async function identifierHoldings(
  q: Queryable,
  process: { supplier: string; external: string; payload: unknown },
): Promise<(UniqueIdentifier & Holding)[]> {
  const identifiers = uniqueIdentifiersOf(process.payload);
  const holders = await readHolders(q, identifiers);
  return identifiers.map((identifier): UniqueIdentifier & Holding => {
    const h = holders.get(slot(identifier.kind, identifier.key));
    if (!h) return { ...identifier, held: 'free' };
    if (h.supplier !== process.supplier) return { ...identifier, held: 'other_supplier' };
    if (h.external === process.external) return { ...identifier, held: 'self' };
    return { ...identifier, held: 'same_supplier', external: h.external, accountNumber: h.accountNumber };
  });
}
