/**
 * One client's live feed as server-sent events (docs/decisions/0073-live-event-stream.md).
 *
 * It first catches up by itself from its cursor, page by page through the pool, reading the next
 * page only once the client has taken the last (the Readable's backpressure). Near the end of the
 * feed it joins the process's hub, and until it has read, by itself, a page that was not full
 * *after* joining, it keeps what the hub hands it aside. That read covers every event up to the
 * hub's cursor at joining (a later snapshot's horizon is no lower than the hub's was), and the
 * hub hands over every event after that cursor; so the events kept aside that are after the
 * stream's own cursor follow its own without a gap, and those at or before it are dropped, not
 * repeated. Then it is live: the hub's events go straight to the client.
 *
 * Memory is bounded. Live, the hub's events wait in the stream's queue until the client takes
 * them (the Readable holds no more than its high-water mark). A queue past `maxQueuedBytes` is
 * not kept: a client still reading leaves the hub and catches up at its own pace again (the
 * events kept aside while joining are held to the same budget); a client that has taken nothing
 * for `maxStallMs` while text waits for it is dropped, and resumes with Last-Event-ID.
 */
import { Readable } from 'node:stream';
import type { Queryable } from '../infra/db/db.ts';
import {
  type Cursor,
  currentCursor,
  DEFAULT_PAGE,
  type FeedEvent,
  parseCursor,
  readEvents,
} from './event-feed.ts';
import type { HubSubscriber, StreamHub } from './event-hub.ts';

export interface EventStreamRequest {
  supplier: string;
  types: readonly string[] | null;
  /** Where to start: after this cursor, or at the feed's end (`now`). */
  after: Cursor | 'now';
  /** Events per catch-up page. */
  pageSize?: number;
}

/**
 * An event as SSE text; the closing blank line ends it (a line starting with a colon is a
 * comment). The hub hands one object to every stream of its supplier: it is written once.
 */
export function sseFrame(e: FeedEvent): string {
  let frame = frames.get(e);
  if (frame === undefined) {
    frame = `id: ${e.id}\nevent: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`;
    frames.set(e, frame);
  }
  return frame;
}
const frames = new WeakMap<FeedEvent, string>();

/** How long a stream asked to end at shutdown may take to flush before it is cut. */
const CLOSE_GRACE_MS = 1_000;
/** The Readable's own buffer: at or above it, nothing more is pushed until the client takes some. */
const HIGH_WATER_MARK = 64 * 1024;

type Phase = 'catching-up' | 'joining' | 'live' | 'ended';

type Key = [bigint, bigint];
/** (xid, id) as numbers, to compare cursors. */
const keyOf = (c: Cursor): Key => [BigInt(c.xid), BigInt(c.id)];
const isAfter = (a: Key, b: Key) => a[0] > b[0] || (a[0] === b[0] && a[1] > b[1]);

interface Queued {
  frame: string;
  cursor: Cursor;
  key: Key;
}

export interface EventStreamHandle {
  /** What to send: the SSE text, ending when the stream ends. */
  readonly body: Readable;
  /** Ends the stream gracefully (shutdown); past a short grace the connection is cut. */
  close(): Promise<void>;
}

/**
 * The client's stream, started at once. `cut` ends the connection outright (a dropped client, or
 * one that does not take the end of its stream at shutdown).
 */
export function openEventStream(
  db: Queryable,
  hub: StreamHub,
  request: EventStreamRequest,
  cut: () => void,
): EventStreamHandle {
  return new ClientStream(db, hub, request, cut);
}

class ClientStream implements HubSubscriber, EventStreamHandle {
  readonly body: Readable;
  readonly supplier: string;
  readonly types: ReadonlySet<string> | null;
  #phase: Phase = 'catching-up';
  /** The last event handed to the Readable (or the start): where a catch-up reads from. */
  #sent: Cursor = { xid: '0', id: '0' };
  #sentKey: Key = [0n, 0n];
  /** Live: the last event queued; the hub's events at or before it are not queued again. */
  #queuedKey: Key = [0n, 0n];
  #queue: Queued[] = [];
  #queueHead = 0;
  #queueBytes = 0;
  /** The hub's events while joining. */
  #aside: FeedEvent[] = [];
  #asideBytes = 0;
  #subscribed = false;
  /** A catch-up and join is running. */
  #following = false;
  /** Resolves when the client has taken some of what waits (Readable's read()), or the stream ended. */
  #wantMore: (() => void) | null = null;
  /** Since when text has waited with the Readable full and the client taking nothing. */
  #waitingSince: number | null = null;
  #stallTimer: NodeJS.Timeout | undefined;
  readonly #heartbeat: NodeJS.Timeout;
  readonly #ended: Promise<void>;

  constructor(
    private readonly db: Queryable,
    private readonly hub: StreamHub,
    private readonly request: EventStreamRequest,
    private readonly cut: () => void,
  ) {
    this.supplier = request.supplier;
    this.types = request.types && request.types.length > 0 ? new Set(request.types) : null;
    this.body = new Readable({ highWaterMark: HIGH_WATER_MARK, read: () => this.#pulled() });
    this.#ended = new Promise((resolve) => this.body.once('close', resolve));
    this.body.once('close', () => this.#end());
    const { retryMs, heartbeatMs } = hub.stream;
    // Sent at once: the client has its headers, and knows how long to wait before reconnecting.
    this.#push(`retry: ${retryMs}\n\n`);
    this.#heartbeat = setInterval(() => this.#push(': heartbeat\n\n'), heartbeatMs);
    void this.#start();
  }

  async #start(): Promise<void> {
    try {
      const { after } = this.request;
      this.#moveSent(after === 'now' ? await currentCursor(this.db) : after);
      await this.#follow();
    } catch (err) {
      this.#fail(err);
    }
  }

  /** Catches up by itself, joins the hub and goes live; again while joining overflows. */
  async #follow(): Promise<void> {
    this.#following = true;
    try {
      while (!this.#gone()) {
        this.#phase = 'catching-up';
        // Near the end of the feed first: little to read twice, little kept aside while joining.
        await this.#catchUp();
        if (this.#gone()) return;
        this.#phase = 'joining';
        this.#subscribed = true;
        await this.hub.subscribe(this);
        if (this.#phase !== 'joining') continue;
        await this.#catchUp();
        if (this.#phase !== 'joining') continue;
        // Nothing overflowed while reading: what was kept aside follows.
        this.#phase = 'live';
        this.#queuedKey = this.#sentKey;
        const aside = this.#aside;
        this.#aside = [];
        this.#asideBytes = 0;
        this.#enqueue(aside);
        return;
      }
    } finally {
      this.#following = false;
    }
  }

  /** Pages of the stream's own supplier and types until one is not full. */
  async #catchUp(): Promise<void> {
    const limit = this.request.pageSize ?? DEFAULT_PAGE;
    for (;;) {
      if (this.#gone()) return;
      const page = await readEvents(this.db, {
        supplier: this.supplier,
        after: this.#sent,
        limit,
        types: this.request.types,
      });
      if (this.#gone()) return;
      let room = true;
      for (const e of page.events) {
        this.#moveSent(parseCursor(e.id)!);
        room = this.#push(sseFrame(e));
      }
      this.#moveSent(page.next);
      if (page.events.length < limit) return;
      // Backpressure: the next page once the client has taken some of this one.
      if (!room)
        await new Promise<void>((resolve) => {
          this.#wantMore = resolve;
        });
    }
  }

  deliver(events: readonly FeedEvent[]): void {
    if (this.#phase === 'joining') {
      for (const e of events) {
        this.#aside.push(e);
        this.#asideBytes += sseFrame(e).length;
      }
      // Too much to keep aside: leave the hub and catch up alone (#follow goes round again).
      if (this.#asideBytes > this.hub.stream.maxQueuedBytes) {
        this.hub.countDemoted();
        this.#leaveHub('catching-up');
      }
    } else if (this.#phase === 'live') this.#enqueue(events);
  }

  /** Ends the stream gracefully (shutdown); cut after a grace when the client does not take the end. */
  async close(): Promise<void> {
    if (!this.#gone()) {
      this.#end();
      this.body.push(null);
    }
    const grace = setTimeout(() => this.cut(), CLOSE_GRACE_MS);
    grace.unref();
    await this.#ended;
    clearTimeout(grace);
  }

  /** Live: queues what is new and hands the client what it has room for. */
  #enqueue(events: readonly FeedEvent[]): void {
    for (const e of events) {
      const cursor = parseCursor(e.id)!;
      const key = keyOf(cursor);
      if (!isAfter(key, this.#queuedKey)) continue;
      const frame = sseFrame(e);
      this.#queue.push({ frame, cursor, key });
      this.#queueBytes += frame.length;
      this.#queuedKey = key;
    }
    this.#flush();
    if (this.#queueBytes > this.hub.stream.maxQueuedBytes) this.#overflow();
  }

  #flush(): void {
    while (this.#phase === 'live' && this.#queueHead < this.#queue.length) {
      const next = this.#queue[this.#queueHead++];
      this.#queueBytes -= next.frame.length;
      this.#sent = next.cursor;
      this.#sentKey = next.key;
      if (!this.#push(next.frame)) break;
    }
    if (this.#queueHead === this.#queue.length) {
      this.#queue = [];
      this.#queueHead = 0;
    }
  }

  /**
   * The queue is past its budget. A client that has taken nothing for maxStallMs is dropped; one
   * that reads, only slower than events come, leaves the hub and catches up at its own pace.
   */
  #overflow(): void {
    if (this.#stalled()) {
      this.#drop();
      return;
    }
    this.hub.countDemoted();
    this.#leaveHub('catching-up');
    if (!this.#following) void this.#follow().catch((err) => this.#fail(err));
  }

  /** Hands text to the Readable; false when it is full (the client has not taken what it has). */
  #push(text: string): boolean {
    if (this.#gone()) return false;
    const room = this.body.push(text);
    if (!room && this.#waitingSince === null) {
      this.#waitingSince = Date.now();
      clearTimeout(this.#stallTimer);
      this.#stallTimer = setTimeout(() => {
        if (this.#stalled()) this.#drop();
      }, this.hub.stream.maxStallMs + 1);
      this.#stallTimer.unref();
    }
    return room;
  }

  /** The client took some of what waited (Readable's read()). */
  #pulled(): void {
    this.#waitingSince = null;
    clearTimeout(this.#stallTimer);
    const wake = this.#wantMore;
    this.#wantMore = null;
    wake?.();
    this.#flush();
  }

  #stalled(): boolean {
    return this.#waitingSince !== null && Date.now() - this.#waitingSince >= this.hub.stream.maxStallMs;
  }

  /** Whether the stream has ended (a method: the phase changes across awaits). */
  #gone(): boolean {
    return this.#phase === 'ended';
  }

  #moveSent(cursor: Cursor): void {
    this.#sent = cursor;
    this.#sentKey = keyOf(cursor);
  }

  /** The client takes nothing: it is cut off, and resumes with Last-Event-ID. */
  #drop(): void {
    if (this.#gone()) return;
    this.hub.countDropped();
    this.#end();
    this.body.destroy(new Error('event stream client took nothing for too long; dropped (it may resume)'));
    this.cut();
  }

  #fail(err: unknown): void {
    if (this.#gone()) return;
    this.#end();
    this.body.destroy(err as Error);
  }

  #leaveHub(phase: 'catching-up' | 'ended'): void {
    this.#phase = phase;
    this.#aside = [];
    this.#asideBytes = 0;
    this.#queue = [];
    this.#queueHead = 0;
    this.#queueBytes = 0;
    if (this.#subscribed) {
      this.#subscribed = false;
      this.hub.unsubscribe(this);
    }
  }

  #end(): void {
    if (this.#gone()) return;
    clearInterval(this.#heartbeat);
    clearTimeout(this.#stallTimer);
    this.#leaveHub('ended');
    const wake = this.#wantMore;
    this.#wantMore = null;
    wake?.();
  }
}
