/**
 * A profile's book written as NDJSON (one account a line, what `ferry push accounts` reads), with
 * beside it the source rows of each account (`<book>.sources.ndjson`, one line per account:
 * `{external_account_number, sources}`), which a push's report uses to say where each error's
 * field came from. Both are written under temporary names and renamed only when the mapping met no
 * problem: a profile or source mistake leaves nothing behind, not even a part of a book.
 */
import { closeSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { type MapOptions, type MapResult, mapBook } from './map-book.ts';
import { loadProfile } from './profile.ts';
import { type BookPlan, planProfile } from './profile-plan.ts';

export const sourcesPathOf = (bookPath: string) => `${bookPath.replace(/\.ndjson$/, '')}.sources.ndjson`;

/** The plan of the profile at `path`; throws ProfileError with every problem. */
export const planProfileFile = (path: string): BookPlan => planProfile(loadProfile(path));

/**
 * Lines written through one reused buffer: each line is encoded into it as UTF-8 where it stands,
 * and the buffer written when full — no joined string and no new buffer per write (a book of 1.5
 * million accounts is some 3 GB of text).
 */
export class LineWriter {
  private readonly fd: number;
  private readonly buffer = Buffer.allocUnsafe(1 << 22);
  private size = 0;

  constructor(readonly path: string) {
    this.fd = openSync(path, 'w');
  }

  line(text: string) {
    // A UTF-16 unit is at most 3 bytes of UTF-8; a line longer than the buffer is written alone.
    if (this.size + text.length * 3 + 1 > this.buffer.length) {
      this.flush();
      if (text.length * 3 + 1 > this.buffer.length) {
        writeSync(this.fd, `${text}\n`);
        return;
      }
    }
    this.size += this.buffer.write(text, this.size, 'utf8');
    this.buffer[this.size++] = 0x0a;
  }

  flush() {
    let at = 0;
    while (at < this.size) at += writeSync(this.fd, this.buffer, at, this.size - at);
    this.size = 0;
  }

  close() {
    this.flush();
    closeSync(this.fd);
  }
}

/** Maps `plan` into `bookPath` (and its sources file); writes nothing when there are problems. */
export async function writeBook(
  plan: BookPlan,
  bookPath: string,
  options: MapOptions = {},
): Promise<MapResult> {
  const sourcesPath = sourcesPathOf(bookPath);
  const book = new LineWriter(`${bookPath}.partial`);
  const sources = new LineWriter(`${sourcesPath}.partial`);
  let result: MapResult | undefined;
  try {
    result = await mapBook(
      plan,
      (mapped) => {
        // Once a problem is found the book will not be kept: stop writing it.
        if (result === undefined && (options.problems?.total ?? 0) > 0) return;
        book.line(JSON.stringify(mapped.account));
        // What JSON.stringify({external_account_number, sources}) writes, without the object.
        const number = JSON.stringify(mapped.account.external_account_number ?? null);
        const json = mapped.sourcesJson ? mapped.sourcesJson() : JSON.stringify(mapped.sources);
        sources.line(`{"external_account_number":${number},"sources":${json}}`);
      },
      options,
    );
  } finally {
    book.close();
    sources.close();
    if (result === undefined || result.problems.total > 0) {
      rmSync(book.path, { force: true });
      rmSync(sources.path, { force: true });
    }
  }
  if (result.problems.total === 0) {
    renameSync(book.path, bookPath);
    renameSync(sources.path, sourcesPath);
  }
  return result;
}
