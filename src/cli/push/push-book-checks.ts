/**
 * The whole-book checks of `ferry push accounts --validate-only`, which no request to the service
 * can make: an external account number given on two lines of the file, and an identifier that
 * must be unique across accounts (uniqueIdentifiersOf: meter points, references, CAIS references)
 * given by two accounts of the file. One pass over the file finds them before anything is sent;
 * each is then reported on both lines, the later one naming the first and the first naming the
 * later one (and how many more).
 *
 * Memory stays bounded whatever the book's size: the keys are kept as hashes with the first line
 * of each (LineTable), the lines' offsets in typed arrays, and each hash hit is confirmed by
 * reading the other line again from the file.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import {
  CONFLICT_CODES,
  KIND_NAMES,
  type UniqueIdentifier,
  type UniqueIdentifierKind,
  uniqueIdentifiersOf,
} from '../../accounts/payload/unique-identifiers.ts';
import { hash64 } from '../../infra/hash64.ts';
import { asKeyPart, payloadOf, REPEATED_IN_FILE } from './push-account-lines.ts';
import { type ReportedError, readInputLines } from './push-input.ts';
import { LineTable } from './push-line-table.ts';

/** What a conflict is on: the external account number (0) or a kind of unique identifier. */
const KINDS = ['external_account_number', 'meter_point', 'reference', 'cais_reference'] as const;
const EXT = 0;
const kindCode = (kind: UniqueIdentifierKind) => KINDS.indexOf(kind);

/** Unique identifiers an account of a book gives, for sizing the table (it grows past it). */
const KEYS_PER_ACCOUNT = 4;

/** What a line of the book is, read as an account. */
interface BookLine {
  supplier: string | null;
  ext: string | null;
  ids: UniqueIdentifier[];
}

function bookLineOf(value: unknown): BookLine {
  const payload = payloadOf(value);
  return {
    supplier: asKeyPart(payload?.import_supplier),
    ext: asKeyPart(payload?.external_account_number),
    ids: uniqueIdentifiersOf(payload),
  };
}

/** A growable column of unsigned 32-bit numbers. */
class Column {
  values: Uint32Array;
  constructor(capacity = 1024) {
    this.values = new Uint32Array(capacity);
  }
  set(i: number, v: number) {
    if (i >= this.values.length) {
      const grown = new Uint32Array(Math.max(i + 1, this.values.length * 2));
      grown.set(this.values);
      this.values = grown;
    }
    this.values[i] = v;
  }
}

/** Where each line of the file is, by line number, to read it again alone. */
class LineOffsets {
  readonly #offsetLow = new Column();
  readonly #offsetHigh = new Column();
  readonly #bytes = new Column();
  readonly #fd: number;
  #cached: { line: number; book: BookLine } | null = null;

  constructor(file: string) {
    this.#fd = openSync(file, 'r');
  }

  record(line: number, offset: number, bytes: number) {
    this.#offsetLow.set(line, offset % 4294967296);
    this.#offsetHigh.set(line, Math.floor(offset / 4294967296));
    this.#bytes.set(line, bytes);
  }

  /** The line read again from the file (the last one read is kept: a repeat asks for it a few times). */
  read(line: number): BookLine {
    if (this.#cached?.line === line) return this.#cached.book;
    const bytes = this.#bytes.values[line];
    const offset = this.#offsetHigh.values[line] * 4294967296 + this.#offsetLow.values[line];
    const buffer = Buffer.alloc(bytes);
    readSync(this.#fd, buffer, 0, bytes, offset);
    let value: unknown;
    try {
      value = JSON.parse(buffer.toString('utf8'));
    } catch {
      value = undefined;
    }
    const book = bookLineOf(value);
    this.#cached = { line, book };
    return book;
  }

  close() {
    closeSync(this.#fd);
  }
}

/** Conflicts found, in the order of their later line: which two lines, on what, where in each. */
class Conflicts {
  readonly later = new Column();
  readonly first = new Column();
  readonly kind = new Column();
  readonly laterIndex = new Column();
  readonly firstIndex = new Column();
  size = 0;

  add(later: number, first: number, kind: number, laterIndex: number, firstIndex: number) {
    const i = this.size++;
    this.later.set(i, later);
    this.first.set(i, first);
    this.kind.set(i, kind);
    this.laterIndex.set(i, laterIndex);
    this.firstIndex.set(i, firstIndex);
  }
}

/** The first index of `sorted` (ascending, through `at`) whose value is at least `value`. */
function lowerBound(size: number, at: (i: number) => number, value: number): number {
  let lo = 0;
  let hi = size;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (at(mid) < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

const describeKey = (kind: number, key: string) =>
  kind === EXT
    ? `External account number ${key}`
    : `${KIND_NAMES[KINDS[kind] as UniqueIdentifierKind]} ${key.replace('=', ' = ')}`;

const codeOf = (kind: number) =>
  kind === EXT ? REPEATED_IN_FILE : CONFLICT_CODES[KINDS[kind] as UniqueIdentifierKind];

export class BookChecks {
  readonly #lines: LineOffsets;
  readonly #conflicts: Conflicts;
  /** Conflict numbers ordered by first line, then what the conflict is on, then later line. */
  readonly #byFirst: Uint32Array;

  constructor(lines: LineOffsets, conflicts: Conflicts) {
    this.#lines = lines;
    this.#conflicts = conflicts;
    const c = conflicts;
    const order = Array.from({ length: c.size }, (_, i) => i);
    order.sort(
      (a, b) =>
        c.first.values[a] - c.first.values[b] ||
        c.kind.values[a] - c.kind.values[b] ||
        c.firstIndex.values[a] - c.firstIndex.values[b] ||
        c.later.values[a] - c.later.values[b],
    );
    this.#byFirst = Uint32Array.from(order);
  }

  /** How many pairs of lines give the same external account number or identifier. */
  get conflicts() {
    return this.#conflicts.size;
  }

  /** Whether an earlier line of the file gives this line's external account number. */
  isRepeat(line: number): boolean {
    const c = this.#conflicts;
    for (let i = lowerBound(c.size, (j) => c.later.values[j], line); i < c.size; i++) {
      if (c.later.values[i] !== line) return false;
      if (c.kind.values[i] === EXT) return true;
    }
    return false;
  }

  /** What the whole-book checks report on a line (its value as parsed); empty for most lines. */
  errorsOf(line: number, value: unknown): ReportedError[] {
    const c = this.#conflicts;
    const errors: ReportedError[] = [];
    let self: BookLine | null = null;
    const book = () => {
      self ??= bookLineOf(value);
      return self;
    };
    const keyOf = (kind: number, index: number) => (kind === EXT ? book().ext! : book().ids[index].key);
    const attrOf = (kind: number, index: number) =>
      kind === EXT ? 'external_account_number' : book().ids[index].attr;
    const error = (kind: number, index: number, other: number, more: number): ReportedError => {
      const otherExt = this.#lines.read(other).ext;
      const named = kind === EXT ? '' : ` (external account number ${otherExt ?? 'none'})`;
      const andMore = more > 0 ? `, and on ${more} more line${more === 1 ? '' : 's'}` : '';
      return {
        code: codeOf(kind),
        attr: attrOf(kind, index),
        detail: `${describeKey(kind, keyOf(kind, index))} is also on line ${other} of the file${named}${andMore}.`,
        other_line: other,
        other_external_account_number: otherExt,
      };
    };
    // As the later line: each conflict names the first line.
    for (let i = lowerBound(c.size, (j) => c.later.values[j], line); i < c.size; i++) {
      if (c.later.values[i] !== line) break;
      errors.push(error(c.kind.values[i], c.laterIndex.values[i], c.first.values[i], 0));
    }
    // As the first line: one error per key, naming the next line that gives it and counting the rest.
    const order = this.#byFirst;
    let i = lowerBound(order.length, (j) => c.first.values[order[j]], line);
    while (i < order.length && c.first.values[order[i]] === line) {
      const head = order[i];
      let n = 1;
      while (
        i + n < order.length &&
        c.first.values[order[i + n]] === line &&
        c.kind.values[order[i + n]] === c.kind.values[head] &&
        c.firstIndex.values[order[i + n]] === c.firstIndex.values[head]
      )
        n++;
      errors.push(error(c.kind.values[head], c.firstIndex.values[head], c.later.values[head], n - 1));
      i += n;
    }
    return errors;
  }

  close() {
    this.#lines.close();
  }
}

/**
 * One pass over the book: every external account number (per supplier) and unique identifier,
 * and the lines that give one an earlier line gave. A line that repeats an account (its external
 * number) is not reported again for the identifiers it shares with that account.
 */
export async function checkBook(
  file: string,
  expectedLines: number,
  /** The keys' hash (a test passes one that collides, to show collisions report nothing). */
  hash: (key: string) => [number, number] = hash64,
): Promise<BookChecks> {
  const lines = new LineOffsets(file);
  const table = new LineTable(expectedLines * KEYS_PER_ACCOUNT);
  const conflicts = new Conflicts();
  try {
    for await (const input of readInputLines(file)) {
      lines.record(input.line, input.offset, input.bytes);
      if (input.parseError !== null) continue;
      const { supplier, ext, ids } = bookLineOf(input.value);
      let repeatOf = 0;
      if (ext !== null) {
        // A NUL cannot start a kind's name: these keys never meet an identifier's.
        const key = `\u0000${supplier ?? ''}\u0000${ext}`;
        repeatOf = table.firstLineOf(hash(key), input.line, (other) => {
          const o = lines.read(other);
          return o.ext === ext && o.supplier === supplier;
        });
        if (repeatOf) conflicts.add(input.line, repeatOf, EXT, 0, 0);
      }
      ids.forEach((id, j) => {
        let firstIndex = -1;
        const first = table.firstLineOf(hash(`${id.kind}\u0000${id.key}`), input.line, (other) => {
          firstIndex = lines.read(other).ids.findIndex((o) => o.kind === id.kind && o.key === id.key);
          return firstIndex >= 0;
        });
        if (first && first !== repeatOf) conflicts.add(input.line, first, kindCode(id.kind), j, firstIndex);
      });
    }
  } catch (err) {
    lines.close();
    throw err;
  }
  return new BookChecks(lines, conflicts);
}
