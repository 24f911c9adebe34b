/**
 * `ferry push accounts`: schedules each line's account (bulk when the server offers it, one
 * request per account otherwise), polls what was scheduled until it is final
 * (push-account-polling.ts), and writes one report line per account in its final state. A re-run
 * with the same report resumes.
 */
import {
  type AccountPushMode,
  asKeyPart,
  asObject,
  type Entry,
  type Outstanding,
  outstandingOf,
  reportKey,
  requestBodyText,
  toEntry,
} from './push-account-lines.ts';
import { pollUntilDone } from './push-account-polling.ts';
import { errorsOf, type ReportedError, readInputLines } from './push-input.ts';
import { journalPath, NdjsonAppender, readNdjsonLines, removeJournal } from './push-report.ts';
import type { Answer, PushSession } from './push-session.ts';

export type { AccountPushMode } from './push-account-lines.ts';

/** Report statuses that count as success for the exit code. VALID is --validate-only's. */
export const SUCCEEDED = new Set(['PROCESSED', 'DRY_RUN_SUCCEEDED', 'VALID']);

export const BULK_PATH = '/v2/data-import/accounts/bulk/';
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
  warn: (line: string) => void;
}

export class AccountPush {
  /** Final status per key, of the input's accounts (resumed ones included). */
  readonly finals = new Map<string, string>();
  readonly outstanding = new Map<string, Outstanding>();
  readonly #prior = new Map<string, string>();
  readonly #journaled = new Set<string>();
  readonly #report: NdjsonAppender;
  readonly #journal: NdjsonAppender | null;
  #sendingDone = false;
  #aborted = false;

  constructor(readonly options: AccountPushOptions) {
    for (const line of readNdjsonLines(options.reportPath)) {
      if (typeof line.status === 'string') this.#prior.set(reportKey(line), line.status);
    }
    if (options.mode !== 'validate') {
      for (const line of readNdjsonLines(journalPath(options.reportPath))) {
        if (typeof line.key === 'string') this.#journaled.add(line.key);
      }
    }
    this.#report = new NdjsonAppender(options.reportPath);
    this.#journal = options.mode === 'validate' ? null : new NdjsonAppender(journalPath(options.reportPath));
  }

  get finalAtStart() {
    return this.#prior.size;
  }

  counts(): Record<string, number> {
    const counts: Record<string, number> = {};
    for (const status of this.finals.values()) counts[status] = (counts[status] ?? 0) + 1;
    counts.SCHEDULED = this.outstanding.size;
    return counts;
  }

  /** Runs to the end; the exit code (0 all succeeded, 1 some did not). */
  async run(): Promise<number> {
    const { concurrency } = this.options;
    const source = this.options.bulk && this.options.mode !== 'validate' ? this.#batches() : this.#toSend();
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
    const senders = Promise.all(Array.from({ length: concurrency }, () => guard(send()))).then(() => {
      this.#sendingDone = true;
    });
    try {
      await Promise.all([
        senders,
        guard(
          pollUntilDone({
            session: this.options.session,
            file: this.options.file,
            concurrency,
            batchStatus: this.options.batchStatus ?? false,
            outstanding: this.outstanding,
            finalCount: () => this.finals.size,
            aborted: () => this.#aborted,
            sendingDone: () => this.#sendingDone,
            final: (o, status, accountNumber, errors) => this.#final(o, status, accountNumber, errors),
            sendAgain: (e) => this.#sendOne(e),
          }),
        ),
      ]);
    } finally {
      this.#report.close();
      this.#journal?.close();
    }
    if (failure) throw failure;
    if (this.outstanding.size === 0) removeJournal(this.options.reportPath);
    for (const status of this.finals.values()) if (!SUCCEEDED.has(status)) return 1;
    return 0;
  }

  /** The input's accounts still to send; resumed ones are counted or queued for polling instead. */
  async *#toSend(): AsyncGenerator<Entry> {
    const seen = new Set<string>();
    for await (const input of readInputLines(this.options.file)) {
      const entry = toEntry(input);
      if (seen.has(entry.key)) {
        this.options.warn(`line ${entry.line}: account ${entry.key} appears again in the file; skipped`);
        continue;
      }
      seen.add(entry.key);
      const prior = this.#prior.get(entry.key);
      if (prior) {
        this.finals.set(entry.key, prior);
        continue;
      }
      if (input.parseError !== null) {
        this.#final(entry, 'REJECTED', null, [
          { code: 'invalid_json', attr: null, detail: input.parseError },
        ]);
        continue;
      }
      if (this.#journaled.has(entry.key)) {
        this.outstanding.set(entry.key, outstandingOf(entry, 0));
        continue;
      }
      yield entry;
    }
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
    const text = requestBodyText(e, this.options.mode);
    // The line's own text is sent, so numbers reach the service exactly as written.
    const init = { body: e.value as never, bodySerializer: () => text };
    const answer = await this.options.session.request(() =>
      this.options.mode === 'validate'
        ? client.POST('/v2/data-import/accounts/validate/', init)
        : client.POST('/v2/data-import/accounts/', init),
    );
    this.#settle(e, answer.status, answer.body);
  }

  async #sendBatch(entries: Entry[]): Promise<void> {
    const body = `${entries.map((e) => requestBodyText(e, this.options.mode)).join('\n')}\n`;
    const answer = await this.options.session.request(
      this.options.session.raw(BULK_PATH, { method: 'POST', body, contentType: 'application/x-ndjson' }),
    );
    const results = answer.status === 200 ? bulkResults(answer) : null;
    if (!results || results.length !== entries.length) {
      // Not the contract's answer: each account goes on its own instead (idempotent either way).
      for (const e of entries) await this.#sendOne(e);
      return;
    }
    entries.forEach((e, i) => {
      this.#settle(e, Number(results[i].status), results[i].body);
    });
  }

  /** What a scheduling (or validation) answer means for the account. */
  #settle(e: Entry, status: number, body: unknown): void {
    if (this.options.mode === 'validate') {
      if (status === 200) this.#final(e, 'VALID', null, []);
      else this.#final(e, 'REJECTED', null, errorsOf(status, body));
      return;
    }
    const b = asObject(body);
    const alreadyImported = asObject(b?.non_field_errors)?.code === 'account_import_process_already_imported';
    if (status === 201 || b?.code === 'account_import_process_in_progress') this.#scheduled(e);
    // Sent before (a run killed after its 201, or an answer lost on the way): not created twice.
    else if (alreadyImported) this.#final(e, 'PROCESSED', asKeyPart(b?.account_id), []);
    else this.#final(e, 'REJECTED', null, errorsOf(status, body));
  }

  #scheduled(e: Entry): void {
    this.outstanding.set(e.key, outstandingOf(e, Date.now()));
    this.#journal?.append({ key: e.key, import_supplier: e.supplier, status: 'SCHEDULED' });
  }

  #final(
    e: Entry | Outstanding,
    status: string,
    accountNumber: string | null,
    errors: ReportedError[],
  ): void {
    this.outstanding.delete(e.key);
    this.finals.set(e.key, status);
    this.#report.append({
      external_account_number: e.ext,
      status,
      service_account_number: accountNumber,
      errors,
      ...(e.ext === null ? { line: e.line } : {}),
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
