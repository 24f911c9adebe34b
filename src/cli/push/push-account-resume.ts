/**
 * What a re-run of `ferry push accounts` does with each line of the input, given the earlier
 * report (push-account-prior.ts) and, for what the report calls final, the service's word
 * (push-account-confirm.ts): those lines wait in batches until the service is asked about a
 * thousand at once, so outcomes come out of order. Tells what it found: lines changed after
 * their account was created (not sent again), and accounts the report called final that the
 * service says are not (sent again).
 */
import { CONFIRMED_STATUSES, confirmWithService } from './push-account-confirm.ts';
import type { Entry } from './push-account-lines.ts';
import type { PriorDecision, PriorReport } from './push-account-prior.ts';
import type { ReportedError } from './push-input.ts';
import type { PushSession } from './push-session.ts';

/** Lines the report calls final confirmed with the service together (a statuses request's worth). */
const CONFIRM_BATCH = 1_000;
/** Lines changed after their account was created that are named one by one; the rest are counted. */
const WARN_FIRST = 5;

/** A line's outcome: skipped as final, final anew (the service's word), followed, or sent. */
export type Resumed = {
  entry: Entry;
  parseError: string | null;
  outcome:
    | { kind: 'final'; status: string }
    | { kind: 'reported'; status: string; accountNumber: string | null; errors: ReportedError[] }
    | { kind: 'poll' }
    | { kind: 'send' };
};

type Waiting = { entry: Entry; parseError: string | null; decision: PriorDecision & { kind: 'final' } };

export class ResumeDecisions {
  #waiting: Waiting[] = [];
  #changedCreated = 0;
  /** Accounts the report called final that the service says are not any more, by why. */
  readonly #reopened = new Map<string, number>();
  /** Accounts the service holds in another final state (or number) than the report: by that state. */
  readonly #reported = new Map<string, number>();

  constructor(
    readonly options: {
      prior: PriorReport;
      /** Null: nothing is confirmed (--validate-only: its report holds no service's state). */
      session: PushSession | null;
      batchStatus: boolean;
      concurrency: number;
      warn: (line: string) => void;
    },
  ) {}

  /** A line of the input: the outcomes known now (this line's, or a batch's just confirmed). */
  async take(entry: Entry, parseError: string | null, bookErrors: readonly ReportedError[] = []) {
    const decision = this.options.prior.decide(entry.key, entry.digest, bookErrors);
    if (decision.kind !== 'final') return [{ entry, parseError, outcome: decision }];
    if (this.options.session === null || entry.ext === null || !CONFIRMED_STATUSES.has(decision.status)) {
      if (decision.changed) this.#changedAfterCreation(entry);
      return [{ entry, parseError, outcome: { kind: 'final' as const, status: decision.status } }];
    }
    this.#waiting.push({ entry, parseError, decision });
    return this.#waiting.length >= CONFIRM_BATCH ? this.#confirm() : [];
  }

  /** The outcomes of the lines still waiting, at the input's end; then what was found is told. */
  async end(): Promise<Resumed[]> {
    const rest = await this.#confirm();
    const { warn } = this.options;
    if (this.#changedCreated > WARN_FIRST)
      warn(`${this.#changedCreated} lines in all changed after their account was created; not sent`);
    for (const [why, n] of this.#reopened)
      warn(`${n} account${n === 1 ? '' : 's'} the report called final: ${why}; sent again`);
    for (const [status, n] of this.#reported)
      warn(
        `${n} account${n === 1 ? '' : 's'} the report called final the service now holds as ${status}; reported so`,
      );
    return rest;
  }

  /**
   * Asks the service about the waiting lines: still final, skipped; waiting again, followed; final
   * otherwise, reported anew; gone, sent again. A report line not final any more is replaced once
   * the run completes.
   */
  async #confirm(): Promise<Resumed[]> {
    const batch = this.#waiting;
    this.#waiting = [];
    const { prior, session } = this.options;
    if (batch.length === 0 || session === null) return [];
    const answers = await confirmWithService(
      session,
      batch.map(({ entry, decision }) => ({
        entry,
        status: decision.status,
        sameAccount: (n: string | null) => prior.sameAccount(decision.index, n),
      })),
      { batchStatus: this.options.batchStatus, concurrency: this.options.concurrency },
    );
    return batch.map(({ entry, parseError, decision }, i): Resumed => {
      const answer = answers[i];
      if (answer.kind === 'final') {
        if (decision.changed) this.#changedAfterCreation(entry);
        return { entry, parseError, outcome: { kind: 'final', status: decision.status } };
      }
      prior.supersede(decision.index);
      if (answer.kind === 'send') {
        this.#reopened.set(answer.why, (this.#reopened.get(answer.why) ?? 0) + 1);
        return { entry, parseError, outcome: { kind: 'send' } };
      }
      if (answer.kind === 'poll') return { entry, parseError, outcome: answer };
      const { status, accountNumber, errors } = answer;
      this.#reported.set(status, (this.#reported.get(status) ?? 0) + 1);
      return { entry, parseError, outcome: { kind: 'reported', status, accountNumber, errors } };
    });
  }

  /** A line changed since its account was created (not sent again): the first few by name. */
  #changedAfterCreation(e: Entry): void {
    if (++this.#changedCreated <= WARN_FIRST) {
      this.options.warn(
        `line ${e.line}: account ${e.key} was created (PROCESSED) before this line changed; not sent again ` +
          '(the service creates an account once)',
      );
    }
  }
}
