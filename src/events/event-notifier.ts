/**
 * Wakes the hubs of every process (event-hub.ts) soon after events were committed, without
 * slowing the writers: PostgreSQL serialises the commits of transactions that NOTIFY, so no
 * writing transaction does. Instead, once a write has committed, its process calls poke(), and
 * at most one `NOTIFY ferry_events` per interval goes out on its own, outside any transaction.
 * A hub that is never woken still reads every 100 ms: a notification only cuts the latency.
 * The same coalescing tells the workers that accounts were scheduled, on a channel of their own.
 */
import { type Queryable, type Sql, sql } from '../infra/db/db.ts';
import { EVENTS_CHANNEL } from './event-hub.ts';

/** At most one NOTIFY per process in this long. */
export const NOTIFY_INTERVAL_MS = 50;

export class EventNotifier {
  readonly #statement: Sql;
  #lastAt = 0;
  #timer: NodeJS.Timeout | null = null;
  #closed = false;

  constructor(
    private readonly db: Queryable,
    private readonly intervalMs = NOTIFY_INTERVAL_MS,
    /** The event feed's unless said (the workers' import queue has its own, due-notice.ts). */
    channel = EVENTS_CHANNEL,
  ) {
    this.#statement = sql(`notify_${channel}`, `NOTIFY ${channel}`);
  }

  /** Events were committed: the hubs hear of it now, or at the end of the current interval. */
  poke(): void {
    if (this.#closed || this.#timer) return;
    const wait = this.#lastAt + this.intervalMs - Date.now();
    if (wait <= 0) {
      this.#notify();
      return;
    }
    this.#timer = setTimeout(() => {
      this.#timer = null;
      this.#notify();
    }, wait);
    this.#timer.unref();
  }

  close(): void {
    this.#closed = true;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
  }

  #notify(): void {
    if (this.#closed) return;
    this.#lastAt = Date.now();
    // Only a hint: a failed NOTIFY leaves the hubs to their polling.
    this.db.query(this.#statement).catch(() => {});
  }
}
