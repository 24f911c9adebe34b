/**
 * `ferry push notes|transactions|statements|payment-instructions`: one request body a line,
 * one report line per input line (`{line, external_account_number, status, errors, result}`,
 * status CREATED, ALREADY_EXISTS or REJECTED). The four endpoints are idempotent (a repeated
 * note, transaction id, statement id or vendor reference is not added twice), so a retried
 * request is safe; a re-run with the same report skips the lines it already holds.
 */
import { errorsOf, type ReportedError, readInputLines } from './push-input.ts';
import { NdjsonAppender, readNdjsonLines } from './push-report.ts';
import type { PushSession } from './push-session.ts';

export const FOLLOW_UP_KINDS = ['notes', 'transactions', 'statements', 'payment-instructions'] as const;
export type FollowUpKind = (typeof FOLLOW_UP_KINDS)[number];

/** Report statuses that count as success for the exit code. */
export const FOLLOW_UP_SUCCEEDED = new Set(['CREATED', 'ALREADY_EXISTS']);

/**
 * The status of a line the service took: ALREADY_EXISTS when every item of it was there already
 * (NOTE_ALREADY_EXISTS, TRANSACTION_ALREADY_EXISTS: nothing was added), CREATED when something
 * was (each item's own status word stays in the report line's `result`).
 */
export function acceptedStatus(body: unknown): 'CREATED' | 'ALREADY_EXISTS' {
  const b = body && typeof body === 'object' ? (body as Record<string, unknown>) : null;
  const items = Array.isArray(body) ? body : Array.isArray(b?.results) ? (b.results as unknown[]) : [];
  const words = items.map((i) => (i && typeof i === 'object' ? (i as Record<string, unknown>).status : null));
  const existed =
    words.length > 0 && words.every((w) => typeof w === 'string' && w.endsWith('_ALREADY_EXISTS'));
  return existed ? 'ALREADY_EXISTS' : 'CREATED';
}

export interface FollowUpPushOptions {
  session: PushSession;
  kind: FollowUpKind;
  file: string;
  reportPath: string;
  concurrency: number;
}

function post(session: PushSession, kind: FollowUpKind, value: unknown, text: string) {
  const { client } = session;
  // The line's own text is sent, so numbers (amounts) reach the service exactly as written.
  const init = { body: value as never, bodySerializer: () => text };
  switch (kind) {
    case 'notes':
      return () => client.POST('/v1/data-import/notes/create/', init);
    case 'transactions':
      return () => client.POST('/v1/data-import/transactions/create/', init);
    case 'statements':
      return () => client.POST('/v1/data-import/historical-statements/create/', init);
    case 'payment-instructions':
      return () => client.POST('/v1/data-import/payment-instruction/create/', init);
  }
}

export class FollowUpPush {
  readonly finals = new Map<number, string>();
  readonly #prior = new Map<number, string>();
  readonly #report: NdjsonAppender;
  #finishedThisRun = 0;

  constructor(readonly options: FollowUpPushOptions) {
    for (const line of readNdjsonLines(options.reportPath)) {
      if (typeof line.line === 'number' && typeof line.status === 'string')
        this.#prior.set(line.line, line.status);
    }
    this.#report = new NdjsonAppender(options.reportPath);
  }

  /** Lines final in this run so far (not those a re-run found final). */
  get finishedThisRun() {
    return this.#finishedThisRun;
  }

  counts(): Record<string, number> {
    const counts: Record<string, number> = {};
    for (const status of this.finals.values()) counts[status] = (counts[status] ?? 0) + 1;
    return counts;
  }

  async run(): Promise<number> {
    const lines = readInputLines(this.options.file);
    let aborted = false;
    const send = async () => {
      while (!aborted) {
        const next = await lines.next();
        if (next.done) return;
        const input = next.value;
        const prior = this.#prior.get(input.line);
        if (prior) {
          this.finals.set(input.line, prior);
          continue;
        }
        const ext = (input.value as { external_account_number?: unknown } | null)?.external_account_number;
        const write = (status: string, errors: ReportedError[], result: unknown) => {
          this.finals.set(input.line, status);
          this.#finishedThisRun++;
          this.#report.append({
            line: input.line,
            external_account_number: typeof ext === 'string' ? ext : null,
            status,
            errors,
            result,
          });
        };
        if (input.parseError !== null) {
          write('REJECTED', [{ code: 'invalid_json', attr: null, detail: input.parseError }], null);
          continue;
        }
        const answer = await this.options.session.request(
          post(this.options.session, this.options.kind, input.value, input.text),
        );
        if (answer.status === 200 || answer.status === 201)
          write(acceptedStatus(answer.body), [], answer.body);
        else write('REJECTED', errorsOf(answer.status, answer.body), null);
      }
    };
    let settled: PromiseSettledResult<void>[];
    try {
      settled = await Promise.allSettled(
        Array.from({ length: this.options.concurrency }, () =>
          send().catch((err) => {
            aborted = true;
            this.options.session.stop();
            throw err;
          }),
        ),
      );
    } finally {
      this.#report.close();
    }
    const failure = settled.find((r) => r.status === 'rejected');
    if (failure) throw failure.reason;
    for (const status of this.finals.values()) if (!FOLLOW_UP_SUCCEEDED.has(status)) return 1;
    return 0;
  }
}
