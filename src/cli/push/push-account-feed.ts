/**
 * `ferry push accounts` following its accounts through the event feed (docs/product.md, Events
 * out; docs/decisions/0073-live-event-stream.md) instead of polling their status: the cursor of the
 * feed's end is taken before the first account is sent, then each supplier's feed is read from
 * it in pages of its process events, with a short wait when a page is not full, until every
 * account sent has its outcome. Pages rather than the server-sent stream: each is one ordinary
 * request, with the session's retries, token renewal and rate limit, and a thousand events a
 * request while the worker is busy.
 *
 * An account's outcome is the first final event (PROCESSED, ERRORED, CANCELLED, DRY_RUN_*) that
 * follows the CREATED event its scheduling wrote, so that the end of an earlier process of the
 * same account is not taken for it. An account this run did not schedule (resumed from the
 * journal, or in progress when sent) takes the first final event; one resumed from the journal
 * has its status read once, since it may have ended before the cursor. A PROCESSED event does
 * not carry the account number the report gives: it is read once, by the batched statuses
 * request, for a thousand accounts at a time. None of that is polling: no account's status is
 * asked twice, nor before the feed has told its outcome. The one exception is a safety net: after
 * a long quiet with no supplier paused, the statuses of what waits are read once.
 */
import { IMPORT_PROCESS_EVENTS as E } from '../../vocabulary/import-process-states.ts';
import { asObject, type Outstanding, toEntry } from './push-account-lines.ts';
import { type PolledPush, readStatusesOnce } from './push-account-polling.ts';
import { type ReportedError, readInputLines } from './push-input.ts';
import type { PushSession } from './push-session.ts';

export const FEED_PATH = '/v2/data-import/events/';

/** The report status each final event gives. */
const FINAL_STATUS: Record<string, string> = {
  [E.PROCESSED]: 'PROCESSED',
  [E.ERRORED]: 'ERRORED',
  [E.CANCELLED]: 'CANCELLED',
  [E.DRY_RUN_SUCCEEDED]: 'DRY_RUN_SUCCEEDED',
  [E.DRY_RUN_ERRORED]: 'DRY_RUN_ERRORED',
};
/** What the push reads of the feed: the event a scheduling writes, and the final ones. */
const TYPES = [E.CREATED, ...Object.keys(FINAL_STATUS)].join(',');
const PAGE = 1_000;
/** How long to wait before reading again when a page was not full. */
export const FEED_WAIT_MS = 250;
/** Account numbers read in one statuses request. */
const LOOKUP_BATCH = 1_000;
/**
 * Stall periods (3 s each by default: a minute) with nothing told and no supplier paused before
 * the statuses of what waits are read once: a safety net, not polling.
 */
const SAFETY_READ_STALLS = 20;

interface FeedEvent {
  type: string;
  import_supplier: string;
  external_account_number: string | null;
  data: Record<string, unknown>;
}

interface Outcome {
  status: string;
  accountNumber: string | null;
  errors: ReportedError[];
}

/** What the feed has told of one account since the cursor. */
interface Told {
  /** A CREATED event came (a scheduling, maybe this run's). */
  created: boolean;
  /** The last final event, unless a CREATED came after it. */
  outcome: Outcome | null;
}

/**
 * The feed's end now, for a supplier the key may read: null when the service has no feed (404)
 * or will not give it (any other refusal); the push then polls.
 */
export async function feedCursorNow(session: PushSession, supplier: string): Promise<string | null> {
  const path = `${FEED_PATH}?import_supplier=${encodeURIComponent(supplier)}&after=now`;
  const answer = await session.request(session.raw(path, { method: 'GET' }));
  const cursor = asObject(answer.body)?.next_cursor;
  return answer.status === 200 && typeof cursor === 'string' ? cursor : null;
}

/**
 * The feed's cursor now, asked for the first supplier the input names; null when the service has
 * no feed, or nothing in the input names a supplier: the push polls.
 */
export async function feedCursorFor(session: PushSession, file: string): Promise<string | null> {
  for await (const input of readInputLines(file)) {
    const { supplier } = toEntry(input);
    if (supplier !== null) return feedCursorNow(session, supplier);
  }
  return null;
}

function outcomeOf(e: FeedEvent): Outcome | null {
  const status = FINAL_STATUS[e.type];
  if (status === undefined) return null;
  const error = asObject(e.data.error);
  const accountNumber = e.data.service_identifier;
  return {
    status,
    accountNumber: typeof accountNumber === 'string' ? accountNumber : null,
    errors:
      error && (status === 'ERRORED' || status === 'DRY_RUN_ERRORED')
        ? [{ code: String(error.code), attr: null, detail: String(error.detail) }]
        : [],
  };
}

export class FeedFollower {
  /** Where each supplier's feed is read from next. */
  readonly #cursors = new Map<string, string>();
  /** By supplier, then external account number: what the feed has told since the start. */
  readonly #told = new Map<string, Map<string, Told>>();
  /** Outstanding accounts this run scheduled: their outcome follows a CREATED event. */
  readonly #scheduledHere = new Set<string>();
  /** Resumed accounts whose status is to be read once. */
  #toRead: Outstanding[] = [];
  /** PROCESSED accounts whose account number is to be read, by supplier. */
  readonly #numbersToRead = new Map<string, Outstanding[]>();
  /** Keys of the accounts in #numbersToRead. */
  readonly #numbersAwaited = new Set<string>();
  /** Outcomes the feed has told (the stall check's measure of progress). */
  #outcomes = 0;
  /** Suppliers whose feed was refused, with none of their accounts waiting. */
  readonly #refused = new Set<string>();

  constructor(
    private readonly push: PolledPush,
    private readonly start: string,
  ) {}

  /** An account was scheduled: by this run (`here`), or found in progress. */
  scheduled(o: Outstanding, here: boolean): void {
    if (here) this.#scheduledHere.add(o.key);
    else this.#scheduledHere.delete(o.key);
    this.#settleIfTold(o);
  }

  /** An account the journal says an earlier run scheduled: its status is read once, unless the feed tells. */
  resumed(o: Outstanding): void {
    this.#scheduledHere.delete(o.key);
    if (!this.#settleIfTold(o)) this.#toRead.push(o);
  }

  /**
   * Reads the feed until every account sent is final; false when the service stops answering it
   * (the push polls for the rest).
   */
  async run(): Promise<boolean> {
    const { push } = this;
    const moved = () => this.#outcomes + push.finalCount();
    let lastMoved = moved();
    let movedAt = Date.now();
    /** When something last moved, or the last safety read. */
    let quietSince = Date.now();
    while (!push.aborted()) {
      if (push.sendingDone() && push.outstanding.size === 0) return true;
      if (moved() !== lastMoved) {
        lastMoved = moved();
        movedAt = Date.now();
        quietSince = movedAt;
      }
      if (push.pauses && push.outstanding.size > 0 && Date.now() - movedAt >= push.stallMs) {
        // Nothing told for a while: a paused supplier holds the push here, as when polling.
        for (const supplier of [...push.suppliers]) await push.pauses.check(supplier);
        if (push.pauses.paused().length === 0) movedAt = Date.now();
      }
      const paused = push.pauses !== null && push.pauses.paused().length > 0;
      if (
        !paused &&
        push.outstanding.size > 0 &&
        Date.now() - quietSince >= SAFETY_READ_STALLS * push.stallMs
      ) {
        // Long quiet, and no supplier paused: the statuses of what waits, read once, so that an
        // outcome the feed cannot tell (a feed held back by a transaction that does not end, a
        // change that wrote no event) cannot hold the push for ever.
        quietSince = Date.now();
        const waiting = [...push.outstanding.values()].filter((o) => !this.#numbersAwaited.has(o.key));
        await readStatusesOnce(push, waiting);
      }
      if (this.#toRead.length > 0) {
        const toRead = this.#stillOutstanding(this.#toRead);
        this.#toRead = [];
        await readStatusesOnce(push, toRead);
      }
      let full = false;
      for (const supplier of [...push.suppliers]) {
        if (this.#refused.has(supplier)) continue;
        const read = await this.#readPage(supplier);
        if (read === null) {
          // A supplier the key may not read was refused at scheduling too, and has nothing to
          // follow; one with accounts waiting leaves them all to polling.
          if ([...push.outstanding.values()].some((o) => o.supplier === supplier)) return false;
          this.#refused.add(supplier);
          continue;
        }
        full ||= read === PAGE;
      }
      await this.#readNumbers();
      if (!full && !(push.sendingDone() && push.outstanding.size === 0))
        await push.session.wait(FEED_WAIT_MS);
    }
    return true;
  }

  /** One page of a supplier's feed, applied; how many events it held, or null when refused. */
  async #readPage(supplier: string): Promise<number | null> {
    const { session } = this.push;
    const cursor = this.#cursors.get(supplier) ?? this.start;
    const query = new URLSearchParams({
      import_supplier: supplier,
      after: cursor,
      limit: String(PAGE),
      types: TYPES,
    });
    const answer = await session.request(session.raw(`${FEED_PATH}?${query}`, { method: 'GET' }));
    const page = asObject(answer.body);
    if (answer.status !== 200 || !Array.isArray(page?.events) || typeof page.next_cursor !== 'string')
      return null;
    for (const e of page.events as FeedEvent[]) this.#apply(e);
    this.#cursors.set(supplier, page.next_cursor);
    return page.events.length;
  }

  #apply(e: FeedEvent): void {
    const ext = e.external_account_number;
    if (ext === null) return;
    let bySupplier = this.#told.get(e.import_supplier);
    if (!bySupplier) {
      bySupplier = new Map();
      this.#told.set(e.import_supplier, bySupplier);
    }
    const told = bySupplier.get(ext) ?? { created: false, outcome: null };
    if (e.type === E.CREATED) {
      told.created = true;
      told.outcome = null;
    } else told.outcome = outcomeOf(e) ?? told.outcome;
    bySupplier.set(ext, told);
    const o = this.push.outstanding.get(ext);
    if (o && o.supplier === e.import_supplier) this.#settleIfTold(o);
  }

  /** Settles the account when the feed has told its outcome; whether it did. */
  #settleIfTold(o: Outstanding): boolean {
    if (this.#numbersAwaited.has(o.key)) return true;
    if (o.ext === null || o.supplier === null) return false;
    const bySupplier = this.#told.get(o.supplier);
    const told = bySupplier?.get(o.ext);
    if (!told?.outcome || (this.#scheduledHere.has(o.key) && !told.created)) return false;
    bySupplier!.delete(o.ext);
    this.#scheduledHere.delete(o.key);
    this.#outcomes++;
    const { status, accountNumber, errors } = told.outcome;
    if (status === 'PROCESSED' && accountNumber === null) {
      const list = this.#numbersToRead.get(o.supplier) ?? [];
      list.push(o);
      this.#numbersToRead.set(o.supplier, list);
      this.#numbersAwaited.add(o.key);
      return true;
    }
    this.push.final(o, status, accountNumber, errors);
    return true;
  }

  /**
   * The account numbers of PROCESSED accounts, a thousand at a time; the rest once nothing else
   * is awaited.
   */
  async #readNumbers(): Promise<void> {
    const { push } = this;
    const all = push.sendingDone() && this.#numbersAwaited.size >= push.outstanding.size;
    const batch: Outstanding[] = [];
    for (const [supplier, list] of this.#numbersToRead) {
      const take = all ? list.length : list.length - (list.length % LOOKUP_BATCH);
      if (take === 0) continue;
      batch.push(...list.splice(0, take));
      if (list.length === 0) this.#numbersToRead.delete(supplier);
    }
    if (batch.length === 0) return;
    for (const o of batch) this.#numbersAwaited.delete(o.key);
    await readStatusesOnce(push, this.#stillOutstanding(batch));
  }

  /** Each account once, as it is outstanding now; those final since are left out. */
  #stillOutstanding(accounts: Outstanding[]): Outstanding[] {
    const keys = new Set(accounts.map((o) => o.key));
    return [...keys].flatMap((key) => {
      const now = this.push.outstanding.get(key);
      return now ? [now] : [];
    });
  }
}
