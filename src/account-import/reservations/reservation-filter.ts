/**
 * Which identifiers may be reserved, kept in memory so that validate asks the database only about
 * those (decision 0067). Almost every account a supplier validates brings identifiers nobody
 * holds; without the filter each validate costs a database round trip to learn that.
 *
 * The filter is a Bloom filter of every reserved identifier: "certainly free" answers at once,
 * "maybe held" goes to the database, which gives the exact answer (a released identifier stays in
 * the filter until the next rebuild, and only costs that query). It is loaded in the background on
 * first use (until then every question goes to the database) and kept current by reading the
 * reservations taken since the last read, at most every REFRESH_MS, by transaction id
 * (migration 0015): a reservation committed by another process is seen within about REFRESH_MS.
 * What this process reserves is added before its transaction commits (`noteReserving`), so a
 * validate here never misses a schedule made here.
 */
import type { UniqueIdentifier } from '../../accounts/payload/unique-identifiers.ts';
import { BloomFilter } from '../../infra/bloom-filter.ts';
import { type Queryable, sql } from '../../infra/db/db.ts';

/** How stale the filter may be about other processes' reservations. */
export const REFRESH_MS = 250;
/** Past this age (refreshes failing) the filter is not trusted: every question goes to the database. */
const TRUSTED_MS = 10 * REFRESH_MS;
/** Keys the first filter holds before it is rebuilt larger. */
const FIRST_CAPACITY = 1 << 16;
const LOAD_PAGE = 20_000;

/** The oldest transaction still running, as a cursor: every transaction below it has ended. */
const selectHorizon = sql(
  'selectReservationHorizon',
  `SELECT pg_snapshot_xmin(pg_current_snapshot())::text AS horizon`,
);

/** One page of every reservation, in key order. */
const selectReservationPage = sql(
  'selectReservationPage',
  `SELECT kind, key FROM identifier_reservations
    WHERE (kind, key) > ($1, $2) ORDER BY kind, key LIMIT $3`,
);

/**
 * The reservations of transactions at or above $1, and the new horizon, in one snapshot: a
 * transaction below the horizon had ended when the snapshot was taken, so it is either visible now
 * or never will be; one at or above it is read again next time.
 */
const selectReservationsSince = sql(
  'selectReservationsSince',
  `WITH h AS (SELECT pg_snapshot_xmin(pg_current_snapshot()) AS horizon)
   SELECT h.horizon::text AS horizon, r.kind, r.key
     FROM h LEFT JOIN identifier_reservations r ON r.reserved_xid >= $1::xid8`,
);

const keyOf = (kind: string, key: string) => `${kind}\u0000${key}`;

/** The live filters of this process, which `noteReserving` tells of its reservations. */
const live = new Set<ReservationFilter>();

/**
 * Called with what a transaction of this process is about to reserve, before it commits: every
 * filter of this process adds it. Filters of other databases (tests run several) only gain a
 * false positive, which the database answers.
 */
export function noteReserving(identifiers: Iterable<{ kind: string; key: string }>): void {
  if (live.size === 0) return;
  for (const { kind, key } of identifiers) {
    for (const filter of live) filter.add(kind, key);
  }
}

type Loaded = { bloom: BloomFilter; horizon: string; readAt: number };

export class ReservationFilter {
  #loaded: Loaded | null = null;
  #busy: Promise<void> | null = null;
  /** Added while a load is in flight: replayed into the filter the load builds. */
  #pending: string[] | null = null;

  constructor(
    private readonly db: Queryable,
    private readonly onError: (err: unknown) => void,
  ) {
    live.add(this);
  }

  close(): void {
    live.delete(this);
  }

  add(kind: string, key: string): void {
    const k = keyOf(kind, key);
    this.#loaded?.bloom.add(k);
    this.#pending?.push(k);
  }

  /**
   * False when none of `identifiers` can be reserved (no query needed); true when one may be, or
   * while the filter is not loaded yet (or has failed to refresh for TRUSTED_MS). Starts a refresh when the filter is older than REFRESH_MS.
   */
  mayHoldAny(identifiers: UniqueIdentifier[]): boolean {
    if (identifiers.length === 0) return false;
    const loaded = this.#loaded;
    if (!this.#busy && (!loaded || Date.now() - loaded.readAt >= REFRESH_MS)) this.#start();
    if (!loaded || Date.now() - loaded.readAt >= TRUSTED_MS) return true;
    return identifiers.some((i) => loaded.bloom.mightHave(keyOf(i.kind, i.key)));
  }

  /** Reads what was reserved since the last read (or loads the filter) now, and waits for it. */
  async refresh(): Promise<void> {
    await this.#busy;
    this.#start();
    await this.#busy;
  }

  #start(): void {
    const loaded = this.#loaded;
    const rebuild = !loaded || loaded.bloom.added > loaded.bloom.capacity;
    this.#busy = (rebuild ? this.#load(loaded?.bloom.capacity) : this.#refresh(loaded))
      .catch(this.onError)
      .finally(() => {
        this.#busy = null;
        this.#pending = null;
      });
  }

  /** Reads every reservation into a new filter, twice the size needed, then replays what came meanwhile. */
  async #load(previousCapacity = FIRST_CAPACITY / 2): Promise<void> {
    const pending: string[] = [];
    this.#pending = pending;
    const started = Date.now();
    const { rows: at } = await this.db.query<{ horizon: string }>(selectHorizon);
    const keys: string[] = [];
    let after = ['', ''];
    for (;;) {
      const { rows } = await this.db.query<{ kind: string; key: string }>(selectReservationPage, [
        ...after,
        LOAD_PAGE,
      ]);
      for (const r of rows) keys.push(keyOf(r.kind, r.key));
      if (rows.length < LOAD_PAGE) break;
      const last = rows[rows.length - 1];
      after = [last.kind, last.key];
    }
    const bloom = new BloomFilter(Math.max(previousCapacity * 2, keys.length * 2));
    for (const k of keys) bloom.add(k);
    for (const k of pending) bloom.add(k);
    this.#loaded = { bloom, horizon: at[0].horizon, readAt: started };
  }

  async #refresh(loaded: Loaded): Promise<void> {
    const started = Date.now();
    const { rows } = await this.db.query<{ horizon: string; kind: string | null; key: string | null }>(
      selectReservationsSince,
      [loaded.horizon],
    );
    for (const r of rows) if (r.kind !== null && r.key !== null) loaded.bloom.add(keyOf(r.kind, r.key));
    loaded.horizon = rows[0].horizon;
    loaded.readAt = started;
  }
}
