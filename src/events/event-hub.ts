/**
 * The live stream's one reader per process (docs/decisions/0073-live-event-stream.md): however
 * many clients follow the feed as server-sent events, the process LISTENs once on
 * EVENTS_CHANNEL and reads every supplier's events once, and hands each client the events of its
 * supplier and types. A notification only wakes the reader: writers never notify in their own
 * transactions, so the reader also reads every `pollMs` while it has subscribers. With none it
 * does nothing at all (no LISTEN, no reads).
 *
 * A subscriber hears, in cursor order, every event after the cursor subscribe() answered, and
 * maybe a few before it (the caller drops those by cursor); event-stream.ts hands a client
 * over from its own catch-up to the hub on that promise.
 */
import type { Db } from '../infra/db/db.ts';
import { type Cursor, currentCursor, type FeedEvent, MAX_PAGE, readEvents } from './event-feed.ts';

/** The channel a coalesced NOTIFY wakes every process's hub on (event-notifier.ts). */
export const EVENTS_CHANNEL = 'ferry_events';

/** A client of the hub: one live stream. */
export interface HubSubscriber {
  readonly supplier: string;
  /** Only these types; null for all. */
  readonly types: ReadonlySet<string> | null;
  /** Events of its supplier and types, in cursor order; never throws. */
  deliver(events: readonly FeedEvent[]): void;
  /** The hub is closing (the server shuts down): end the stream; resolves once it has ended. */
  close(): Promise<void>;
}

export interface EventHubOptions {
  /** How often the reader reads while it has subscribers, notified or not (ms). */
  pollMs?: number;
  /** Events per read. */
  pageSize?: number;
  /** How often a stream sends a heartbeat comment (ms). */
  heartbeatMs?: number;
  /** The reconnection delay a stream suggests to its client (`retry:`, ms). */
  retryMs?: number;
  /**
   * The most a stream keeps queued for its client. Past it, a client that is reading is left to
   * catch up at its own pace; one that is not is dropped (it resumes with Last-Event-ID).
   */
  maxQueuedBytes?: number;
  /** How long a client may take nothing while text waits for it before it is dropped (ms). */
  maxStallMs?: number;
  logger?: { warn(obj: Record<string, unknown>, msg: string): void };
}

export type EventStreamSettings = Required<
  Pick<EventHubOptions, 'heartbeatMs' | 'retryMs' | 'maxQueuedBytes' | 'maxStallMs'>
>;

/** What a stream needs of the hub: its settings, joining and leaving, and the counts it keeps. */
export interface StreamHub {
  readonly stream: EventStreamSettings;
  subscribe(sub: HubSubscriber): Promise<Cursor | null>;
  unsubscribe(sub: HubSubscriber): void;
  countDropped(): void;
  countDemoted(): void;
}

/** What the hub has done, for tests and metrics. */
export interface EventHubStats {
  subscribers: number;
  /** LISTENs held now: 1 while it has subscribers, else 0. */
  listening: number;
  /** LISTENs opened since the hub was made. */
  listens: number;
  /** Pages the reader has read. */
  reads: number;
  /** Streams ended because their client stopped reading. */
  dropped: number;
  /** Times a stream's queue overflowed while its client was reading: it caught up by itself again. */
  demoted: number;
}

const DEFAULTS = {
  pollMs: 100,
  pageSize: MAX_PAGE,
  heartbeatMs: 15_000,
  retryMs: 2_000,
  maxQueuedBytes: 1 << 20,
  maxStallMs: 30_000,
};
/** After a failed read (the database unavailable), the next one waits at least this long. */
const FAILED_READ_WAIT_MS = 1_000;

export class EventHub implements StreamHub {
  readonly #db: Db;
  readonly #pollMs: number;
  readonly #pageSize: number;
  readonly #log: EventHubOptions['logger'];
  /** What each stream is held to. */
  readonly stream: EventStreamSettings;
  readonly #subscribers = new Set<HubSubscriber>();
  /** Start and stop, one at a time. */
  #chain: Promise<unknown> = Promise.resolve();
  /** Bumped at each start and stop: a read of an earlier run neither moves the cursor nor delivers. */
  #generation = 0;
  #running = false;
  #closed = false;
  #cursor: Cursor | null = null;
  #unlisten: (() => Promise<void>) | null = null;
  #timer: NodeJS.Timeout | undefined;
  #reading = false;
  /** Woken while reading: read again as soon as this read ends. */
  #again = false;
  #listens = 0;
  #reads = 0;
  #dropped = 0;
  #demoted = 0;

  constructor(db: Db, opts: EventHubOptions = {}) {
    this.#db = db;
    this.#pollMs = opts.pollMs ?? DEFAULTS.pollMs;
    this.#pageSize = opts.pageSize ?? DEFAULTS.pageSize;
    this.#log = opts.logger;
    this.stream = {
      heartbeatMs: opts.heartbeatMs ?? DEFAULTS.heartbeatMs,
      retryMs: opts.retryMs ?? DEFAULTS.retryMs,
      maxQueuedBytes: opts.maxQueuedBytes ?? DEFAULTS.maxQueuedBytes,
      maxStallMs: opts.maxStallMs ?? DEFAULTS.maxStallMs,
    };
  }

  stats(): EventHubStats {
    return {
      subscribers: this.#subscribers.size,
      listening: this.#unlisten ? 1 : 0,
      listens: this.#listens,
      reads: this.#reads,
      dropped: this.#dropped,
      demoted: this.#demoted,
    };
  }

  /** A stream dropped its client (it stopped reading). */
  countDropped(): void {
    this.#dropped++;
  }

  /** A stream left the hub to catch up by itself (its client read slower than events came). */
  countDemoted(): void {
    this.#demoted++;
  }

  /**
   * Adds a subscriber (starting the reader if it was idle) and answers the reader's cursor: the
   * subscriber is handed every event after it, from now on (and may get some before it, which
   * it has read itself). A subscriber may be handed events, and leave, before the promise
   * settles: it then answers null (the subscriber knows it left and goes on by itself). Rejects
   * when the hub is closed or cannot start (database unavailable).
   */
  subscribe(sub: HubSubscriber): Promise<Cursor | null> {
    if (this.#closed) return Promise.reject(new Error('the event hub is closed'));
    this.#subscribers.add(sub);
    return this.#serially(async () => {
      if (!this.#subscribers.has(sub)) return null;
      if (!this.#running) await this.#start();
      return this.#cursor!;
    }).catch((err) => {
      this.unsubscribe(sub);
      throw err;
    });
  }

  unsubscribe(sub: HubSubscriber): void {
    if (!this.#subscribers.delete(sub) || this.#subscribers.size > 0) return;
    void this.#serially(async () => {
      if (this.#subscribers.size === 0 && this.#running) await this.#stop();
    }).catch((err) => this.#log?.warn({ err }, 'event hub: could not stop listening'));
  }

  /** Ends every stream, then stops reading and listening (server shutdown). */
  async close(): Promise<void> {
    this.#closed = true;
    await Promise.all([...this.#subscribers].map((s) => s.close().catch(() => {})));
    this.#subscribers.clear();
    await this.#serially(() => this.#stop());
  }

  #serially<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.#chain.then(fn);
    this.#chain = run.catch(() => {});
    return run;
  }

  async #start(): Promise<void> {
    const generation = ++this.#generation;
    // From the feed's end: every subscriber has read up to it (or further) by itself.
    this.#cursor = await currentCursor(this.#db);
    this.#unlisten = await this.#db.listen(EVENTS_CHANNEL, {
      onMessage: () => this.#wake(generation),
      // Listening again after a lost connection: what was notified meanwhile is read now.
      onLive: (live) => {
        if (live) this.#wake(generation);
      },
    });
    this.#listens++;
    this.#running = true;
    this.#schedule(this.#pollMs);
  }

  async #stop(): Promise<void> {
    this.#generation++;
    this.#running = false;
    clearTimeout(this.#timer);
    const unlisten = this.#unlisten;
    this.#unlisten = null;
    await unlisten?.();
  }

  #schedule(ms: number): void {
    clearTimeout(this.#timer);
    const generation = this.#generation;
    this.#timer = setTimeout(() => this.#wake(generation), ms);
    this.#timer.unref();
  }

  #wake(generation: number): void {
    if (generation !== this.#generation || !this.#running) return;
    if (this.#reading) {
      this.#again = true;
      return;
    }
    this.#reading = true;
    clearTimeout(this.#timer);
    void this.#read(generation);
  }

  /** Reads pages until one is not full, and hands each out; then waits for a wake or the poll. */
  async #read(generation: number): Promise<void> {
    let wait = this.#pollMs;
    try {
      do {
        this.#again = false;
        const page = await readEvents(this.#db, {
          supplier: null,
          after: this.#cursor!,
          limit: this.#pageSize,
        });
        if (generation !== this.#generation) return;
        this.#reads++;
        this.#cursor = page.next;
        if (page.events.length > 0) this.#fanOut(page.events);
        if (page.events.length === this.#pageSize) this.#again = true;
      } while (this.#again);
    } catch (err) {
      this.#log?.warn({ err }, 'event hub: could not read the feed; trying again');
      wait = Math.max(wait, FAILED_READ_WAIT_MS);
    } finally {
      this.#reading = false;
      if (this.#running) {
        if (this.#again) this.#wake(this.#generation);
        else this.#schedule(wait);
      }
    }
  }

  #fanOut(events: readonly FeedEvent[]): void {
    const bySupplier = new Map<string, FeedEvent[]>();
    for (const e of events) {
      const list = bySupplier.get(e.import_supplier);
      if (list) list.push(e);
      else bySupplier.set(e.import_supplier, [e]);
    }
    for (const sub of this.#subscribers) {
      const theirs = bySupplier.get(sub.supplier);
      if (!theirs) continue;
      const types = sub.types;
      const wanted = types ? theirs.filter((e) => types.has(e.type)) : theirs;
      if (wanted.length > 0) sub.deliver(wanted);
    }
  }
}
