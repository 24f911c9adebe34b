/**
 * `ferry push accounts`: schedules each line's account (bulk when the server offers it, one
 * request per account otherwise), polls what was scheduled until it is final, and writes one
 * report line per account in its final state. A re-run with the same report resumes.
 */
import {
  errorsOf,
  type InputLine,
  type ReportedError,
  readInputLineAt,
  readInputLines,
} from './push-input.ts';
import { journalPath, NdjsonAppender, readNdjsonLines, removeJournal } from './push-report.ts';
import type { Answer, PushSession } from './push-session.ts';

export type AccountPushMode = 'schedule' | 'dry-run' | 'validate';

/** V2 statuses after which nothing more happens to an import process without an operator. */
const FINAL_V2 = new Set(['PROCESSED', 'CANCELLED', 'DRY_RUN_SUCCEEDED', 'ERRORED', 'DRY_RUN_ERRORED']);
/** Report statuses that count as success for the exit code. VALID is --validate-only's. */
export const SUCCEEDED = new Set(['PROCESSED', 'DRY_RUN_SUCCEEDED', 'VALID']);

export const BULK_PATH = '/v2/data-import/accounts/bulk/';
export const STATUSES_PATH = '/v2/data-import/accounts/statuses/';
const BULK_MAX_LINES = 1_000;
const POLL_ROUND_MS = 1_000;
/** Single status requests in flight at once, or identifiers per statuses request. */
const POLL_CHUNK = 500;
const STATUSES_MAX = 1_000;

interface Entry {
  key: string;
  line: number;
  /** Where the line is in the file, to read it again alone. */
  offset: number;
  bytes: number;
  supplier: string | null;
  ext: string | null;
  text: string;
  value: unknown;
}

/**
 * An account scheduled and not final yet: what polling it needs and where its line is, never its
 * data. While the worker catches up, most of a large book can be outstanding at once: holding each
 * line's text and parsed value took ≈ 20 kB an account (1.1 GB of memory for 40,000, Node's heap
 * limit at ≈ 220,000).
 */
type Outstanding = Omit<Entry, 'text' | 'value'> & {
  /** When it was scheduled or last polled (ms). */
  since: number;
};

const outstandingOf = (e: Entry | Outstanding, since: number): Outstanding => ({
  key: e.key,
  line: e.line,
  offset: e.offset,
  bytes: e.bytes,
  supplier: e.supplier,
  ext: e.ext,
  since,
});

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

const asObject = (v: unknown) =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;

const asKeyPart = (v: unknown) => (typeof v === 'string' || typeof v === 'number' ? String(v) : null);

/** The account of a line, bare or wrapped as {payload, task_params}. */
function toEntry(input: InputLine): Entry {
  const outer = asObject(input.value);
  const payload = outer && asObject(outer.payload) ? asObject(outer.payload) : outer;
  const ext = asKeyPart(payload?.external_account_number);
  return {
    key: ext ?? `#line:${input.line}`,
    line: input.line,
    offset: input.offset,
    bytes: input.bytes,
    supplier: asKeyPart(payload?.import_supplier),
    ext,
    text: input.text,
    value: input.value,
  };
}

const reportKey = (line: Record<string, unknown>) =>
  asKeyPart(line.external_account_number) ?? `#line:${line.line}`;

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
      await Promise.all([senders, guard(this.#pollUntilDone())]);
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

  /** The request body of a line: as written, or wrapped with task_params.is_dry_run for --dry-run. */
  #bodyText(e: Entry): string {
    if (this.options.mode !== 'dry-run') return e.text;
    const outer = asObject(e.value);
    if (outer && 'payload' in outer) {
      return JSON.stringify({ ...outer, task_params: { ...asObject(outer.task_params), is_dry_run: true } });
    }
    return `{"payload":${e.text},"task_params":{"is_dry_run":true}}`;
  }

  async #sendOne(e: Entry): Promise<void> {
    const { client } = this.options.session;
    const text = this.#bodyText(e);
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
    const body = `${entries.map((e) => this.#bodyText(e)).join('\n')}\n`;
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

  /**
   * Rounds of status requests, at most one per account per second, until nothing is outstanding.
   * A round polls the accounts least recently looked at first (the outstanding map is kept in
   * that order) and no more than twice as many as became final in the round before (at least a
   * chunk): accounts finish about in the order they were scheduled, so a book of 100,000 costs
   * about two polls an account instead of one per account per second while the worker catches up.
   */
  async #pollUntilDone(): Promise<void> {
    let budget = POLL_CHUNK;
    while (!this.#aborted && (!this.#sendingDone || this.outstanding.size > 0)) {
      const started = Date.now();
      const due: Outstanding[] = [];
      for (const o of this.outstanding.values()) {
        if (due.length >= budget) break;
        if (o.since <= started - POLL_ROUND_MS / 2) due.push(o);
      }
      const finalBefore = this.finals.size;
      if (this.options.batchStatus) await this.#pollInBatches(due);
      else {
        for (let i = 0; i < due.length; i += POLL_CHUNK) {
          const polled = await Promise.allSettled(due.slice(i, i + POLL_CHUNK).map((o) => this.#poll(o)));
          const failed = polled.find((r) => r.status === 'rejected');
          if (failed) throw failed.reason;
        }
      }
      const least = this.options.batchStatus ? STATUSES_MAX : POLL_CHUNK;
      budget = Math.max(least, 2 * (this.finals.size - finalBefore));
      const rest = POLL_ROUND_MS - (Date.now() - started);
      if (this.#sendingDone && this.outstanding.size === 0) return;
      if (rest > 0) await new Promise((r) => setTimeout(r, this.#sendingDone ? rest : rest / 4));
    }
  }

  /** One statuses request per supplier and thousand accounts, a few at a time. */
  async #pollInBatches(due: Outstanding[]): Promise<void> {
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
    for (let i = 0; i < batches.length; i += this.options.concurrency) {
      const polled = await Promise.allSettled(
        batches.slice(i, i + this.options.concurrency).map((batch) => this.#pollBatch(batch)),
      );
      const failed = polled.find((r) => r.status === 'rejected');
      if (failed) throw failed.reason;
    }
  }

  async #pollBatch(batch: Outstanding[]): Promise<void> {
    const { client } = this.options.session;
    const answer = await this.options.session.request(() =>
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
      for (const o of batch) await this.#poll(o);
      return;
    }
    for (const [i, o] of batch.entries()) {
      const r = asObject(results[i]);
      await this.#applyStatus(o, Number(r?.status), r?.body);
    }
  }

  async #poll(o: Outstanding): Promise<void> {
    const { client } = this.options.session;
    const answer = await this.options.session.request(() =>
      client.GET('/v2/data-import/accounts/{import_supplier_code}/{external_identifier}/', {
        params: { path: { import_supplier_code: o.supplier ?? '', external_identifier: o.ext ?? '' } },
      }),
    );
    return this.#applyStatus(o, answer.status, answer.body);
  }

  /** What a status answer means for an outstanding account: final, polled again later, or sent again. */
  async #applyStatus(o: Outstanding, httpStatus: number, body: unknown): Promise<void> {
    if (httpStatus === 200) {
      const status = body as {
        status: string;
        service_identifier: string | null;
        latest_error: { code: string; detail: string } | null;
      };
      if (!FINAL_V2.has(status.status)) {
        // To the back of the polling order.
        this.outstanding.delete(o.key);
        this.outstanding.set(o.key, outstandingOf(o, Date.now()));
        return;
      }
      const errors = status.latest_error
        ? [{ code: status.latest_error.code, attr: null, detail: status.latest_error.detail }]
        : [];
      return this.#final(o, status.status, status.service_identifier, errors);
    }
    // The journal says scheduled but the service has no such process: schedule it again, its
    // line read from the file again.
    if (httpStatus === 404) {
      const again = toEntry(await readInputLineAt(this.options.file, o));
      if (again.key === o.key) return this.#sendOne(again);
      return this.#final(o, 'REJECTED', null, [
        {
          code: 'not_found',
          attr: null,
          detail: `The service has no such process, and line ${o.line} of the input has changed since.`,
        },
      ]);
    }
    this.#final(o, 'REJECTED', null, errorsOf(httpStatus, body));
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
