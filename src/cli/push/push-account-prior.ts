/**
 * What an earlier run of `ferry push accounts` left: the report's final lines and the journal's
 * scheduled ones. For each line of the input it decides whether the account is final already,
 * is to be polled, or is to be sent (again): a line whose text changed since it was reported
 * (its digest) unless its account was created, a line reported REJECTED or ERRORED under
 * --retry-rejected, and under --validate-only a line whose whole-book errors changed, are sent
 * again, and the report line they replace is dropped when the run completes (compactNdjson), so
 * the report keeps one line per account.
 */
import { asKeyPart, asObject, reportKey } from './push-account-lines.ts';
import type { ReportedError } from './push-input.ts';
import { compactNdjson, cutTornLine, journalPath, ndjsonRecords } from './push-report.ts';

/** Statuses --retry-rejected sends again. */
export const RETRIED_STATUSES = new Set(['REJECTED', 'ERRORED', 'DRY_RUN_ERRORED']);

export type PriorDecision =
  /**
   * `changed`: the line differs from the one reported, but its account was created already.
   * `index`: the report line's (sameAccount, supersede).
   */
  { kind: 'final'; status: string; index: number; changed?: boolean } | { kind: 'poll' } | { kind: 'send' };

/** A 32-bit FNV-1a hash of an account number (0 for none): the report's numbers, compactly. */
function numberHash(accountNumber: string | null): number {
  if (accountNumber === null) return 0;
  let h = 0x811c9dc5;
  for (let i = 0; i < accountNumber.length; i++) h = Math.imul(h ^ accountNumber.charCodeAt(i), 0x01000193);
  // Unsigned, as the column keeps it (`| 1` alone would give a signed number); never 0.
  return (h | 1) >>> 0;
}

/**
 * A changed line whose account was created is not sent again: the service creates an account
 * once, so the push could only answer PROCESSED again, or REJECTED should the new line be invalid
 * (it validates before it looks), losing the account number from the report.
 */
const CREATED = 'PROCESSED';

/** The whole-book errors of a report line, as one comparable string ('' when none). */
export function bookSignature(errors: readonly unknown[]): string {
  return errors
    .map((e) => asObject(e))
    .filter((e) => typeof e?.other_line === 'number')
    .map((e) => `${e?.code}|${e?.attr}|${e?.other_line}`)
    .sort()
    .join(';');
}

/** A growable typed column. */
function grown<T extends Uint8Array | Uint32Array>(column: T, index: number): T {
  if (index < column.length) return column;
  const next = new (column.constructor as new (n: number) => T)(Math.max(index + 1, column.length * 2));
  next.set(column);
  return next;
}

interface JournalEntry {
  digest: string | null;
  /** How many lines the report had when the entry was written: it is newer than those. */
  after: number;
}

/**
 * The report's lines by key, compactly (a book may hold millions of accounts): the key's index
 * in a Map, the status and digest in typed columns by index.
 */
export class PriorReport {
  readonly #byKey = new Map<string, number>();
  readonly #statuses: string[] = [];
  #status = new Uint8Array(1024);
  /** The digest's two halves; a line reported by an older ferry has none (hasDigest 0). */
  #digestHigh = new Uint32Array(1024);
  #digestLow = new Uint32Array(1024);
  #hasDigest = new Uint8Array(1024);
  /** The reported service account number's hash (numberHash). */
  #accountNumber = new Uint32Array(1024);
  /** Report lines another line replaces: an older line of the same key, or one sent again. */
  #superseded = new Uint8Array(1024);
  /** Report lines of an account the input still has (decide was asked about it). */
  #visited = new Uint8Array(1024);
  readonly #bookSignatures = new Map<number, string>();
  readonly #journal = new Map<string, JournalEntry>();
  /** How many lines the report holds (the next one appended has this index). */
  lines = 0;
  /** How many it held before this run. */
  #linesAtStart = 0;

  private constructor(
    readonly reportPath: string,
    readonly options: { retryRejected: boolean; validate: boolean },
  ) {}

  /** Reads the report (a torn last line cut off) and, unless `validate`, the journal. */
  static async read(
    reportPath: string,
    options: { retryRejected: boolean; validate: boolean },
  ): Promise<PriorReport> {
    const prior = new PriorReport(reportPath, options);
    cutTornLine(reportPath);
    for await (const { index, value } of ndjsonRecords(reportPath)) {
      prior.lines = index + 1;
      if (value && typeof value.status === 'string') prior.#add(index, value);
    }
    if (!options.validate) {
      const journal = journalPath(reportPath);
      cutTornLine(journal);
      for await (const { value } of ndjsonRecords(journal)) {
        if (typeof value?.key !== 'string') continue;
        prior.#journal.set(value.key, {
          digest: typeof value.digest === 'string' ? value.digest : null,
          after: typeof value.after === 'number' ? value.after : 0,
        });
      }
    }
    prior.#linesAtStart = prior.lines;
    return prior;
  }

  #add(index: number, line: Record<string, unknown>): void {
    const key = reportKey(line);
    const earlier = this.#byKey.get(key);
    // A killed run leaves the line it replaced: the later one stands.
    if (earlier !== undefined) this.supersede(earlier);
    this.#byKey.set(key, index);
    const status = String(line.status);
    let s = this.#statuses.indexOf(status);
    if (s === -1) s = this.#statuses.push(status) - 1;
    this.#status = grown(this.#status, index);
    this.#status[index] = s;
    this.#accountNumber = grown(this.#accountNumber, index);
    this.#accountNumber[index] = numberHash(asKeyPart(line.service_account_number));
    const digest = asKeyPart(line.digest);
    this.#hasDigest = grown(this.#hasDigest, index);
    this.#digestHigh = grown(this.#digestHigh, index);
    this.#digestLow = grown(this.#digestLow, index);
    if (digest !== null && /^[0-9a-f]{16}$/.test(digest)) {
      this.#hasDigest[index] = 1;
      this.#digestHigh[index] = Number.parseInt(digest.slice(0, 8), 16);
      this.#digestLow[index] = Number.parseInt(digest.slice(8), 16);
    }
    if (this.options.validate) {
      const signature = bookSignature(Array.isArray(line.errors) ? line.errors : []);
      if (signature) this.#bookSignatures.set(index, signature);
    }
  }

  /** Whether the report line at `index` gives this service account number. */
  sameAccount(index: number, accountNumber: string | null): boolean {
    return this.#accountNumber[index] === numberHash(accountNumber);
  }

  /** Whether an earlier run left anything: report lines or a journal. */
  get written(): boolean {
    return this.lines > 0 || this.#journal.size > 0;
  }

  supersede(index: number): void {
    this.#superseded = grown(this.#superseded, index);
    this.#superseded[index] = 1;
  }

  #digestDiffers(index: number, digest: string): boolean {
    if (!this.#hasDigest[index]) return false;
    return (
      this.#digestHigh[index] !== Number.parseInt(digest.slice(0, 8), 16) ||
      this.#digestLow[index] !== Number.parseInt(digest.slice(8), 16)
    );
  }

  /**
   * What to do with a line of the input: `digest` its text's, `bookErrors` what the whole-book
   * checks found on it (--validate-only). A line sent again supersedes its report line.
   */
  decide(key: string, digest: string, bookErrors: readonly ReportedError[] = []): PriorDecision {
    const index = this.#byKey.get(key);
    const journal = this.#journal.get(key);
    // Written after the report line: the line was sent again (a changed line, --retry-rejected).
    const journalIsNewer = journal !== undefined && (index === undefined || journal.after > index);
    if (index !== undefined) {
      this.#visited = grown(this.#visited, index);
      this.#visited[index] = 1;
      const status = this.#statuses[this.#status[index]];
      const changed = this.#digestDiffers(index, digest);
      if (status === CREATED && !journalIsNewer)
        return { kind: 'final', status, index, ...(changed ? { changed } : {}) };
      const again =
        journalIsNewer ||
        changed ||
        (this.options.retryRejected && RETRIED_STATUSES.has(status)) ||
        (this.options.validate && bookSignature(bookErrors) !== (this.#bookSignatures.get(index) ?? ''));
      if (!again) return { kind: 'final', status, index };
      this.supersede(index);
    }
    if (journalIsNewer && (journal.digest === null || journal.digest === digest)) return { kind: 'poll' };
    return { kind: 'send' };
  }

  /**
   * Drops the report lines replaced by later ones and, under --validate-only (the report then
   * describes the file as it is), those of accounts the input no longer has. The report must be
   * closed.
   */
  async compact(): Promise<void> {
    const linesBefore = this.#linesAtStart;
    const superseded = this.#superseded;
    const visited = this.#visited;
    const stale = (index: number) =>
      this.options.validate && index < linesBefore && !(index < visited.length && visited[index] === 1);
    const drop = (index: number) => (index < superseded.length && superseded[index] === 1) || stale(index);
    let dropped = 0;
    for (let i = 0; i < linesBefore; i++) if (drop(i)) dropped++;
    if (dropped === 0) return;
    await compactNdjson(this.reportPath, drop);
    this.lines -= dropped;
    this.#superseded = new Uint8Array(1024);
    this.#visited = new Uint8Array(1024);
    this.#linesAtStart = this.lines;
  }
}
