/**
 * `ferry push accounts`: schedules each line's account (bulk when the server offers it, one
 * request per account otherwise), follows what was scheduled until it is final through the event
 * feed where the service offers it (push-account-feed.ts), by polling otherwise
 * (push-account-polling.ts), and writes one report line per account in its final state. A re-run
 * with the same report resumes, sending again the lines changed since (push-account-prior.ts).
 * With --validate-only it validates each account and checks the whole book (push-book-checks.ts)
 * instead, scheduling nothing.
 */
import { FeedFollower, feedCursorFor } from './push-account-feed.ts';
import {
  type AccountPushMode,
  asKeyPart,
  asObject,
  type Entry,
  type Outstanding,
  outstandingOf,
  type PushTaskParams,
  repeatKey,
  requestBodyText,
  toEntry,
} from './push-account-lines.ts';
import { type PolledPush, pollUntilDone } from './push-account-polling.ts';
import { PriorReport } from './push-account-prior.ts';
import { ResumeDecisions, type Resumed } from './push-account-resume.ts';
import { type BookChecks, checkBook } from './push-book-checks.ts';
import { errorsOf, type ReportedError, readInputLines } from './push-input.ts';
import { journalPath, NdjsonAppender, removeJournal } from './push-report.ts';
import { ReportBinding } from './push-report-binding.ts';
import type { Answer, PushSession } from './push-session.ts';
import {
  DEFAULT_PAUSE_TIMING,
  isPauseRefusal,
  type PauseTiming,
  SupplierPauses,
} from './push-supplier-pause.ts';

export type { AccountPushMode } from './push-account-lines.ts';

/** Report statuses that count as success for the exit code. VALID is --validate-only's. */
export const SUCCEEDED = new Set(['PROCESSED', 'DRY_RUN_SUCCEEDED', 'VALID']);

export const BULK_PATH = '/v2/data-import/accounts/bulk/';
/** Validates up to 1,000 accounts a request (--validate-only), where the service offers it. */
export const VALIDATE_BULK_PATH = '/v2/data-import/accounts/validate/bulk/';
export const STATUSES_PATH = '/v2/data-import/accounts/statuses/';
const BULK_MAX_LINES = 1_000;

export interface AccountPushOptions {
  session: PushSession;
  file: string;
  reportPath: string;
  mode: AccountPushMode;
  concurrency: number;
  bulk: boolean;
  /** Whether the service answers statuses in batches (STATUSES_PATH); else one request each. */
  batchStatus?: boolean;
  /** Whether the service answers a supplier's status (SUPPLIER_PATH), to tell a pause while polling. */
  supplierStatus?: boolean;
  /** Follow outcomes through the event feed where the service offers it (probed first); else poll. */
  followFeed?: boolean;
  /** --retry-rejected: send again the lines reported REJECTED or ERRORED. */
  /** --wave and --profile: the wave and mapping profile of every scheduled account (task_params). */
  taskParams?: PushTaskParams;
  retryRejected?: boolean;
  /** --no-wait: a paused supplier stops the run (exit 2) instead of being waited for. */
  noWait?: boolean;
  pauseTiming?: PauseTiming;
  /** About how many lines the input has (sizes the whole-book checks' table). */
  lines?: number;
  warn: (line: string) => void;
}

export class AccountPush {
  /** Final status per key, of the input's accounts (resumed ones included). */
  readonly finals = new Map<string, string>();
  readonly outstanding = new Map<string, Outstanding>();
  /** Suppliers of the accounts sent or followed, whose pause polling may need to tell. */
  readonly suppliers = new Set<string>();
  readonly pauses: SupplierPauses;
  #prepared: Promise<void> | null = null;
  #prior!: PriorReport;
  /** What the report is bound to (not under --validate-only: it reports no service's state). */
  #binding: ReportBinding | null = null;
  #book: BookChecks | null = null;
  #report!: NdjsonAppender;
  #journal: NdjsonAppender | null = null;
  /** Accounts that reached their final state in this run (not resumed ones): the progress rate. */
  #finishedThisRun = 0;
  #sendingDone = false;
  #aborted = false;
  /** Set when the run follows the event feed. */
  #follower: FeedFollower | null = null;

  constructor(readonly options: AccountPushOptions) {
    this.pauses = new SupplierPauses({
      session: options.session,
      timing: options.pauseTiming ?? DEFAULT_PAUSE_TIMING,
      noWait: options.noWait ?? false,
      warn: options.warn,
    });
  }

  /** Reads the earlier report and journal and, with --validate-only, checks the whole book. */
  prepare(): Promise<void> {
    this.#prepared ??= (async () => {
      const { mode, reportPath, file, warn } = this.options;
      const validate = mode === 'validate';
      this.#prior = await PriorReport.read(reportPath, {
        retryRejected: this.options.retryRejected ?? false,
        validate,
      });
      if (!validate)
        this.#binding = await ReportBinding.open(this.options.session, reportPath, this.#prior.written);
      if (validate) {
        const started = Date.now();
        warn('checking the whole book: external account numbers and unique identifiers given twice');
        this.#book = await checkBook(file, this.options.lines ?? 1024);
        const n = this.#book.conflicts;
        const seconds = ((Date.now() - started) / 1000).toFixed(1);
        warn(
          `whole-book checks: ${n} repeat${n === 1 ? '' : 's'} of what an earlier line gives (${seconds} s)`,
        );
      }
      this.#report = new NdjsonAppender(reportPath);
      this.#journal = validate ? null : new NdjsonAppender(journalPath(reportPath));
    })();
    return this.#prepared;
  }

  /** Accounts final in this run so far (not those a re-run found final). */
  get finishedThisRun() {
    return this.#finishedThisRun;
  }

  counts(): Record<string, number> {
    const counts: Record<string, number> = {};
    for (const status of this.finals.values()) counts[status] = (counts[status] ?? 0) + 1;
    counts.SCHEDULED = this.outstanding.size;
    return counts;
  }

  /** Runs to the end; the exit code (0 all succeeded, 1 some did not). */
  async run(): Promise<number> {
    await this.prepare();
    const { concurrency } = this.options;
    // Before anything is sent: the feed's cursor, from which every outcome of this run is told.
    const feedStart =
      this.options.followFeed && this.options.mode !== 'validate'
        ? await feedCursorFor(this.options.session, this.options.file)
        : null;
    const followed: PolledPush = {
      session: this.options.session,
      file: this.options.file,
      concurrency,
      batchStatus: this.options.batchStatus ?? false,
      pauses: this.options.supplierStatus ? this.pauses : null,
      suppliers: this.suppliers,
      stallMs: (this.options.pauseTiming ?? DEFAULT_PAUSE_TIMING).stallMs,
      outstanding: this.outstanding,
      finalCount: () => this.finals.size,
      aborted: () => this.#aborted,
      sendingDone: () => this.#sendingDone,
      final: (o, status, accountNumber, errors) => this.#final(o, status, accountNumber, errors),
      sendAgain: (e) => this.#sendOne(e),
    };
    this.#follower = feedStart === null ? null : new FeedFollower(followed, feedStart);
    const source = this.options.bulk ? this.#batches() : this.#toSend();
    const send = async () => {
      while (!this.#aborted) {
        const next = await source.next();
        if (next.done) return;
        const item = next.value;
        if (Array.isArray(item)) await this.#sendBatch(item);
        else await this.#sendOne(item);
      }
    };
    // The first failure (a PushAbort) stops the senders and the poller alike.
    let failure: unknown = null;
    const guard = (p: Promise<void>) =>
      p.catch((err) => {
        failure ??= err;
        this.#aborted = true;
        this.options.session.stop();
      });
    // A bulk validation holds a thousand accounts (5 MB or more) in flight: four keep a service busy.
    const senderCount =
      this.options.bulk && this.options.mode === 'validate' ? Math.min(concurrency, 4) : concurrency;
    const senders = Promise.all(Array.from({ length: senderCount }, () => guard(send()))).then(() => {
      this.#sendingDone = true;
    });
    const follow = async () => {
      // A feed the service stops answering leaves the rest to polling.
      if (this.#follower && (await this.#follower.run())) return;
      this.#follower = null;
      await pollUntilDone(followed);
    };
    try {
      await Promise.all([senders, guard(follow())]);
    } finally {
      this.#report.close();
      this.#journal?.close();
      this.#book?.close();
    }
    if (failure) throw failure;
    if (this.outstanding.size === 0) {
      removeJournal(this.options.reportPath);
      await this.#prior.compact();
    }
    for (const status of this.finals.values()) if (!SUCCEEDED.has(status)) return 1;
    return 0;
  }

  /**
   * The input's accounts still to send; resumed ones are counted, reported anew or queued for
   * polling instead, once the service has confirmed what the report calls final.
   */
  async *#toSend(): AsyncGenerator<Entry> {
    const book = this.#book;
    const resume = new ResumeDecisions({
      prior: this.#prior,
      session: this.#binding ? this.options.session : null,
      batchStatus: this.options.batchStatus ?? false,
      concurrency: this.options.concurrency,
      warn: this.options.warn,
    });
    // A repeated external account number is sent once; --validate-only reports each line instead.
    const seen = book ? null : new Set<string>();
    for await (const input of readInputLines(this.options.file)) {
      const entry = toEntry(input);
      if (book && entry.ext !== null && book.isRepeat(entry.line))
        entry.key = repeatKey(entry.ext, entry.line);
      if (seen?.has(entry.key)) {
        this.options.warn(`line ${entry.line}: account ${entry.key} appears again in the file; skipped`);
        continue;
      }
      seen?.add(entry.key);
      if (entry.supplier !== null) await this.#binding?.bind(entry.supplier);
      if (book && input.parseError === null) entry.bookErrors = book.errorsOf(entry.line, entry.value);
      for (const resumed of await resume.take(entry, input.parseError, entry.bookErrors))
        if (this.#resumed(resumed)) yield resumed.entry;
    }
    for (const resumed of await resume.end()) if (this.#resumed(resumed)) yield resumed.entry;
  }

  /** Applies a line's outcome on resuming; true when it is to be sent. */
  #resumed({ entry, parseError, outcome }: Resumed): boolean {
    if (outcome.kind === 'final') {
      this.finals.set(entry.key, outcome.status);
      return false;
    }
    if (outcome.kind === 'reported') {
      this.#final(entry, outcome.status, outcome.accountNumber, outcome.errors);
      return false;
    }
    if (parseError !== null) {
      this.#final(entry, 'REJECTED', null, [{ code: 'invalid_json', attr: null, detail: parseError }]);
      return false;
    }
    if (entry.supplier !== null) this.suppliers.add(entry.supplier);
    if (outcome.kind === 'poll') {
      const o = outstandingOf(entry, 0);
      this.outstanding.set(entry.key, o);
      this.#follower?.resumed(o);
      return false;
    }
    return true;
  }

  async *#batches(): AsyncGenerator<Entry[]> {
    let batch: Entry[] = [];
    for await (const entry of this.#toSend()) {
      batch.push(entry);
      if (batch.length >= BULK_MAX_LINES) {
        yield batch;
        batch = [];
      }
    }
    if (batch.length > 0) yield batch;
  }

  async #sendOne(e: Entry): Promise<void> {
    const { client } = this.options.session;
    const text = requestBodyText(e, this.options.mode, this.options.taskParams);
    // The line's own text is sent, so numbers reach the service exactly as written.
    const init = { body: e.value as never, bodySerializer: () => text };
    for (;;) {
      const answer = await this.options.session.request(() =>
        this.options.mode === 'validate'
          ? client.POST('/v2/data-import/accounts/validate/', init)
          : client.POST('/v2/data-import/accounts/', init),
      );
      if (this.#settle(e, answer.status, answer.body)) return;
      await this.pauses.hold(e.supplier ?? '');
    }
  }

  async #sendBatch(entries: Entry[]): Promise<void> {
    let pending = entries;
    while (pending.length > 0) {
      const body = `${pending.map((e) => requestBodyText(e, this.options.mode, this.options.taskParams)).join('\n')}\n`;
      const answer = await this.options.session.request(
        this.options.session.raw(this.options.mode === 'validate' ? VALIDATE_BULK_PATH : BULK_PATH, {
          method: 'POST',
          body,
          contentType: 'application/x-ndjson',
        }),
      );
      const results = answer.status === 200 ? bulkResults(answer) : null;
      if (!results || results.length !== pending.length) {
        // Not the contract's answer: each account goes on its own instead (idempotent either way).
        for (const e of pending) await this.#sendOne(e);
        return;
      }
      const held = pending.filter((e, i) => !this.#settle(e, Number(results[i].status), results[i].body));
      if (held.length > 0) await this.pauses.hold(held[0].supplier ?? '');
      pending = held;
    }
  }

  /**
   * What a scheduling (or validation) answer means for the account; false when the supplier is
   * paused, which says nothing of the account: it is to be sent again.
   */
  #settle(e: Entry, status: number, body: unknown): boolean {
    if (this.options.mode === 'validate') {
      const errors = [...(status === 200 ? [] : errorsOf(status, body)), ...(e.bookErrors ?? [])];
      this.#final(e, errors.length === 0 ? 'VALID' : 'REJECTED', null, errors);
      return true;
    }
    if (isPauseRefusal(status, body)) return false;
    const b = asObject(body);
    const alreadyImported = asObject(b?.non_field_errors)?.code === 'account_import_process_already_imported';
    if (status === 201 || b?.code === 'account_import_process_in_progress') {
      this.pauses.going(e.supplier ?? '');
      this.#scheduled(e, status === 201);
    }
    // Sent before (a run killed after its 201, or an answer lost on the way): not created twice.
    else if (alreadyImported) this.#final(e, 'PROCESSED', asKeyPart(b?.account_id), []);
    else this.#final(e, 'REJECTED', null, errorsOf(status, body));
    return true;
  }

  /** The account is waiting for the worker: scheduled by this request (`here`), or found in progress. */
  #scheduled(e: Entry, here: boolean): void {
    const o = outstandingOf(e, Date.now());
    this.outstanding.set(e.key, o);
    this.#journal?.append({
      key: e.key,
      import_supplier: e.supplier,
      status: 'SCHEDULED',
      digest: e.digest,
      // Newer than the report's lines so far: a re-run polls it rather than trust an older line.
      after: this.#prior.lines,
    });
    this.#follower?.scheduled(o, here);
  }

  #final(
    e: Entry | Outstanding,
    status: string,
    accountNumber: string | null,
    errors: ReportedError[],
  ): void {
    this.outstanding.delete(e.key);
    this.finals.set(e.key, status);
    this.#finishedThisRun++;
    this.#prior.lines++;
    this.#report.append({
      external_account_number: e.ext,
      status,
      service_account_number: accountNumber,
      errors,
      line: e.line,
      digest: e.digest,
    });
  }
}

interface BulkResult {
  status: number;
  body: unknown;
}

/** The bulk answer's results, in line order: a JSON array, `{results: [...]}`, or NDJSON. */
function bulkResults(answer: Answer): BulkResult[] | null {
  let body = answer.body;
  if (typeof body === 'string') {
    try {
      body = body
        .split('\n')
        .filter((l) => l.trim())
        .map((l) => JSON.parse(l));
    } catch {
      return null;
    }
  }
  const list = Array.isArray(body) ? body : asObject(body)?.results;
  return Array.isArray(list) ? (list as BulkResult[]) : null;
}
