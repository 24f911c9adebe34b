/**
 * `ferry push accounts` following what it scheduled: rounds of status requests (in batches when
 * the service answers them, one per account otherwise) until every account is final. When nothing
 * has become final for a while, it reads the suppliers' status: a paused supplier's accounts wait
 * for its resumption, and the push says so rather than show an ETA that only grows.
 */
import { asObject, type Entry, type Outstanding, outstandingOf, toEntry } from './push-account-lines.ts';
import { errorsOf, type ReportedError, readInputLineAt } from './push-input.ts';
import type { PushSession } from './push-session.ts';
import type { SupplierPauses } from './push-supplier-pause.ts';

/** V2 statuses after which nothing more happens to an import process without an operator. */
const FINAL_V2 = new Set(['PROCESSED', 'CANCELLED', 'DRY_RUN_SUCCEEDED', 'ERRORED', 'DRY_RUN_ERRORED']);

const POLL_ROUND_MS = 1_000;
/** Single status requests in flight at once, or identifiers per statuses request. */
const POLL_CHUNK = 500;
const STATUSES_MAX = 1_000;

/** What polling needs of the push it follows. */
export interface PolledPush {
  session: PushSession;
  file: string;
  concurrency: number;
  /** Whether the service answers statuses in batches; else one request each. */
  batchStatus: boolean;
  /** What tells a paused supplier; null when the service cannot answer a supplier's status. */
  pauses: SupplierPauses | null;
  /** Suppliers of the accounts followed. */
  suppliers: Iterable<string>;
  /** How long nothing becomes final, accounts outstanding, before the suppliers' status is read. */
  stallMs: number;
  /** Outstanding accounts, the least recently polled first. */
  outstanding: Map<string, Outstanding>;
  /** How many accounts are final so far. */
  finalCount(): number;
  aborted(): boolean;
  sendingDone(): boolean;
  final(o: Outstanding, status: string, accountNumber: string | null, errors: ReportedError[]): void;
  /** Schedules a line's account again (the service does not know it). */
  sendAgain(e: Entry): Promise<void>;
}

/**
 * Rounds of status requests, at most one per account per second, until nothing is outstanding.
 * A round polls the accounts least recently looked at first (the outstanding map is kept in
 * that order) and no more than twice as many as became final in the round before (at least a
 * chunk): accounts finish about in the order they were scheduled, so a book of 100,000 costs
 * about two polls an account instead of one per account per second while the worker catches up.
 */
export async function pollUntilDone(push: PolledPush): Promise<void> {
  let budget = POLL_CHUNK;
  let lastFinal = push.finalCount();
  let movedAt = Date.now();
  while (!push.aborted() && (!push.sendingDone() || push.outstanding.size > 0)) {
    if (push.finalCount() !== lastFinal) {
      lastFinal = push.finalCount();
      movedAt = Date.now();
    }
    if (push.pauses && push.outstanding.size > 0 && Date.now() - movedAt >= push.stallMs) {
      // Held here, with backoff, while a supplier is paused; read again after each wait.
      for (const supplier of [...push.suppliers]) await push.pauses.check(supplier);
      if (push.pauses.paused().length === 0) movedAt = Date.now();
    }
    const started = Date.now();
    const due: Outstanding[] = [];
    for (const o of push.outstanding.values()) {
      if (due.length >= budget) break;
      if (o.since <= started - POLL_ROUND_MS / 2) due.push(o);
    }
    const finalBefore = push.finalCount();
    await readStatusesOnce(push, due);
    const least = push.batchStatus ? STATUSES_MAX : POLL_CHUNK;
    budget = Math.max(least, 2 * (push.finalCount() - finalBefore));
    const rest = POLL_ROUND_MS - (Date.now() - started);
    if (push.sendingDone() && push.outstanding.size === 0) return;
    if (rest > 0) await new Promise((r) => setTimeout(r, push.sendingDone() ? rest : rest / 4));
  }
}

/**
 * The status of each of these accounts, read once (in batches where the service answers them):
 * what following the feed cannot tell, an account scheduled before the feed's cursor was taken
 * or the account number a PROCESSED event lacks (push-account-feed.ts).
 */
export async function readStatusesOnce(push: PolledPush, accounts: Outstanding[]): Promise<void> {
  if (push.batchStatus) return pollInBatches(push, accounts);
  for (let i = 0; i < accounts.length; i += POLL_CHUNK) {
    const polled = await Promise.allSettled(accounts.slice(i, i + POLL_CHUNK).map((o) => poll(push, o)));
    const failed = polled.find((r) => r.status === 'rejected');
    if (failed) throw failed.reason;
  }
}

/** One statuses request per supplier and thousand accounts, a few at a time. */
async function pollInBatches(push: PolledPush, due: Outstanding[]): Promise<void> {
  const bySupplier = new Map<string, Outstanding[]>();
  for (const o of due) {
    const supplier = o.supplier ?? '';
    const group = bySupplier.get(supplier);
    if (group) group.push(o);
    else bySupplier.set(supplier, [o]);
  }
  const batches: Outstanding[][] = [];
  for (const group of bySupplier.values())
    for (let i = 0; i < group.length; i += STATUSES_MAX) batches.push(group.slice(i, i + STATUSES_MAX));
  for (let i = 0; i < batches.length; i += push.concurrency) {
    const polled = await Promise.allSettled(
      batches.slice(i, i + push.concurrency).map((batch) => pollBatch(push, batch)),
    );
    const failed = polled.find((r) => r.status === 'rejected');
    if (failed) throw failed.reason;
  }
}

async function pollBatch(push: PolledPush, batch: Outstanding[]): Promise<void> {
  const { client } = push.session;
  const answer = await push.session.request(() =>
    client.POST('/v2/data-import/accounts/statuses/', {
      body: {
        import_supplier: batch[0].supplier ?? '',
        external_identifiers: batch.map((o) => o.ext ?? ''),
      },
    }),
  );
  const results = asObject(answer.body)?.results;
  if (answer.status !== 200 || !Array.isArray(results) || results.length !== batch.length) {
    // Not the contract's answer (a line the request could not carry, say): each on its own.
    for (const o of batch) await poll(push, o);
    return;
  }
  for (const [i, o] of batch.entries()) {
    const r = asObject(results[i]);
    await applyStatus(push, o, Number(r?.status), r?.body);
  }
}

async function poll(push: PolledPush, o: Outstanding): Promise<void> {
  const { client } = push.session;
  const answer = await push.session.request(() =>
    client.GET('/v2/data-import/accounts/{import_supplier_code}/{external_identifier}/', {
      params: { path: { import_supplier_code: o.supplier ?? '', external_identifier: o.ext ?? '' } },
    }),
  );
  return applyStatus(push, o, answer.status, answer.body);
}

/** What a status answer means for an outstanding account: final, polled again later, or sent again. */
async function applyStatus(
  push: PolledPush,
  o: Outstanding,
  httpStatus: number,
  body: unknown,
): Promise<void> {
  if (httpStatus === 200) {
    const status = body as {
      status: string;
      service_identifier: string | null;
      latest_error: { code: string; detail: string } | null;
    };
    if (!FINAL_V2.has(status.status)) {
      // To the back of the polling order.
      push.outstanding.delete(o.key);
      push.outstanding.set(o.key, outstandingOf(o, Date.now()));
      return;
    }
    const errors = status.latest_error
      ? [{ code: status.latest_error.code, attr: null, detail: status.latest_error.detail }]
      : [];
    return push.final(o, status.status, status.service_identifier, errors);
  }
  // The journal says scheduled but the service has no such process: schedule it again, its
  // line read from the file again.
  if (httpStatus === 404) {
    const again = toEntry(await readInputLineAt(push.file, o));
    if (again.key === o.key) return push.sendAgain(again);
    return push.final(o, 'REJECTED', null, [
      {
        code: 'not_found',
        attr: null,
        detail: `The service has no such process, and line ${o.line} of the input has changed since.`,
      },
    ]);
  }
  push.final(o, 'REJECTED', null, errorsOf(httpStatus, body));
}
